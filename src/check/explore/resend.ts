/**
 * The `replay` step: an earlier signed write of the sequence sent again byte for byte, to each
 * side as it went there (the same signature, the same nonce). Whatever the first answer was, the
 * two sides must answer the copy alike; and a request the target took once it must never take
 * again (its nonce is spent: NONCE-2).
 */
import type { HttpExchange } from '../target/http.ts'
import { route } from '../target/routes.ts'
import type { OperationId } from '../../contract/generated/types.ts'
import type { AnswerContext, Divergence } from './compare.ts'
import type { Pair } from './pair.ts'
import { observe, tookEffect, type AnswerKind, type Observed } from './observe.ts'
import type { Step } from './steps.ts'

type Replay = Extract<Step, { op: 'replay' }>
export type ResendVerdict = readonly Divergence[] | 'rolled'

/** What a replay needs of the sequence it runs in. */
export interface ResendWorld {
  readonly pair: Pair
  readonly trace: readonly { readonly target: readonly HttpExchange[]; readonly oracle: readonly HttpExchange[] }[]
  /** The sequence's wallet with this address, if any. */
  walletAt(address: string): number | undefined
  settle(account: string, nonce: bigint, effect: boolean): void
  record(step: Step, t: HttpExchange[], o: HttpExchange[]): void
  answer(t: Observed, o: Observed, c: Omit<AnswerContext, 'windowRolled'>, wallet: string): ResendVerdict
  nonceTaken(account: string, nonce: bigint): Divergence[]
  state(wallets: readonly number[]): Promise<ResendVerdict>
}

/** The signed writes a replay may repeat, with how their answers read. */
const WRITES: readonly (readonly [OperationId, AnswerKind])[] = [
  ['placeOrder', 'order'],
  ['cancelOrder', 'cancel'],
  ['placeOrders', 'batch'],
  ['replaceOrders', 'replace'],
  ['cancelOrders', 'batch'],
  ['cancelOrdersByClientId', 'batch'],
  ['approveAgent', 'agent'],
  ['revokeAgent', 'agent'],
  ['perpExchange', 'perp'],
]

interface Earlier {
  readonly kind: AnswerKind
  readonly method: string
  readonly path: string
  readonly target: HttpExchange
  readonly oracle: HttpExchange
}

/** The earlier writes sent to both sides alike (same operation, both answered), in the order sent. */
function earlierWrites(w: ResendWorld): Earlier[] {
  const kinds = new Map(
    WRITES.map(([op, kind]) => {
      const r = route(w.pair, op)
      return [`${r.method} ${r.path}`, kind] as const
    }),
  )
  const out: Earlier[] = []
  for (const t of w.trace)
    for (const [i, te] of t.target.entries()) {
      const oe = t.oracle[i]
      if (!oe || te.request.body === undefined || oe.request.body === undefined || !te.response || !oe.response) continue
      const path = new URL(te.request.url).pathname
      const kind = kinds.get(`${te.request.method} ${path}`)
      if (kind && path === new URL(oe.request.url).pathname) out.push({ kind, method: te.request.method, path, target: te, oracle: oe })
    }
  return out
}

/** The account and nonce of a single request's body (a batch's items have their own). */
function accountNonce(body: string): { account: string; nonce: bigint } | undefined {
  try {
    const doc = JSON.parse(body) as { wallet?: unknown; nonce?: unknown }
    if (typeof doc.wallet !== 'string' || (typeof doc.nonce !== 'string' && typeof doc.nonce !== 'number')) return undefined
    return { account: doc.wallet, nonce: BigInt(doc.nonce) }
  } catch {
    return undefined
  }
}

export async function resend(w: ResendWorld, step: Replay): Promise<ResendVerdict> {
  const writes = earlierWrites(w)
  if (writes.length === 0) return []
  const e = writes[step.at % writes.length]!
  const te = await w.pair.target.send(e.method, e.path, { body: e.target.request.body! })
  const oe = await w.pair.oracle.send(e.method, e.path, { body: e.oracle.request.body! })
  w.record(step, [te], [oe])
  const [t, o] = [observe(te, e.kind), observe(oe, e.kind)]
  const single = e.kind === 'batch' || e.kind === 'replace' || e.kind === 'perp' ? undefined : accountNonce(e.target.request.body!)
  const wallet = single ? w.walletAt(single.account) : undefined
  const verdict = w.answer(t, o, { kind: e.kind, rateLimited: true }, single?.account ?? 'replay')
  if (verdict === 'rolled') return verdict
  const out = [...verdict]
  if (single) {
    w.settle(single.account, single.nonce, tookEffect(o))
    if (tookEffect(t)) out.push(...w.nonceTaken(single.account, single.nonce))
  }
  if (out.length || !(tookEffect(t) || tookEffect(o))) return out
  // A copy that took effect (its first send was refused) changed state: compared where we know whose.
  return wallet === undefined ? 'rolled' : w.state([wallet])
}
