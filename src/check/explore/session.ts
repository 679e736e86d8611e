/**
 * One explored sequence: fresh wallets and agents, each step turned into signed requests that go
 * to the target and to the reference server (same keys, nonces and bodies; an order id is each
 * side's own id for the same order), both answers compared (compare.ts), the visible state read
 * back from both after every write, and the invariants no answer order can excuse checked on the
 * target alone (one acceptance per nonce, no more orders taken in a window than its limit, no
 * more open orders than the cap).
 */
import type { RuleId } from '../../contract/generated/rules.ts'
import type { Hex, OptionsKind } from '../../signing/index.ts'
import type { HttpExchange } from '../target/http.ts'
import { route, pathOf } from '../target/routes.ts'
import { cmp, formatDec, parseDec, sub } from '../../server/decimal.ts'
import { perpOrderAction, RawJson, signBody, signPerpBody, type BodyEntries, type BodyValue } from '../target/requests.ts'
import { walletFromKey, type Wallet } from '../target/wallets.ts'
import type { OperationId } from '../../contract/generated/types.ts'
import { compareAnswers, divergence, invariant, type AnswerContext, type Divergence } from './compare.ts'
import type { Pair } from './pair.ts'
import { counterparties } from './read-back.ts'
import { WsWatch } from './ws-watch.ts'
import { observe, tookEffect, type AnswerKind, type Observed } from './observe.ts'
import {
  AGENTS,
  WALLETS,
  type ClientIdPick,
  type NoncePick,
  type OrderRef,
  type OrderSpec,
  type SignerPick,
  type Step,
  type SymbolPick,
} from './steps.ts'

export interface TraceStep {
  readonly step: Step
  readonly target: HttpExchange[]
  readonly oracle: HttpExchange[]
}

interface Placed {
  /** Trading wallet index; -1 for an account outside the sequence's wallets. */
  readonly wallet: number
  readonly clientId: string
  target?: string
  oracle?: string
  readonly asset?: number
}

interface Ledger {
  next: bigint
  low: bigint
  consumed?: bigint
  refused?: bigint
}

/** The first divergence of a step, or 'rolled' (the target's window rolled over: the rest is not comparable). */
export type StepVerdict = readonly Divergence[] | 'rolled'

const UNKNOWN_ID = '987654321987'

export class ExploreSession {
  readonly trace: TraceStep[] = []
  /** The steps run, as drawn (a trace entry is a request group: a fill makes several). */
  readonly steps: Step[] = []
  private readonly wallets: Wallet[]
  private readonly agents: Wallet[]
  private readonly stranger: Wallet
  private readonly ledgers = new Map<string, Ledger>()
  private readonly placed: Placed[] = []
  private readonly lastClientId: string[] = []
  private readonly known = new Set<string>()
  private readonly approvals = new Map<number, Set<number>>()
  private readonly takenNonces = new Map<string, Set<bigint>>()
  private readonly windowCounts = new Map<string, number>()
  private readonly firstReset = new Map<string, string>()
  private routeBaseline: Set<string> | undefined
  private counter = 0
  /** The tier wallet's orders from before this sequence, by each side's ids. */
  private earlier: { readonly target: ReadonlySet<string>; readonly oracle: ReadonlySet<string> } | undefined
  /** Parties (`w<i>`, `a<j>`) whose state the oracle took from the target after an allowed difference. */
  private readonly adopted = new Set<string>()
  /** The sequence's `/ws` updates on both sides (reach `parties`). */
  private readonly ws: WsWatch | undefined

  constructor(
    private readonly pair: Pair,
    keyFor: (label: string) => Hex,
  ) {
    this.wallets = Array.from({ length: WALLETS }, (_, i) =>
      walletFromKey(i === WALLETS - 1 && pair.tierWallet ? pair.tierWallet.privateKey : keyFor(`wallet${i}`)),
    )
    this.agents = Array.from({ length: AGENTS }, (_, i) => walletFromKey(keyFor(`agent${i}`)))
    this.stranger = walletFromKey(keyFor('stranger'))
    this.ws = pair.feeds && pair.reach !== 'acting' ? new WsWatch(pair.feeds) : undefined
  }

  /** The addresses whose orders the cleanup cancels. */
  accounts(): string[] {
    return [...this.wallets, ...this.agents].map((w) => w.address)
  }

  /**
   * Cancels what the sequence's parties still have open, on each side by its own ids: after a
   * sequence stopped at a difference the two books no longer match, and a later sequence's order
   * must not trade with what is left of this one.
   */
  async cleanup(): Promise<void> {
    this.ws?.close()
    await this.cancelOpen([...this.wallets, ...this.agents])
  }

  /**
   * Before the first step: the tier wallet is not fresh (earlier runs, the named checks, earlier
   * sequences of this shard traded with it), so what it has open is cancelled and the orders it
   * already has on each side are left out of the listings this sequence compares.
   */
  async begin(): Promise<void> {
    await this.ws?.watch(this.wallets.map((w) => w.address))
    if (!this.pair.tierWallet) return
    const w = this.wallets[WALLETS - 1]!
    await this.cancelOpen([w])
    const [te, oe] = await this.both('listOrders', undefined, undefined, { wallet: w.address })
    this.earlier = { target: orderIds(te), oracle: orderIds(oe) }
  }

  private async cancelOpen(parties: readonly Wallet[]): Promise<void> {
    for (const side of [this.pair.target, this.pair.oracle]) {
      for (const w of parties) {
        const list = await side.send('GET', pathOf(this.pair, 'listOrders', { wallet: w.address }))
        const open = ((list.response?.json as { orders?: { order_id?: unknown; status?: unknown }[] } | undefined)?.orders ?? [])
          .filter((o) => o.status === 'OPEN' && typeof o.order_id === 'string')
          .map((o) => o.order_id as string)
        for (let i = 0; i < open.length; i += 50) {
          const items: string[] = []
          for (const id of open.slice(i, i + 50)) {
            const entries: BodyEntries = [
              ['wallet', w.address],
              ['order_id', id],
              ['nonce', this.nonce(w.address, 'gap')],
            ]
            items.push(await this.sign('CancelOrder', entries, w.privateKey))
          }
          const { method, path } = route(this.pair, 'cancelOrders')
          await side.send(method, path, { body: `{"cancels":[${items.join(',')}]}` })
        }
      }
    }
  }

  // ---------------------------------------------------------------- values

  private ledger(key: string): Ledger {
    let l = this.ledgers.get(key)
    if (!l) {
      // A tier wallet's nonces were used before this sequence: its ledger starts at the time.
      const next = this.isTierWallet(key) ? BigInt(Date.now()) * 1000n : 1000n
      this.ledgers.set(key, (l = { next, low: next - 1n }))
    }
    return l
  }

  private isTierWallet(address: string): boolean {
    return this.pair.tierWallet !== undefined && address.toLowerCase() === this.wallets[WALLETS - 1]!.address.toLowerCase()
  }

  /** The cap of open orders of a wallet's tier. */
  private openCap(address: string): number {
    if (!this.isTierWallet(address)) return this.pair.openCap
    const cap = this.pair.spec.rateLimits.tiers[this.pair.tierWallet!.tier]?.maxOpenOrders ?? this.pair.openCap
    return cap < 0 ? Number.POSITIVE_INFINITY : cap
  }

  private nonce(key: string, pick: NoncePick): bigint {
    const l = this.ledger(key)
    // The fixed edge nonces of a wallet used before may be taken already: a tier wallet draws fresh.
    if ((pick === 'p53' || pick === 'max') && this.isTierWallet(key)) pick = 'fresh'
    switch (pick) {
      case 'reuse':
        if (l.consumed !== undefined) return l.consumed
        break
      case 'retry':
        if (l.refused !== undefined) return l.refused
        break
      case 'gap':
        l.next += 1000n
        break
      case 'lower':
        return l.low--
      case 'p53':
        return 2n ** 53n + 1n
      case 'max':
        return 2n ** 64n - 1n
    }
    return l.next++
  }

  private settle(key: string, nonce: bigint, effect: boolean): void {
    const l = this.ledger(key)
    if (effect) l.consumed = nonce
    else l.refused = nonce
  }

  private symbol(pick: SymbolPick): string {
    const s = this.pair.symbols
    if (typeof pick === 'number') return s[pick % s.length]!
    if (pick === 'unlisted') return this.pair.missingSymbol
    if (pick === 'lower') return s[0]!.toLowerCase()
    return 'BTC-2026-1-X'
  }

  /** The perp asset index of the n-th traded instrument, as the target numbers its instruments. */
  private asset(n: number): number {
    return this.pair.assets[n % this.pair.symbols.length]!
  }

  private clientId(w: number, pick: ClientIdPick): string {
    if (pick === 'empty') return ''
    if (pick === 'repeat' && this.lastClientId[w] !== undefined) return this.lastClientId[w]!
    return `x${++this.counter}`
  }

  private signerKey(w: number, pick: SignerPick): Hex {
    if (pick === 'self') return this.wallets[w]!.privateKey
    if (pick === 'stranger') return this.stranger.privateKey
    return this.agents[pick.agent % AGENTS]!.privateKey
  }

  private ref(r: OrderRef | 'big'): Placed | undefined {
    if (typeof r !== 'number' || this.placed.length === 0) return undefined
    return this.placed[r % this.placed.length]
  }

  private domain(bad = false) {
    return { name: this.pair.domainName, chainId: bad ? this.pair.chainId + 1 : this.pair.chainId }
  }

  private async sign(
    kind: OptionsKind,
    entries: BodyEntries,
    key: Hex,
    mistake: 'none' | 'stale' | 'chain' | 'number' = 'none',
  ): Promise<string> {
    const price = entries.find(([k]) => k === 'price')?.[1]
    const after: Record<string, BodyValue> =
      mistake === 'stale'
        ? { price: `${String(price)}1` }
        : mistake === 'number' && typeof price === 'string'
          ? { price: new RawJson(price) }
          : {}
    return (await signBody(this.pair.spec, kind, entries, key, { domain: this.domain(mistake === 'chain'), after })).text
  }

  private orderEntries(w: number, o: OrderSpec, nonce: bigint, clientId: string): BodyEntries {
    const e: BodyEntries = [
      ['wallet', this.wallets[w]!.address],
      ['symbol', this.symbol(o.symbol)],
      ['side', o.side],
      ['size', o.size],
      ['price', o.price],
      ['tif', o.tif],
    ]
    if (o.route !== null) e.push(['route', o.route])
    e.push(['client_id', clientId], ['nonce', nonce])
    return e
  }

  /** The assumed rule an order's acceptance rests on, if any. */
  private orderAssumption(o: OrderSpec, clientId: string): RuleId | undefined {
    if (o.symbol === 'malformed' || o.symbol === 'lower') return 'SVC-2'
    if (o.symbol === 'unlisted' || o.size === '0' || o.price === '0') return 'PO-12'
    if (o.route === 'rfq_only') return 'ROUTE-5'
    if (o.route === null) return 'ROUTE-4'
    if (this.placed.some((p) => p.clientId === clientId)) return 'EP-9'
    return undefined
  }

  // ---------------------------------------------------------------- sending

  private async both(
    op: OperationId,
    bodyT: string | undefined,
    bodyO = bodyT,
    query?: Record<string, string>,
  ): Promise<[HttpExchange, HttpExchange]> {
    const { method } = route(this.pair, op)
    const path = pathOf(this.pair, op, query)
    const t = await this.pair.target.send(method, path, bodyT === undefined ? {} : { body: bodyT })
    const o = await this.pair.oracle.send(method, path, bodyO === undefined ? {} : { body: bodyO })
    return [t, o]
  }

  private record(step: Step, t: HttpExchange[], o: HttpExchange[]): void {
    this.trace.push({ step, target: t, oracle: o })
  }

  /** The target's window for a wallet rolled over since its first answer in this sequence (or the last wait). */
  private rolled(wallet: string, t: Observed): boolean {
    const reset = t.headers['x-ratelimit-reset']
    if (reset === undefined) return false
    const first = this.firstReset.get(wallet)
    if (first === undefined) {
      this.firstReset.set(wallet, reset)
      return false
    }
    return first !== reset
  }

  private answer(t: Observed, o: Observed, c: Omit<AnswerContext, 'windowRolled'>, wallet: string): StepVerdict {
    const codes = this.pair.reach === 'acting' ? {} : { catalog: this.pair.spec.catalog }
    return compareAnswers(t, o, { ...c, ...codes, windowRolled: this.rolled(wallet.toLowerCase(), t) })
  }

  // ---------------------------------------------------------------- invariants on the target

  private nonceTaken(account: string, nonce: bigint): Divergence[] {
    const key = account.toLowerCase()
    let set = this.takenNonces.get(key)
    if (!set) this.takenNonces.set(key, (set = new Set()))
    if (set.has(nonce)) return [invariant('NONCE-2', `the target took nonce ${nonce} of ${account} a second time`)]
    set.add(nonce)
    return []
  }

  private ordersTaken(account: string, t: Observed, units: number): Divergence[] {
    if (units === 0) return []
    const limit = Number(
      t.headers['x-ratelimit-limit'] ?? this.pair.spec.rateLimits.tiers[this.pair.spec.rateLimits.defaultTier]?.ordersPerMinute,
    )
    const key = `${account.toLowerCase()}:${t.headers['x-ratelimit-reset'] ?? 'window'}`
    const n = (this.windowCounts.get(key) ?? 0) + units
    this.windowCounts.set(key, n)
    return n > limit ? [invariant('RL-1', `the target took ${n} orders of ${account} in one window of limit ${limit}`)] : []
  }

  // ---------------------------------------------------------------- steps

  /**
   * Runs one step on both sides; the divergences it shows (empty: none), or 'rolled'. After an
   * allowed (assumed) difference the oracle no longer knows the parties' state: they are adopted,
   * the target's choice standing for both, and a later step touching one of them is judged on the
   * target's answers alone (the invariants), so the sequence goes on past it.
   */
  async run(step: Step): Promise<StepVerdict> {
    const parties = this.parties(step)
    const from = this.trace.length
    const acted = await this.runStep(step)
    if (acted === 'rolled') return acted
    const further = acted.length ? [] : await this.reachFurther(step, parties, this.trace.slice(from))
    if (further === 'rolled') return further
    const v = [...acted, ...further]
    const judged = parties.some((p) => this.adopted.has(p)) ? v.filter((d) => d.invariant) : v
    const compared = judged.filter((d) => !d.invariant)
    if (compared.length && compared.every((d) => d.level === 'assumed')) for (const p of parties) this.adopted.add(p)
    return judged
  }

  /**
   * Reach `parties`: after a write the step's own read-back did not fault, the records of every
   * other wallet with an order of the sequence, and the `/ws` updates of the sequence's orders.
   * Adopted parties are left out (the oracle holds the target's choice for them, not its own).
   */
  private async reachFurther(step: Step, parties: readonly string[], ran: readonly TraceStep[]): Promise<StepVerdict> {
    if (this.pair.reach === 'acting' || step.op === 'read' || step.op === 'wait') return []
    const read = parties.filter((p) => p.startsWith('w')).map((p) => Number(p.slice(1)))
    const others = counterparties(this.placed, read).filter((w) => !this.adopted.has(`w${w}`))
    const v = others.length ? await this.state(others) : []
    if (v === 'rolled' || v.length || !this.ws) return v
    const orders = this.placed.filter((p) => p.wallet >= 0 && !this.adopted.has(`w${p.wallet}`))
    // A write the reference answered 200 may have changed an order: its update is worth waiting for.
    const wrote = ran.some((r) => r.oracle.some((e) => e.request.method !== 'GET' && e.response?.status === 200))
    return this.ws.check(orders, wrote, this.pair.mirror?.sawForeign ?? false)
  }

  /** The sequence's parties a step acts for or reads: its wallet, its agent, the owner of an order it names. */
  private parties(step: Step): string[] {
    switch (step.op) {
      case 'burst':
        return this.parties(step.step)
      case 'fill':
        return ['w0']
      case 'wait':
        return []
      case 'read':
        return step.what === 'orders' || step.what === 'agents' ? [`w${step.wallet}`] : []
      case 'approve':
      case 'revoke':
        return [`w${step.wallet}`, `a${step.agent % AGENTS}`]
      case 'perp-order':
      case 'perp-cancel': {
        const out = 'wallet' in step.signer ? [`w${step.signer.wallet}`] : [`a${step.signer.agent % AGENTS}`]
        const account = this.perpAccount(step)
        if (account.wallet >= 0) out.push(`w${account.wallet}`)
        return out
      }
      case 'cancel': {
        const out = [`w${step.wallet}`]
        if (typeof step.signer === 'object') out.push(`a${step.signer.agent % AGENTS}`)
        const p = this.ref(step.ref)
        if (p && p.wallet >= 0) out.push(`w${p.wallet}`)
        return out
      }
      case 'order':
        return typeof step.signer === 'object' ? [`w${step.wallet}`, `a${step.signer.agent % AGENTS}`] : [`w${step.wallet}`]
      case 'race': {
        const p = this.ref(step.ref)
        return p && p.wallet >= 0 ? [`w${p.wallet}`, `w${this.takerOf(step, p.wallet)}`] : []
      }
      default:
        return [`w${step.wallet}`]
    }
  }

  private async runStep(step: Step): Promise<StepVerdict> {
    this.steps.push(step)
    if (step.op !== 'wait') await this.pair.mirror?.sync()
    switch (step.op) {
      case 'fill':
        return this.fill(step)
      case 'order':
        return this.order(step)
      case 'cancel':
        return this.cancel(step)
      case 'bulk-place':
      case 'bulk-replace':
      case 'bulk-cancel':
        return this.bulk(step)
      case 'approve':
      case 'revoke':
        return this.agent(step)
      case 'perp-order':
      case 'perp-cancel':
        return this.perp(step)
      case 'read':
        return this.read(step)
      case 'burst':
      case 'flood':
        return this.burst(step)
      case 'race':
        return this.race(step)
      case 'wait':
        this.pair.advance?.(60_000)
        this.firstReset.clear()
        this.record(step, [], [])
        return []
    }
  }

  private async order(step: Extract<Step, { op: 'order' }>): Promise<StepVerdict> {
    const w = this.wallets[step.wallet]!
    const clientId = this.clientId(step.wallet, step.order.clientId)
    const nonce = this.nonce(w.address, step.nonce)
    const assumed = this.orderAssumption(step.order, clientId)
    const body = await this.sign(
      'PlaceOrder',
      this.orderEntries(step.wallet, step.order, nonce, clientId),
      this.signerKey(step.wallet, step.signer),
      step.sig,
    )
    const [te, oe] = await this.both('placeOrder', body)
    this.record(step, [te], [oe])
    const t = observe(te, 'order')
    const o = observe(oe, 'order')
    const verdict = this.answer(
      t,
      o,
      {
        kind: 'order',
        rateLimited: true,
        ...(assumed ? { assumedAcceptance: assumed } : {}),
        neverRests: step.order.tif !== 'gtc',
        routeOmitted: step.order.route === null,
        nonceRule: step.nonce === 'retry' ? 'NONCE-5' : 'NONCE-4',
        ...(this.routeBaseline ? { routeBaseline: this.routeBaseline } : {}),
      },
      w.address,
    )
    if (verdict === 'rolled') return verdict
    this.lastClientId[step.wallet] = clientId
    this.settle(w.address, nonce, tookEffect(o))
    const out = [...verdict]
    if (tookEffect(t)) {
      out.push(...this.nonceTaken(w.address, nonce), ...this.ordersTaken(w.address, t, 1))
      if (step.order.route !== null && !assumed) this.routeBaseline = new Set(Object.keys(t.headers))
    }
    if (tookEffect(t) || tookEffect(o)) {
      this.known.add(w.address)
      this.placed.push({ wallet: step.wallet, clientId, ...ids(t, o, 'order_id') })
    }
    if (out.length || !changed(t, o)) return out
    return this.state([step.wallet])
  }

  private cancelEntries(w: number, by: 'oid' | 'cloid', p: Placed | undefined, side: 'target' | 'oracle', nonce: bigint): BodyEntries {
    const id: [string, BodyValue] = by === 'oid' ? ['order_id', p?.[side] ?? UNKNOWN_ID] : ['client_id', p?.clientId ?? 'never-placed']
    return [['wallet', this.wallets[w]!.address], id, ['nonce', nonce]]
  }

  /** Cancel by client id of a client id used twice picks one of them: which one the seed does not say. */
  private cancelAssumption(by: 'oid' | 'cloid', p: Placed | undefined): RuleId | undefined {
    if (by === 'cloid' && p && this.placed.filter((q) => q.clientId === p.clientId).length > 1) return 'EP-9'
    return undefined
  }

  private async cancel(step: Extract<Step, { op: 'cancel' }>): Promise<StepVerdict> {
    const w = this.wallets[step.wallet]!
    const p = this.ref(step.ref)
    const nonce = this.nonce(w.address, step.nonce)
    const kind: OptionsKind = step.by === 'oid' ? 'CancelOrder' : 'CancelOrderByClientId'
    const key = this.signerKey(step.wallet, step.signer)
    const bodyT = await this.sign(kind, this.cancelEntries(step.wallet, step.by, p, 'target', nonce), key)
    const bodyO = step.by === 'oid' ? await this.sign(kind, this.cancelEntries(step.wallet, step.by, p, 'oracle', nonce), key) : bodyT
    const [te, oe] = await this.both('cancelOrder', bodyT, bodyO)
    this.record(step, [te], [oe])
    const t = observe(te, 'cancel')
    const o = observe(oe, 'cancel')
    const assumed = this.cancelAssumption(step.by, p)
    const verdict = this.answer(
      t,
      o,
      {
        kind: 'cancel',
        rateLimited: true,
        nonceRule: step.nonce === 'retry' ? 'NONCE-5' : 'NONCE-4',
        ...(assumed ? { assumedAcceptance: assumed } : {}),
      },
      w.address,
    )
    if (verdict === 'rolled') return verdict
    this.settle(w.address, nonce, tookEffect(o))
    const out = [...verdict, ...(tookEffect(t) ? this.nonceTaken(w.address, nonce) : [])]
    if (out.length || !changed(t, o)) return out
    return this.state(p && p.wallet >= 0 && p.wallet !== step.wallet ? [step.wallet, p.wallet] : [step.wallet])
  }

  private async bulk(step: Extract<Step, { op: 'bulk-place' | 'bulk-replace' | 'bulk-cancel' }>): Promise<StepVerdict> {
    const w = this.wallets[step.wallet]!
    const key = w.privateKey
    const itemsT: string[] = []
    const itemsO: string[] = []
    const nonces: bigint[] = []
    const clientIds: string[] = []
    let op: OperationId
    let kind: AnswerKind = 'batch'
    let rule: RuleId | undefined
    const assumptions: (RuleId | undefined)[] = []
    if (step.op === 'bulk-place') {
      op = 'placeOrders'
      for (const [i, o] of step.orders.entries()) {
        const n = this.nonce(w.address, 'fresh')
        const cid = this.clientId(step.wallet, o.clientId)
        assumptions.push(this.orderAssumption(o, cid))
        const text = await this.sign('PlaceOrder', this.orderEntries(step.wallet, o, n, cid), key, step.bad[i] ? 'chain' : 'none')
        itemsT.push(text), itemsO.push(text), nonces.push(n), clientIds.push(cid)
      }
    } else if (step.op === 'bulk-replace') {
      op = 'replaceOrders'
      kind = 'replace'
      for (const [i, r] of step.refs.entries()) {
        const p = this.ref(r)
        const o = step.orders[i % step.orders.length]!
        const cn = this.nonce(w.address, 'fresh')
        const n = this.nonce(w.address, 'fresh')
        const cid = this.clientId(step.wallet, o.clientId)
        assumptions.push(this.orderAssumption(o, cid))
        const order = await this.sign('PlaceOrder', this.orderEntries(step.wallet, o, n, cid), key)
        for (const [side, items] of [
          ['target', itemsT],
          ['oracle', itemsO],
        ] as const) {
          const cancel = await this.sign('CancelOrder', this.cancelEntries(step.wallet, 'oid', p, side, cn), key)
          items.push(`{"cancel":${cancel},"order":${order}}`)
        }
        nonces.push(n), clientIds.push(cid)
      }
    } else {
      op = step.by === 'oid' ? 'cancelOrders' : 'cancelOrdersByClientId'
      rule = step.by === 'oid' ? 'EP-5' : 'EP-6'
      const signKind: OptionsKind = step.by === 'oid' ? 'CancelOrder' : 'CancelOrderByClientId'
      for (const r of step.refs) {
        const p = this.ref(r)
        assumptions.push(this.cancelAssumption(step.by, p))
        const n = this.nonce(w.address, 'fresh')
        itemsT.push(await this.sign(signKind, this.cancelEntries(step.wallet, step.by, p, 'target', n), key))
        itemsO.push(
          step.by === 'oid' ? await this.sign(signKind, this.cancelEntries(step.wallet, step.by, p, 'oracle', n), key) : itemsT.at(-1)!,
        )
        nonces.push(n)
      }
    }
    const prop = step.op === 'bulk-place' ? 'orders' : step.op === 'bulk-replace' ? 'replacements' : 'cancels'
    const [te, oe] = await this.both(op, `{"${prop}":[${itemsT.join(',')}]}`, `{"${prop}":[${itemsO.join(',')}]}`)
    this.record(step, [te], [oe])
    const t = observe(te, kind)
    const o = observe(oe, kind)
    // The batch as a whole is taken on an assumption when every item the reference took is.
    const tookByOracle = assumptions.filter((_a, i) => o.items?.[i] === 'accepted')
    const whole = tookByOracle.length > 0 && tookByOracle.every((a) => a !== undefined) ? tookByOracle[0] : undefined
    const verdict = this.answer(
      t,
      o,
      { kind, rateLimited: true, itemAssumptions: assumptions, ...(rule ? { rule } : {}), ...(whole ? { assumedAcceptance: whole } : {}) },
      w.address,
    )
    if (verdict === 'rolled') return verdict
    const out = [...verdict]
    for (const [i, n] of nonces.entries()) {
      this.settle(w.address, n, o.items?.[i] === 'accepted')
      if (t.items?.[i] === 'accepted') out.push(...this.nonceTaken(w.address, n))
    }
    if (step.op !== 'bulk-cancel') {
      out.push(...this.ordersTaken(w.address, t, t.items?.filter((x) => x === 'accepted').length ?? 0))
      const resultsOf = (x: Observed) => ((x.json as { results?: unknown[] } | undefined)?.results ?? []) as Record<string, unknown>[]
      const pick = (r: Record<string, unknown> | undefined) =>
        step.op === 'bulk-replace' ? (r?.order as Record<string, unknown> | undefined) : r
      for (const [i, cid] of clientIds.entries()) {
        if (t.items?.[i] !== 'accepted' && o.items?.[i] !== 'accepted') continue
        const tid = pick(resultsOf(t)[i])?.order_id
        const oid = pick(resultsOf(o)[i])?.order_id
        this.placed.push({
          wallet: step.wallet,
          clientId: cid,
          ...(typeof tid === 'string' ? { target: tid } : {}),
          ...(typeof oid === 'string' ? { oracle: oid } : {}),
        })
        this.lastClientId[step.wallet] = cid
        this.known.add(w.address)
      }
    }
    if (out.length || !changed(t, o)) return out
    return this.state([step.wallet])
  }

  private async agent(step: Extract<Step, { op: 'approve' | 'revoke' }>): Promise<StepVerdict> {
    const w = this.wallets[step.wallet]!
    const agent = this.agents[step.agent % AGENTS]!
    const nonce = this.nonce(w.address, step.nonce)
    const kind: OptionsKind = step.op === 'approve' ? 'ApproveAgent' : 'RevokeAgent'
    const body = await this.sign(
      kind,
      [
        ['agent', agent.address],
        ['nonce', nonce],
      ],
      w.privateKey,
    )
    const [te, oe] = await this.both(step.op === 'approve' ? 'approveAgent' : 'revokeAgent', body)
    this.record(step, [te], [oe])
    const t = observe(te, 'agent')
    const o = observe(oe, 'agent')
    const verdict = this.answer(t, o, { kind: 'agent', rateLimited: true }, w.address)
    if (verdict === 'rolled') return verdict
    this.settle(w.address, nonce, tookEffect(o))
    if (tookEffect(o)) {
      this.known.add(w.address)
      let owners = this.approvals.get(step.agent % AGENTS)
      if (!owners) this.approvals.set(step.agent % AGENTS, (owners = new Set()))
      if (step.op === 'approve') owners.add(step.wallet)
      else owners.delete(step.wallet)
    }
    const out = [...verdict, ...(tookEffect(t) ? this.nonceTaken(w.address, nonce) : [])]
    if (out.length || !changed(t, o)) return out
    return this.agentsState(step.wallet)
  }

  /** The perp account a request acts for (the vault; an agent's one approving wallet; else the signer), as a wallet index or address. */
  private perpAccount(step: Extract<Step, { op: 'perp-order' | 'perp-cancel' }>): { address: string; wallet: number } {
    if (step.vault !== undefined) return { address: this.wallets[step.vault]!.address, wallet: step.vault }
    if ('wallet' in step.signer) return { address: this.wallets[step.signer.wallet]!.address, wallet: step.signer.wallet }
    const owners = [...(this.approvals.get(step.signer.agent % AGENTS) ?? [])]
    if (owners.length === 1) return { address: this.wallets[owners[0]!]!.address, wallet: owners[0]! }
    return { address: this.agents[step.signer.agent % AGENTS]!.address, wallet: -1 }
  }

  private async perp(step: Extract<Step, { op: 'perp-order' | 'perp-cancel' }>): Promise<StepVerdict> {
    const signer = 'wallet' in step.signer ? this.wallets[step.signer.wallet]! : this.agents[step.signer.agent % AGENTS]!
    const account = this.perpAccount(step)
    const nonce = this.nonce(account.address, step.nonce)
    const opts = {
      nonce,
      isMainnet: this.pair.isMainnet,
      domain: { chainId: this.pair.perpChainId },
      ...(step.vault !== undefined ? { vaultAddress: this.wallets[step.vault]!.address } : {}),
    }
    const cloids: string[] = []
    let bodyT: string
    let bodyO: string
    if (step.op === 'perp-order') {
      const orders = step.orders.map((o) => {
        const cloid = `0x${(++this.counter).toString(16).padStart(32, '0')}`
        cloids.push(cloid)
        return { asset: this.asset(o.asset), isBuy: o.buy, price: o.price, size: o.size, tif: o.tif, cloid }
      })
      bodyT = bodyO = await signPerpBody(this.pair.spec, perpOrderAction(orders), signer.privateKey, opts)
    } else {
      const p = this.ref(step.ref)
      const asset = p?.asset ?? 0
      const action = (side: 'target' | 'oracle') =>
        step.by === 'cloid'
          ? { type: 'cancelByCloid', cancels: [{ asset, cloid: p?.clientId.startsWith('0x') ? p.clientId : `0x${'ab'.repeat(16)}` }] }
          : {
              type: 'cancel',
              cancels: [
                { a: asset, o: step.ref === 'big' ? 2n ** 53n + 1n : BigInt(/^\d+$/.test(p?.[side] ?? '') ? p![side]! : UNKNOWN_ID) },
              ],
            }
      bodyT = await signPerpBody(this.pair.spec, action('target'), signer.privateKey, opts)
      bodyO = step.by === 'cloid' ? bodyT : await signPerpBody(this.pair.spec, action('oracle'), signer.privateKey, opts)
    }
    const [te, oe] = await this.both('perpExchange', bodyT, bodyO)
    this.record(step, [te], [oe])
    const t = observe(te, 'perp')
    const o = observe(oe, 'perp')
    const says = (e: HttpExchange) => String((e.response?.json as { response?: unknown } | undefined)?.response ?? '')
    // Which account a perp request acts for when it names no vault, and whether a signer the
    // server has no state for is refused, are assumed (PERP-6, PERP-7): an auth difference there is
    // the other documented choice, whichever side made it.
    const viaAgent = !('wallet' in step.signer) && step.vault === undefined
    const assumedAuth: RuleId | undefined =
      /vaultAddress/.test(says(oe)) || /vaultAddress/.test(says(te)) || viaAgent
        ? 'PERP-6'
        : !this.known.has(signer.address)
          ? 'PERP-7'
          : undefined
    let verdict = this.answer(t, o, { kind: 'perp', rateLimited: true }, account.address)
    if (verdict === 'rolled') return verdict
    if (assumedAuth && (o.outcome === 'auth' || t.outcome === 'auth'))
      verdict = verdict.map((d) => (d.rule === 'AUTH-2' ? divergence(assumedAuth, d.what) : d))
    this.settle(account.address, nonce, tookEffect(o))
    const out = [...verdict]
    if (tookEffect(t)) {
      out.push(...this.nonceTaken(account.address, nonce))
      if (step.op === 'perp-order') out.push(...this.ordersTaken(account.address, t, t.items?.filter((x) => x === 'accepted').length ?? 0))
    }
    if (step.op === 'perp-order') {
      const oids = (x: Observed) =>
        (
          ((x.json as { response?: { data?: { statuses?: unknown[] } } } | undefined)?.response?.data?.statuses ?? []) as Record<
            string,
            { oid?: unknown }
          >[]
        ).map((s) => s?.resting?.oid ?? s?.filled?.oid)
      const [ti, oi] = [oids(t), oids(o)]
      for (const [i, cloid] of cloids.entries()) {
        if (ti[i] === undefined && oi[i] === undefined) continue
        this.placed.push({
          wallet: account.wallet,
          clientId: cloid,
          asset: this.asset(step.orders[i]!.asset),
          ...(ti[i] !== undefined ? { target: String(ti[i]) } : {}),
          ...(oi[i] !== undefined ? { oracle: String(oi[i]) } : {}),
        })
      }
    }
    if (out.length || !changed(t, o)) return out
    return this.state(account.wallet >= 0 ? [account.wallet] : [])
  }

  private async read(step: Extract<Step, { op: 'read' }>): Promise<StepVerdict> {
    if (step.head) return this.head(step)
    if (step.status !== undefined) return this.filtered(step, step.status)
    switch (step.what) {
      case 'orders':
        return this.state([step.wallet], step)
      case 'agents':
        return this.agentsState(step.wallet, step)
      case 'book':
        return this.book(this.symbol(step.symbol), step.symbol, step)
      case 'info': {
        const [te, oe] = await this.both('perpInfo', '{"type":"meta"}')
        this.record(step, [te], [oe])
        const names = (e: HttpExchange) =>
          JSON.stringify(((e.response?.json as { universe?: { name?: unknown }[] })?.universe ?? []).map((u) => u?.name))
        if (te.response?.status !== oe.response?.status || names(te) !== names(oe))
          return [
            divergence('PERP-10', `POST /info meta: target ${te.response?.status ?? 'no answer'} ${names(te)}; reference ${names(oe)}`),
          ]
        return []
      }
    }
  }

  /** The read as a HEAD on both sides: the same status as the reference's, and no error-code header (ERR-5). */
  private async head(step: Extract<Step, { op: 'read' }>): Promise<StepVerdict> {
    const [op, query] =
      step.what === 'orders'
        ? (['listOrders', { wallet: this.wallets[step.wallet]!.address }] as const)
        : (['getOrderbook', { symbol: this.symbol(step.symbol) }] as const)
    const path = pathOf(this.pair, op, query)
    const te = await this.pair.target.send('HEAD', path)
    const oe = await this.pair.oracle.send('HEAD', path)
    this.record(step, [te], [oe])
    const t = te.response
    if (!t) return [invariant('EP-8', `HEAD ${path}: the target did not answer`)]
    const out: Divergence[] = []
    const codeHeader = Object.keys(t.headers).find((h) => /error-?code|x-error/i.test(h))
    if (codeHeader) out.push(invariant('ERR-5', `HEAD ${path} answered ${t.status} with the error-code header ${codeHeader}`))
    if (oe.response && t.status !== oe.response.status)
      out.push(divergence('EP-8', `HEAD ${path}: target ${t.status}; reference ${oe.response.status}`))
    return out
  }

  /** GET /orders?status=: both listings compared, and every order the target lists in that status. */
  private async filtered(step: Extract<Step, { op: 'read' }>, status: string): Promise<StepVerdict> {
    const addr = this.wallets[step.wallet]!.address
    const [te, oe] = await this.both('listOrders', undefined, undefined, { wallet: addr, status })
    this.record(step, [te], [oe])
    const [t, o] = [this.records(te, addr, 'target'), this.records(oe, addr, 'oracle')]
    if (t === undefined || o === undefined) {
      if (t === undefined && o !== undefined)
        return [divergence('EP-8', `GET /orders?status=${status} answered ${te.response?.status ?? 'nothing'} with no order list`)]
      return []
    }
    const other = t.filter((r) => !r.endsWith(`|${status}`))
    if (other.length) return [divergence('EP-9', `GET /orders?status=${status} of ${addr} lists [${other.join(', ')}]`)]
    if (t.join('\n') === o.join('\n')) return []
    // On a shared book an order can fill between the two reads and so leave one side's filter:
    // no verdict then (the unfiltered listing re-reads after the mirror's sync and judges it).
    if (this.pair.mirror?.sawForeign) return 'rolled'
    return [divergence('EP-9', `orders of ${addr} in ${status} differ: target [${t.join(', ')}]; reference [${o.join(', ')}]`)]
  }

  // ---------------------------------------------------------------- visible state

  /** A wallet's order records as one side lists them, leaving out a tier wallet's orders from before the sequence. */
  private records(e: HttpExchange, addr: string, side: 'target' | 'oracle'): string[] | undefined {
    return records(e, this.isTierWallet(addr) ? this.earlier?.[side] : undefined)
  }

  /**
   * GET /orders of the wallets on both sides, compared; the open-order cap checked on the target.
   * On a live target someone else may take one of our orders between the step and this read:
   * records that differ are read again once the mirror has carried the target's book over, and
   * only a difference that remains is one.
   */
  private async state(wallets: readonly number[], step?: Step): Promise<StepVerdict> {
    const tx: HttpExchange[] = []
    const ox: HttpExchange[] = []
    const out: Divergence[] = []
    for (const i of new Set(wallets)) {
      const addr = this.wallets[i]!.address
      let [te, oe] = await this.both('listOrders', undefined, undefined, { wallet: addr })
      if (this.pair.mirror && this.records(te, addr, 'target')?.join('\n') !== this.records(oe, addr, 'oracle')?.join('\n')) {
        await this.pair.mirror.sync()
        ;[te, oe] = await this.both('listOrders', undefined, undefined, { wallet: addr })
      }
      tx.push(te), ox.push(oe)
      const [t, o] = [this.records(te, addr, 'target'), this.records(oe, addr, 'oracle')]
      if (t === undefined && o !== undefined)
        out.push(divergence('EP-8', `GET /orders answered ${te.response?.status ?? 'nothing'} with no order list`))
      else if (t && o) {
        const open = t.filter((r) => r.endsWith('|OPEN')).length
        if (open > this.openCap(addr))
          out.push(invariant('CAP-1', `the target holds ${open} open orders of ${addr}; the cap is ${this.openCap(addr)}`))
        else if (t.join('\n') !== o.join('\n')) {
          // Someone else on a shared book traded with our orders between the mirror's read and
          // ours, or took one of two equal orders at a level: records that differ in how much
          // filled and nothing else are no verdict, and the sequence ends here.
          if (this.pair.mirror?.sawForeign && fillsOnly(t, o)) return 'rolled'
          out.push(divergence('EP-9', `orders of ${addr} differ: target [${t.join(', ')}]; reference [${o.join(', ')}]`))
        }
      }
    }
    if (step) this.record(step, tx, ox)
    else if (tx.length) {
      const last = this.trace.at(-1)!
      last.target.push(...tx), last.oracle.push(...ox)
    }
    return out
  }

  private async book(symbol: string, pick: SymbolPick, step?: Step): Promise<Divergence[]> {
    let [te, oe] = await this.both('getOrderbook', undefined, undefined, { symbol })
    // As for the orders: a live book may have moved since the step's sync; once more after another.
    if (this.pair.mirror && te.response?.body !== oe.response?.body) {
      await this.pair.mirror.sync()
      ;[te, oe] = await this.both('getOrderbook', undefined, undefined, { symbol })
    }
    if (step) this.record(step, [te], [oe])
    else this.trace.at(-1)?.target.push(te), this.trace.at(-1)?.oracle.push(oe)
    const t = te.response?.json as Envelope | undefined
    const o = oe.response?.json as Envelope | undefined
    if (o?.result === null) {
      const ok = te.response?.status === 200 && t?.jsonrpc === '2.0' && t.result === null && t.error?.code === 13020
      if (!ok)
        return [
          divergence(
            pick === 'malformed' || pick === 'lower' ? 'ERR-17' : 'ERR-12',
            `GET /orderbook?symbol=${symbol}: target ${te.response?.status ?? 'no answer'} ${te.response?.body.slice(0, 120) ?? ''}; reference the 13020 envelope`,
          ),
        ]
      return []
    }
    if (te.response?.status !== 200 || t?.jsonrpc !== '2.0')
      return [
        divergence('EP-8', `GET /orderbook?symbol=${symbol}: target ${te.response?.status ?? 'no answer'} without the JSON-RPC envelope`),
      ]
    const levels = (x: Envelope | undefined) => JSON.stringify([x?.result?.bids ?? null, x?.result?.asks ?? null])
    if (levels(t) !== levels(o)) return [divergence('SVC-2', `book ${symbol}: target ${levels(t)}; reference ${levels(o)}`)]
    return []
  }

  private async agentsState(w: number, step?: Step): Promise<StepVerdict> {
    const addr = this.wallets[w]!.address
    const [te, oe] = await this.both('listAuthorizedAgents', undefined, undefined, { wallet: addr })
    if (step) this.record(step, [te], [oe])
    else this.trace.at(-1)?.target.push(te), this.trace.at(-1)?.oracle.push(oe)
    // Only the sequence's own agents: a tier wallet may hold approvals from before the sequence.
    const ours = new Set(this.agents.map((a) => a.address.toLowerCase()))
    const tier = this.isTierWallet(addr)
    const agents = (e: HttpExchange) =>
      JSON.stringify(
        ((e.response?.json as { agents?: { agent?: unknown }[] } | undefined)?.agents ?? [])
          .map((a) => String(a?.agent).toLowerCase())
          .filter((a) => !tier || ours.has(a))
          .sort(),
      )
    if (agents(te) !== agents(oe)) return [divergence('AGENT-4', `agents of ${addr}: target ${agents(te)}; reference ${agents(oe)}`)]
    return []
  }

  // ---------------------------------------------------------------- bursts

  /**
   * Sends the requests of a burst to the target all at once, then to the reference one by one in
   * the order the target's answers suggest (what it took first). A burst is judged by the
   * invariants, not by pairs of answers: which of two racing requests wins is the target's call.
   */
  private async burst(step: Extract<Step, { op: 'burst' | 'flood' }>): Promise<StepVerdict> {
    const built = step.op === 'burst' ? await this.burstBodies(step) : await this.floodBodies(step)
    const { method } = route(this.pair, built.op)
    const path = pathOf(this.pair, built.op)
    const tx = await Promise.all(built.bodies.map((b) => this.pair.target.send(method, path, { body: b.text })))
    const ts = tx.map((e) => observe(e, built.kind))
    const order = ts.map((t, i) => [tookEffect(t) ? 0 : 1, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1])
    const ox: HttpExchange[] = new Array(tx.length)
    for (const [, i] of order) ox[i] = await this.pair.oracle.send(method, path, { body: built.bodies[i]!.text })
    this.record(step, tx, ox)
    const os = ox.map((e) => observe(e, built.kind))
    const out: Divergence[] = []
    for (const [i, t] of ts.entries()) {
      const o = os[i]!
      // A request of a burst the target did not answer (a dropped connection under load) leaves nothing to compare.
      if (t.status === 0) return 'rolled'
      if (t.outcome === 'server' && o.outcome !== 'server')
        out.push(divergence(built.kind === 'order' ? 'PO-9' : 'EP-9', `the target answered ${t.status} to a request of the burst`))
      const b = built.bodies[i]!
      // A batch's items, or the request itself as its one item.
      const items = b.batch ?? [{ nonce: b.nonce, clientId: b.clientId }]
      const took = (x: Observed, j: number) => (b.batch ? x.items?.[j] === 'accepted' : tookEffect(x))
      const field = (x: Observed, j: number) => {
        const r = b.batch
          ? ((x.json as { results?: Record<string, unknown>[] } | undefined)?.results?.[j] ?? {})
          : ((x.json ?? {}) as Record<string, unknown>)
        return typeof r.order_id === 'string' ? r.order_id : undefined
      }
      let units = 0
      for (const [j, item] of items.entries()) {
        this.settle(b.account, item.nonce, took(o, j))
        if (took(t, j)) {
          units++
          out.push(...this.nonceTaken(b.account, item.nonce))
        }
        if ((took(t, j) || took(o, j)) && item.clientId !== undefined && built.kind !== 'agent' && built.kind !== 'perp') {
          const [tid, oid] = [field(t, j), field(o, j)]
          this.placed.push({ wallet: b.wallet, clientId: item.clientId, ...(tid ? { target: tid } : {}), ...(oid ? { oracle: oid } : {}) })
        }
      }
      if (built.kind !== 'agent' && built.kind !== 'cancel') out.push(...this.ordersTaken(b.account, t, units))
    }
    const dedup = uniqueByRule(out)
    if (dedup.length) return dedup
    // A correct target that let other requests win leaves the two states apart: nothing after is comparable.
    const taken = (xs: Observed[]) => xs.map((x) => (tookEffect(x) ? 1 : 0) as number).reduce((a, b) => a + b, 0)
    if (taken(ts) !== taken(os)) return 'rolled'
    return this.state(built.wallets)
  }

  /** The wallet that takes in a race: never the order's owner. */
  private takerOf(step: Extract<Step, { op: 'race' }>, owner: number): number {
    return step.taker === owner ? (owner + 1) % WALLETS : step.taker
  }

  /**
   * A mixed race: the owner cancels an open order while another wallet takes it in full, both sent
   * to the target at once. Which one wins is the target's call; that the cancel is answered as done
   * and the order still fills in full is never right (a lost update), whatever the order of arrival.
   */
  private async race(step: Extract<Step, { op: 'race' }>): Promise<StepVerdict> {
    const p = this.ref(step.ref)
    if (!p || p.wallet < 0 || p.target === undefined || p.oracle === undefined) return []
    const owner = this.wallets[p.wallet]!
    const [tl, ol] = await this.both('listOrders', undefined, undefined, { wallet: owner.address })
    const rec = orderRecord(tl, p.target)
    // Only an order open on both sides can be raced for.
    if (rec?.status !== 'OPEN' || orderRecord(ol, p.oracle)?.status !== 'OPEN') return []
    const takerAt = this.takerOf(step, p.wallet)
    const taker = this.wallets[takerAt]!
    const cancelNonce = this.nonce(owner.address, 'fresh')
    const cancelOf = (id: string) =>
      this.sign(
        'CancelOrder',
        [
          ['wallet', owner.address],
          ['order_id', id],
          ['nonce', cancelNonce],
        ],
        owner.privateKey,
      )
    const [cancelT, cancelO] = [await cancelOf(p.target), await cancelOf(p.oracle)]
    const takeNonce = this.nonce(taker.address, 'fresh')
    const clientId = this.clientId(takerAt, 'new')
    const take = await this.sign(
      'PlaceOrder',
      [
        ['wallet', taker.address],
        ['symbol', rec.symbol],
        ['side', rec.side === 'Buy' ? 'Sell' : 'Buy'],
        ['size', formatDec(sub(parseDec(rec.size), parseDec(rec.filled_size)))],
        ['price', rec.price],
        ['tif', 'ioc'],
        ['route', 'book_only'],
        ['client_id', clientId],
        ['nonce', takeNonce],
      ],
      taker.privateKey,
    )
    const cancel = route(this.pair, 'cancelOrder')
    const place = route(this.pair, 'placeOrder')
    const [tc, tt] = await Promise.all([
      this.pair.target.send(cancel.method, cancel.path, { body: cancelT }),
      this.pair.target.send(place.method, place.path, { body: take }),
    ])
    const [cT, tT] = [observe(tc, 'cancel'), observe(tt, 'order')]
    // The oracle in the order the target's answers suggest: the cancel first when it was done.
    const sendCancel = () => this.pair.oracle.send(cancel.method, cancel.path, { body: cancelO })
    const sendTake = () => this.pair.oracle.send(place.method, place.path, { body: take })
    let oc: HttpExchange
    let ot: HttpExchange
    if (tookEffect(cT)) {
      oc = await sendCancel()
      ot = await sendTake()
    } else {
      ot = await sendTake()
      oc = await sendCancel()
    }
    const [cO, tO] = [observe(oc, 'cancel'), observe(ot, 'order')]
    const [after, afterO] = await this.both('listOrders', undefined, undefined, { wallet: owner.address })
    this.record(step, [tc, tt, after], [oc, ot, afterO])
    this.settle(owner.address, cancelNonce, tookEffect(cO))
    this.settle(taker.address, takeNonce, tookEffect(tO))
    const id = (e: HttpExchange) => (e.response?.json as { order_id?: unknown } | undefined)?.order_id
    const [tid, oid] = [id(tt), id(ot)]
    this.placed.push({
      wallet: takerAt,
      clientId,
      ...(typeof tid === 'string' ? { target: tid } : {}),
      ...(typeof oid === 'string' ? { oracle: oid } : {}),
    })
    if (tc.response === undefined || tt.response === undefined) return 'rolled'
    const out: Divergence[] = []
    if (tookEffect(cT)) out.push(...this.nonceTaken(owner.address, cancelNonce))
    if (tookEffect(tT)) out.push(...this.nonceTaken(taker.address, takeNonce), ...this.ordersTaken(taker.address, tT, 1))
    const end = orderRecord(after, p.target)
    if (tookEffect(cT) && end && (end.status === 'FILLED' || cmp(parseDec(end.filled_size), parseDec(end.size)) === 0))
      out.push(
        invariant(
          'EP-2',
          `the cancel of order ${p.target} was answered ${tc.response.status} as done, and the order filled in full (${end.status}, ${end.filled_size} of ${end.size})`,
        ),
      )
    if (out.length) return out
    // Another order of arrival on the oracle (or a partial fill before the cancel on one side only)
    // leaves the two states apart: nothing after is comparable.
    const same = JSON.stringify(end) === JSON.stringify(orderRecord(afterO, p.oracle))
    if (!same || tookEffect(cT) !== tookEffect(cO) || tT.outcome !== tO.outcome) return 'rolled'
    return this.state([p.wallet, takerAt])
  }

  private async fill(step: Extract<Step, { op: 'fill' }>): Promise<StepVerdict> {
    const tier = this.pair.spec.rateLimits.tiers[this.pair.spec.rateLimits.defaultTier]!
    let left = this.pair.openCap - step.leave
    while (left > 0) {
      const n = Math.min(left, tier.ordersPerMinute)
      const v = await this.burst({ op: 'flood', wallet: 0, n, bulk: false })
      if (v === 'rolled' || v.length) return v
      left -= n
      this.pair.advance?.(60_000)
      this.firstReset.clear()
    }
    return []
  }

  private async burstBodies(step: Extract<Step, { op: 'burst' }>): Promise<Built> {
    // The inner step's body, built without sending: the same text n times.
    const inner = step.step
    if (inner.op === 'order') {
      const w = this.wallets[inner.wallet]!
      const clientId = this.clientId(inner.wallet, inner.order.clientId)
      const nonce = this.nonce(w.address, inner.nonce)
      const text = await this.sign(
        'PlaceOrder',
        this.orderEntries(inner.wallet, inner.order, nonce, clientId),
        this.signerKey(inner.wallet, inner.signer),
        inner.sig,
      )
      return {
        op: 'placeOrder',
        kind: 'order',
        wallets: [inner.wallet],
        bodies: repeat(step.n, { text, account: w.address, nonce, wallet: inner.wallet, clientId }),
      }
    }
    if (inner.op === 'approve') {
      const w = this.wallets[inner.wallet]!
      const nonce = this.nonce(w.address, inner.nonce)
      const text = await this.sign(
        'ApproveAgent',
        [
          ['agent', this.agents[inner.agent % AGENTS]!.address],
          ['nonce', nonce],
        ],
        w.privateKey,
      )
      return {
        op: 'approveAgent',
        kind: 'agent',
        wallets: [],
        bodies: repeat(step.n, { text, account: w.address, nonce, wallet: inner.wallet }),
      }
    }
    if (inner.op === 'perp-order' || inner.op === 'perp-cancel') {
      const signer = 'wallet' in inner.signer ? this.wallets[inner.signer.wallet]! : this.agents[inner.signer.agent % AGENTS]!
      const account = this.perpAccount(inner)
      const nonce = this.nonce(account.address, inner.nonce)
      const action =
        inner.op === 'perp-order'
          ? perpOrderAction(
              inner.orders.map((o) => ({
                asset: this.asset(o.asset),
                isBuy: o.buy,
                price: o.price,
                size: o.size,
                tif: o.tif,
              })),
            )
          : { type: 'cancel', cancels: [{ a: 0, o: BigInt(UNKNOWN_ID) }] }
      const text = await signPerpBody(this.pair.spec, action, signer.privateKey, {
        nonce,
        isMainnet: this.pair.isMainnet,
        domain: { chainId: this.pair.perpChainId },
        ...(inner.vault !== undefined ? { vaultAddress: this.wallets[inner.vault]!.address } : {}),
      })
      return {
        op: 'perpExchange',
        kind: 'perp',
        wallets: account.wallet >= 0 ? [account.wallet] : [],
        bodies: repeat(step.n, { text, account: account.address, nonce, wallet: account.wallet }),
      }
    }
    const c = inner as Extract<Step, { op: 'cancel' }>
    const w = this.wallets[c.wallet]!
    const p = this.ref(c.ref)
    const nonce = this.nonce(w.address, c.nonce)
    const text = await this.sign(
      c.by === 'oid' ? 'CancelOrder' : 'CancelOrderByClientId',
      this.cancelEntries(c.wallet, c.by, p, 'target', nonce),
      this.signerKey(c.wallet, c.signer),
    )
    // Cancel by order id carries the target's id: the reference gets the same text (its own id differs), so only cloid cancels compare.
    return {
      op: 'cancelOrder',
      kind: 'cancel',
      wallets: [c.wallet],
      bodies: repeat(step.n, { text, account: w.address, nonce, wallet: c.wallet }),
    }
  }

  /** n resting buys far below any ask: one request each, or (bulk) batches of up to 10. */
  private async floodBodies(step: Extract<Step, { op: 'flood' }>): Promise<Built> {
    const w = this.wallets[step.wallet]!
    const orders: BuiltBody[] = []
    for (let i = 0; i < step.n; i++) {
      const nonce = this.nonce(w.address, 'fresh')
      const clientId = this.clientId(step.wallet, 'new')
      const spec: OrderSpec = { symbol: 0, side: 'Buy', size: '1', price: '1', tif: 'gtc', route: 'book_only', clientId: 'new' }
      const text = await this.sign('PlaceOrder', this.orderEntries(step.wallet, spec, nonce, clientId), w.privateKey)
      orders.push({ text, account: w.address, nonce, wallet: step.wallet, clientId })
    }
    if (!step.bulk) return { op: 'placeOrder', kind: 'order', wallets: [step.wallet], bodies: orders }
    const bodies: BuiltBody[] = []
    for (let i = 0; i < orders.length; i += 10) {
      const part = orders.slice(i, i + 10)
      bodies.push({
        text: `{"orders":[${part.map((b) => b.text).join(',')}]}`,
        account: w.address,
        nonce: part[0]!.nonce,
        wallet: step.wallet,
        batch: part.map((b) => ({ nonce: b.nonce, ...(b.clientId !== undefined ? { clientId: b.clientId } : {}) })),
      })
    }
    return { op: 'placeOrders', kind: 'batch', wallets: [step.wallet], bodies }
  }
}

interface Envelope {
  jsonrpc?: unknown
  result?: { bids?: unknown; asks?: unknown } | null
  error?: { code?: unknown } | null
}

interface BuiltBody {
  readonly text: string
  readonly account: string
  readonly nonce: bigint
  readonly wallet: number
  readonly clientId?: string
  /** The items of a batch body, in order. */
  readonly batch?: readonly { readonly nonce: bigint; readonly clientId?: string }[]
}
interface Built {
  readonly op: OperationId
  readonly kind: AnswerKind
  readonly wallets: readonly number[]
  readonly bodies: readonly BuiltBody[]
}

/** Either side changed state: only then is there new visible state to compare. */
function changed(t: Observed, o: Observed): boolean {
  return tookEffect(t) || tookEffect(o)
}

function repeat(n: number, b: BuiltBody): BuiltBody[] {
  return Array.from({ length: n }, () => b)
}

function uniqueByRule(ds: readonly Divergence[]): Divergence[] {
  const seen = new Set<string>()
  return ds.filter((d) => (seen.has(d.rule) ? false : (seen.add(d.rule), true)))
}

function ids(t: Observed, o: Observed, field: string): { target?: string; oracle?: string } {
  const get = (x: Observed) => (x.json as Record<string, unknown> | undefined)?.[field]
  const [a, b] = [get(t), get(o)]
  return { ...(typeof a === 'string' ? { target: a } : {}), ...(typeof b === 'string' ? { oracle: b } : {}) }
}

/** The visible part of a wallet's orders, one line each, sorted; undefined when the answer has no order list. */
/** A wallet's order records as comparable lines, leaving out the orders in `except` (by id). */
function records(e: HttpExchange, except?: ReadonlySet<string>): string[] | undefined {
  const list = (e.response?.json as { orders?: unknown } | undefined)?.orders
  if (!Array.isArray(list)) return undefined
  return list
    .filter((r: Record<string, unknown>) => !except?.has(String(r.order_id)))
    .map((r: Record<string, unknown>) => [r.symbol, r.side, r.size, r.price, r.tif, r.filled_size, r.status].map(String).join('|'))
    .sort()
}

interface OrderRecord {
  readonly symbol: string
  readonly side: string
  readonly size: string
  readonly price: string
  readonly filled_size: string
  readonly status: string
}

/** One order's record in a listing, by its id on that side. */
function orderRecord(e: HttpExchange, id: string): OrderRecord | undefined {
  const list = (e.response?.json as { orders?: Record<string, unknown>[] } | undefined)?.orders
  const r = Array.isArray(list) ? list.find((x) => String(x?.order_id) === id) : undefined
  if (!r) return undefined
  const fields = ['symbol', 'side', 'size', 'price', 'filled_size', 'status'] as const
  if (!fields.every((k) => typeof r[k] === 'string')) return undefined
  // Decimals the toolkit cannot read are the comparisons' business, not a race's.
  if (![r.size, r.filled_size, r.price].every((v) => /^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(String(v)))) return undefined
  return r as unknown as OrderRecord
}

function orderIds(e: HttpExchange): Set<string> {
  const list = (e.response?.json as { orders?: { order_id?: unknown }[] } | undefined)?.orders
  return new Set(Array.isArray(list) ? list.map((r) => String(r?.order_id)) : [])
}

/**
 * The same orders on both sides but for how much of each filled (an OPEN order on one side may be
 * FILLED on the other; a CANCELED or REJECTED one must be so on both): what another client
 * trading on the target's book between two reads would leave.
 */
function fillsOnly(target: readonly string[], oracle: readonly string[]): boolean {
  // A record is symbol|side|size|price|tif|filled_size|status: the first five say which order it is.
  const orders = (rs: readonly string[]) =>
    rs
      .map((r) => {
        const f = r.split('|')
        const status = f[6] === 'OPEN' || f[6] === 'FILLED' ? 'live' : f[6]
        return [...f.slice(0, 5), status].join('|')
      })
      .sort()
      .join('\n')
  return orders(target) === orders(oracle)
}
