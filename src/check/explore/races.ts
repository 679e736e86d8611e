/**
 * Mixed races: two different operations on one piece of state, sent to the target at once and
 * judged by invariants on the target's answers alone, never by which side won (that is the
 * target's call). Each race sets up its own subject first (a resting order, an approved agent)
 * so that it is reached in any sequence; the reference then gets the same requests one by one in
 * an order the target's answers allow, and only when both sides agree on every answer is their
 * visible state compared (else the sequence ends there: a correct target may have chosen the
 * other order).
 */
import type { HttpExchange } from '../target/http.ts'
import { route } from '../target/routes.ts'
import type { Wallet } from '../target/wallets.ts'
import type { OperationId } from '../../contract/generated/types.ts'
import type { OptionsKind } from '../../signing/index.ts'
import type { BodyEntries } from '../target/requests.ts'
import type { Hex } from '../../signing/index.ts'
import { invariant, type Divergence } from './compare.ts'
import type { Pair } from './pair.ts'
import { observe, tookEffect, type AnswerKind, type Observed } from './observe.ts'
import type { NoncePick, Step } from './steps.ts'

type Mixed = Extract<Step, { op: 'mixed' }>
export type RaceVerdict = readonly Divergence[] | 'rolled'

/** What a race needs of the sequence it runs in. */
export interface RaceWorld {
  readonly pair: Pair
  readonly wallets: readonly Wallet[]
  readonly agents: readonly Wallet[]
  nonce(account: string, pick: NoncePick): bigint
  settle(account: string, nonce: bigint, effect: boolean): void
  sign(kind: OptionsKind, entries: BodyEntries, key: Hex): Promise<string>
  /** Whether `wallet` approves `agent` (as the reference knows it). */
  approved(wallet: number, agent: number): boolean
  setApproved(wallet: number, agent: number, on: boolean): void
  /** An order of `wallet` accepted on both sides, for the sequence's later steps to name (target and reference ids). */
  placed(wallet: number, clientId: string, target: string | undefined, oracle: string | undefined): void
  newClientId(wallet: number): string
  record(step: Step, t: HttpExchange[], o: HttpExchange[]): void
  nonceTaken(account: string, nonce: bigint): Divergence[]
  ordersTaken(account: string, t: Observed, units: number): Divergence[]
  /** The wallets' orders (and the agents of `agentsOf`) compared on both sides. */
  state(wallets: readonly number[], agentsOf?: number): Promise<RaceVerdict>
}

/** One signed request, the same text on both sides unless the ids differ. */
interface Req {
  readonly op: OperationId
  readonly kind: AnswerKind
  readonly target: string
  readonly oracle: string
}

const send = (w: RaceWorld, side: 'target' | 'oracle', r: Req): Promise<HttpExchange> => {
  const { method, path } = route(w.pair, r.op)
  return w.pair[side].send(method, path, { body: r[side] })
}

/** A resting order of `wallet` far below any ask (a buy at 1), signed by `key`. */
async function restingOrder(w: RaceWorld, wallet: number, key: Hex): Promise<{ req: Req; nonce: bigint; clientId: string }> {
  const account = w.wallets[wallet]!.address
  const nonce = w.nonce(account, 'fresh')
  const clientId = w.newClientId(wallet)
  const text = await w.sign(
    'PlaceOrder',
    [
      ['wallet', account],
      ['symbol', w.pair.symbols[0]!],
      ['side', 'Buy'],
      ['size', '1'],
      ['price', '1'],
      ['tif', 'gtc'],
      ['route', 'book_only'],
      ['client_id', clientId],
      ['nonce', nonce],
    ],
    key,
  )
  return { req: { op: 'placeOrder', kind: 'order', target: text, oracle: text }, nonce, clientId }
}

async function agentReq(w: RaceWorld, op: 'approve' | 'revoke', wallet: number, agent: number): Promise<{ req: Req; nonce: bigint }> {
  const owner = w.wallets[wallet]!
  const nonce = w.nonce(owner.address, 'fresh')
  const text = await w.sign(
    op === 'approve' ? 'ApproveAgent' : 'RevokeAgent',
    [
      ['agent', w.agents[agent]!.address],
      ['nonce', nonce],
    ],
    owner.privateKey,
  )
  return { req: { op: op === 'approve' ? 'approveAgent' : 'revokeAgent', kind: 'agent', target: text, oracle: text }, nonce }
}

const orderId = (e: HttpExchange) => {
  const id = (e.response?.json as { order_id?: unknown } | undefined)?.order_id
  return typeof id === 'string' ? id : undefined
}

/** The setup request, sent to both sides one after the other; whether both took it. */
async function setup(w: RaceWorld, step: Mixed, r: Req): Promise<{ ok: boolean; t: HttpExchange; o: HttpExchange }> {
  const t = await send(w, 'target', r)
  const o = await send(w, 'oracle', r)
  w.record(step, [t], [o])
  return { ok: tookEffect(observe(t, r.kind)) && tookEffect(observe(o, r.kind)), t, o }
}

/** Runs one mixed race. */
export function runMixed(w: RaceWorld, step: Mixed): Promise<RaceVerdict> {
  const agent = step.agent % w.agents.length
  switch (step.race) {
    case 'cancel-cancel':
      return cancelCancel(w, step)
    case 'approve-revoke':
      return approveRevoke(w, step, agent)
    case 'order-revoke':
      return orderRevoke(w, step, agent)
  }
}

/**
 * The owner's two cancels of one resting order (two nonces), at once: at most one is done. A
 * second cancel answered CANCELED for an order the first one cancelled is a lost update.
 */
async function cancelCancel(w: RaceWorld, step: Mixed): Promise<RaceVerdict> {
  const owner = w.wallets[step.wallet]!
  const placing = await restingOrder(w, step.wallet, owner.privateKey)
  const made = await setup(w, step, placing.req)
  const [tid, oid] = [orderId(made.t), orderId(made.o)]
  w.settle(owner.address, placing.nonce, tookEffect(observe(made.o, 'order')))
  if (tookEffect(observe(made.t, 'order'))) {
    const early = [...w.nonceTaken(owner.address, placing.nonce), ...w.ordersTaken(owner.address, observe(made.t, 'order'), 1)]
    if (early.length) return early
  }
  if (!made.ok || tid === undefined || oid === undefined) return made.ok ? [] : 'rolled'
  w.placed(step.wallet, placing.clientId, tid, oid)
  const cancels: { req: Req; nonce: bigint }[] = []
  for (let i = 0; i < 2; i++) {
    const nonce = w.nonce(owner.address, 'fresh')
    const body = (id: string) =>
      w.sign(
        'CancelOrder',
        [
          ['wallet', owner.address],
          ['order_id', id],
          ['nonce', nonce],
        ],
        owner.privateKey,
      )
    cancels.push({ req: { op: 'cancelOrder', kind: 'cancel', target: await body(tid), oracle: await body(oid) }, nonce })
  }
  const tx = await Promise.all(cancels.map((c) => send(w, 'target', c.req)))
  const ts = tx.map((e) => observe(e, 'cancel'))
  // The reference in the order the target suggests: a done cancel first.
  const order = tookEffect(ts[1]!) && !tookEffect(ts[0]!) ? [1, 0] : [0, 1]
  const ox: HttpExchange[] = []
  for (const i of order) ox[i] = await send(w, 'oracle', cancels[i]!.req)
  w.record(step, tx, ox)
  const os = ox.map((e) => observe(e, 'cancel'))
  if (ts.some((t) => t.status === 0)) return 'rolled'
  const out: Divergence[] = []
  for (const [i, c] of cancels.entries()) {
    w.settle(owner.address, c.nonce, tookEffect(os[i]!))
    if (tookEffect(ts[i]!)) out.push(...w.nonceTaken(owner.address, c.nonce))
  }
  out.push(...bothCancelled(tid, ts))
  if (out.length) return out
  if (ts.some((t, i) => t.outcome !== os[i]!.outcome)) return 'rolled'
  return w.state([step.wallet])
}

/** Invariant: of two cancels of one order, at most one is answered as done. */
export function bothCancelled(id: string, answers: readonly Observed[]): Divergence[] {
  if (answers.filter(tookEffect).length < 2) return []
  return [
    invariant(
      'EP-2',
      `both of two cancels of order ${id} sent at once were answered as done (${answers.map((a) => a.status).join(', ')}): a cancel can be done once`,
    ),
  ]
}

/** `wallet` approves the agent if the reference does not know it approved: the subject of the agent races. */
async function ensureApproved(w: RaceWorld, step: Mixed, wallet: number, agent: number): Promise<RaceVerdict | undefined> {
  if (w.approved(wallet, agent)) return undefined
  const owner = w.wallets[wallet]!
  const a = await agentReq(w, 'approve', wallet, agent)
  const made = await setup(w, step, a.req)
  const [t, o] = [observe(made.t, 'agent'), observe(made.o, 'agent')]
  w.settle(owner.address, a.nonce, tookEffect(o))
  if (tookEffect(o)) w.setApproved(wallet, agent, true)
  if (tookEffect(t)) {
    const taken = w.nonceTaken(owner.address, a.nonce)
    if (taken.length) return taken
  }
  // Refused on a side (a rate limit, an earlier divergence): no race today, the sequence goes on if both agree.
  if (!made.ok) return t.outcome === o.outcome ? [] : 'rolled'
  return undefined
}

/**
 * The owner's approve and revoke of one agent at once, from a state where it is approved or not.
 * Whichever arrives first, the listing after must be what some order of the two answers leaves:
 * an approve answered as done and then undone by a revoke answered as refused is a lost update.
 */
async function approveRevoke(w: RaceWorld, step: Mixed, agent: number): Promise<RaceVerdict> {
  const owner = w.wallets[step.wallet]!
  const before = w.approved(step.wallet, agent)
  const reqs = [await agentReq(w, 'approve', step.wallet, agent), await agentReq(w, 'revoke', step.wallet, agent)]
  const tx = await Promise.all(reqs.map((r) => send(w, 'target', r.req)))
  const ts = tx.map((e) => observe(e, 'agent'))
  const listed = await listsAgent(w, 'target', step.wallet, agent)
  // The reference in an order that leaves the target's listing: the revoke first when it still lists the agent.
  const order = listed ? [1, 0] : [0, 1]
  const ox: HttpExchange[] = []
  for (const i of order) ox[i] = await send(w, 'oracle', reqs[i]!.req)
  w.record(step, tx, ox)
  const os = ox.map((e) => observe(e, 'agent'))
  if (ts.some((t) => t.status === 0) || listed === undefined) return 'rolled'
  const out: Divergence[] = []
  for (const [i, r] of reqs.entries()) {
    w.settle(owner.address, r.nonce, tookEffect(os[i]!))
    if (tookEffect(ts[i]!)) out.push(...w.nonceTaken(owner.address, r.nonce))
  }
  out.push(...agentListing(owner.address, before, tookEffect(ts[0]!), tookEffect(ts[1]!), listed))
  if (out.length) return out
  const oracleListed = await listsAgent(w, 'oracle', step.wallet, agent)
  if (oracleListed !== undefined) w.setApproved(step.wallet, agent, oracleListed)
  if (ts.some((t, i) => t.outcome !== os[i]!.outcome) || oracleListed !== listed) return 'rolled'
  return w.state([step.wallet], step.wallet)
}

/**
 * Invariant: after an approve and a revoke of one agent, both answered, the listing is what one
 * of the two orders of the done ones leaves (neither done: as before).
 */
export function agentListing(owner: string, before: boolean, approved: boolean, revoked: boolean, listed: boolean): Divergence[] {
  const possible = approved && revoked ? [true, false] : approved ? [true] : revoked ? [false] : [before]
  if (possible.includes(listed)) return []
  return [
    invariant(
      'AGENT-4',
      `approve ${approved ? 'done' : 'refused'} and revoke ${revoked ? 'done' : 'refused'} of one agent at once (approved before: ${before}); GET /authorized-agents of ${owner} then ${listed ? 'lists' : 'does not list'} it`,
    ),
  ]
}

async function listsAgent(w: RaceWorld, side: 'target' | 'oracle', wallet: number, agent: number): Promise<boolean | undefined> {
  const { method, path } = route(w.pair, 'listAuthorizedAgents')
  const e = await w.pair[side].send(method, `${path}?wallet=${w.wallets[wallet]!.address}`)
  const list = (e.response?.json as { agents?: { agent?: unknown }[] } | undefined)?.agents
  if (!Array.isArray(list)) return undefined
  const a = w.agents[agent]!.address.toLowerCase()
  return list.some((x) => String(x?.agent).toLowerCase() === a)
}

/**
 * An order the agent signs for its owner, sent with the owner's revoke of it at once, and a
 * second order of the agent sent once the revoke is answered. The first may go either way; the
 * second comes after a revoke answered as done and must not take effect.
 */
async function orderRevoke(w: RaceWorld, step: Mixed, agent: number): Promise<RaceVerdict> {
  const early = await ensureApproved(w, step, step.wallet, agent)
  if (early !== undefined) return early
  const owner = w.wallets[step.wallet]!
  const key = w.agents[agent]!.privateKey
  const first = await restingOrder(w, step.wallet, key)
  const revoke = await agentReq(w, 'revoke', step.wallet, agent)
  const second = await restingOrder(w, step.wallet, key)
  const sentRevoke = send(w, 'target', revoke.req)
  const [t1, tr, t2] = await Promise.all([send(w, 'target', first.req), sentRevoke, sentRevoke.then(() => send(w, 'target', second.req))])
  const [o1, or, o2] = [observe(t1, 'order'), observe(tr, 'agent'), observe(t2, 'order')]
  // The reference: the first order before the revoke when the target took it, else after.
  const ox: HttpExchange[] = []
  if (tookEffect(o1)) {
    ox[0] = await send(w, 'oracle', first.req)
    ox[1] = await send(w, 'oracle', revoke.req)
  } else {
    ox[1] = await send(w, 'oracle', revoke.req)
    ox[0] = await send(w, 'oracle', first.req)
  }
  ox[2] = await send(w, 'oracle', second.req)
  w.record(step, [t1, tr, t2], ox)
  const [r1, rr, r2] = [observe(ox[0]!, 'order'), observe(ox[1]!, 'agent'), observe(ox[2]!, 'order')]
  if ([o1, or, o2].some((t) => t.status === 0)) return 'rolled'
  w.settle(owner.address, first.nonce, tookEffect(r1))
  w.settle(owner.address, revoke.nonce, tookEffect(rr))
  w.settle(owner.address, second.nonce, tookEffect(r2))
  if (tookEffect(rr)) w.setApproved(step.wallet, agent, false)
  const out: Divergence[] = []
  if (tookEffect(o1)) out.push(...w.nonceTaken(owner.address, first.nonce), ...w.ordersTaken(owner.address, o1, 1))
  if (tookEffect(or)) out.push(...w.nonceTaken(owner.address, revoke.nonce))
  if (tookEffect(o2)) out.push(...w.nonceTaken(owner.address, second.nonce), ...w.ordersTaken(owner.address, o2, 1))
  out.push(...orderAfterRevoke(owner.address, w.agents[agent]!.address, or, o2))
  const sent = [
    [t1, ox[0]!, o1, r1, first.clientId],
    [t2, ox[2]!, o2, r2, second.clientId],
  ] as const
  for (const [te, oe, t, o, clientId] of sent) if (tookEffect(t) || tookEffect(o)) w.placed(step.wallet, clientId, orderId(te), orderId(oe))
  if (out.length) return out
  if (o1.outcome !== r1.outcome || or.outcome !== rr.outcome || o2.outcome !== r2.outcome) return 'rolled'
  return w.state([step.wallet], step.wallet)
}

/** Invariant: an agent's order sent after its revoke was answered as done never takes effect. */
export function orderAfterRevoke(owner: string, agent: string, revoke: Observed, after: Observed): Divergence[] {
  if (!tookEffect(revoke) || !tookEffect(after)) return []
  return [
    invariant(
      'AGENT-5',
      `the revoke of agent ${agent} by ${owner} was answered ${revoke.status} as done, and an order the agent signed and sent after that answer was accepted (${after.status})`,
    ),
  ]
}
