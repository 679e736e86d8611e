/**
 * The order and cancel steps shared by the single and the bulk endpoints: field checks beyond
 * the schema (exact nonce, route switch, calendar date), then execution against the exchange
 * with the nonce consumed only when state changed.
 */
import type { Code } from '../contract/codes.ts'
import type { ParsedBodyOk } from '../signing/index.ts'
import { readUint64 } from '../signing/index.ts'
import type { ErrorCatalog } from './catalog.ts'
import type { ServerContext } from './context.ts'
import type { Order, OrderInput, Side } from './order-types.ts'
import { symbolProblem } from './symbols.ts'
import type { FieldProblem } from './validate.ts'

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: FieldProblem }

export interface PreparedOrder {
  readonly body: ParsedBodyOk
  readonly input: OrderInput
  readonly nonce: bigint
  readonly routeOmitted: boolean
}

export interface PreparedCancel {
  readonly body: ParsedBodyOk
  readonly wallet: string
  readonly by: { orderId: string } | { clientId: string }
  readonly nonce: bigint
}

/** The body at `pointer` as a parsed body of its own (numbers re-based), for batch items. */
export function subBody(body: ParsedBodyOk, pointer: string, value: unknown): ParsedBodyOk {
  const numbers = new Map<string, string>()
  const prefix = `${pointer}/`
  for (const [k, v] of body.numbers) if (k.startsWith(prefix)) numbers.set(k.slice(pointer.length), v)
  return { ok: true, value, numbers }
}

function nonceOf(body: ParsedBodyOk, prefix: string): Checked<bigint> {
  const r = readUint64(body, '/nonce')
  if (r.ok) return { ok: true, value: r.value }
  const field = prefix ? `${prefix}.nonce` : 'nonce'
  return { ok: false, problem: { field, message: `invalid field "${field}": ${r.message.replace(/^nonce /, '')}` } }
}

/** Schema, nonce, route switch and symbol checks of one PlaceOrder body. `prefix` names batch items. */
/** The signed decimal fields: sent as a JSON number they can never match the signed string. */
const DECIMAL_FIELDS = ['size', 'price'] as const

export function prepareOrder(
  ctx: ServerContext,
  body: ParsedBodyOk,
  check: (v: unknown) => FieldProblem | null,
  prefix = '',
): Checked<PreparedOrder> {
  const raw = body.value as Record<string, unknown> | null
  const asNumber = raw && typeof raw === 'object' ? DECIMAL_FIELDS.find((f) => typeof raw[f] === 'number') : undefined
  if (asNumber) {
    // The seed lists "price or size sent as a number" among the causes of this exact message.
    const field = prefix ? `${prefix}.${asNumber}` : asNumber
    return { ok: false, problem: { field, message: 'Signature verification failed', code: 'signature_verification_failed' } }
  }
  const problem = check(body.value)
  if (problem) return { ok: false, problem: prefixed(problem, prefix) }
  const v = body.value as Record<string, string>
  const nonce = nonceOf(body, prefix)
  if (!nonce.ok) return nonce
  const routeOmitted = v.route === undefined
  if (routeOmitted && ctx.config.routeRequired) {
    const field = prefix ? `${prefix}.route` : 'route'
    return {
      ok: false,
      problem: { field, message: `missing field "${field}": this server requires route (optional only until the sunset date)` },
    }
  }
  // A listed instrument passed the same check when the configuration was loaded.
  const symbolWhy = ctx.engine.hasInstrument(v.symbol!) ? null : symbolProblem(v.symbol!, ctx.symbolRe)
  if (symbolWhy) {
    const field = prefix ? `${prefix}.symbol` : 'symbol'
    return { ok: false, problem: { field, message: `invalid field "${field}": ${symbolWhy}` } }
  }
  const input: OrderInput = {
    wallet: v.wallet!,
    symbol: v.symbol!,
    side: v.side as Side,
    size: v.size!,
    price: v.price!,
    tif: v.tif!,
    route: v.route ?? 'best_execution',
    clientId: v.client_id!,
  }
  return { ok: true, value: { body, input, nonce: nonce.value, routeOmitted } }
}

export function prepareCancel(
  _ctx: ServerContext,
  body: ParsedBodyOk,
  check: (v: unknown) => FieldProblem | null,
  prefix = '',
): Checked<PreparedCancel> {
  const problem = check(body.value)
  if (problem) return { ok: false, problem: prefixed(problem, prefix) }
  const v = body.value as Record<string, string>
  const nonce = nonceOf(body, prefix)
  if (!nonce.ok) return nonce
  const by = v.order_id !== undefined ? { orderId: v.order_id } : { clientId: v.client_id! }
  return { ok: true, value: { body, wallet: v.wallet!, by, nonce: nonce.value } }
}

function prefixed(p: FieldProblem, prefix: string): FieldProblem {
  if (!prefix) return p
  const field = p.field === 'body' ? prefix : `${prefix}.${p.field}`
  return { field, message: p.message.replace(`"${p.field}"`, `"${field}"`).replace(/^invalid body: /, `invalid field "${prefix}": `) }
}

export type OrderOutcome =
  | { kind: 'accepted'; order: Order }
  | { kind: 'rejected'; order: Order; reason: string }
  | { kind: Code<'nonce_reused'>; message: string }
  | { kind: Code<'limit_exceeded'>; message: string }

/**
 * Runs an authenticated, charged order. Consumes the nonce only when the order was accepted;
 * `ownNonce` false: the caller checks and consumes one nonce for several orders (perp actions).
 */
export function executeOrder(ctx: ServerContext, p: { input: OrderInput; nonce: bigint }, ownNonce = true): OrderOutcome {
  const { nonces, clock } = ctx.deps
  const wallet = p.input.wallet
  if (ownNonce && nonces.has(wallet, p.nonce)) return { kind: 'nonce_reused', message: `nonce ${p.nonce} was already used by this wallet` }
  const t = ctx.tier(wallet)
  const out = ctx.engine.place(p.input, { maxOpenOrders: t.maxOpenOrders, maxPositions: t.maxPositions }, clock.now())
  if (out.kind === 'limit') return { kind: 'limit_exceeded', message: out.message }
  if (out.kind === 'accepted' && ownNonce) nonces.consume(wallet, p.nonce)
  return out
}

export type CancelOutcome =
  | { kind: 'canceled'; order: Order }
  | { kind: 'rejected'; reason: string; order?: Order }
  | { kind: Code<'nonce_reused'>; message: string }

export function executeCancel(ctx: ServerContext, p: PreparedCancel): CancelOutcome {
  const { nonces } = ctx.deps
  if (nonces.has(p.wallet, p.nonce)) return { kind: 'nonce_reused', message: `nonce ${p.nonce} was already used by this wallet` }
  const out = ctx.engine.cancel(p.wallet, p.by)
  if (out.kind === 'canceled') nonces.consume(p.wallet, p.nonce)
  return out
}

/**
 * The order result body (`ACKED` / `REJECTED`). A refusal with a catalog code (a cap, a reused
 * nonce) carries that code's error fields beside `reason`, as its HTTP error body would: a cap
 * refusal states `error: "limit_exceeded"` and the cap in `message` in every form it takes.
 */
export function orderResult(out: OrderOutcome, catalog: ErrorCatalog, extra: Record<string, unknown> = {}): Record<string, unknown> {
  switch (out.kind) {
    case 'accepted':
      return { status: 'ACKED', order_id: out.order.id, client_id: out.order.input.clientId, ...extra }
    case 'rejected':
      return { status: 'REJECTED', reason: out.reason, order_id: out.order.id, client_id: out.order.input.clientId, ...extra }
    case 'nonce_reused':
    case 'limit_exceeded':
      return { status: 'REJECTED', reason: out.message, ...(catalog.reply(out.kind, out.message).body as object), ...extra }
  }
}

export function cancelResult(p: PreparedCancel, out: CancelOutcome): Record<string, unknown> {
  const ids = 'orderId' in p.by ? { order_id: p.by.orderId } : { client_id: p.by.clientId }
  switch (out.kind) {
    case 'canceled':
      return { status: 'CANCELED', order_id: out.order.id, client_id: out.order.input.clientId }
    case 'rejected':
      return { status: 'REJECTED', ...ids, reason: out.reason }
    case 'nonce_reused':
      return { status: 'REJECTED', ...ids, reason: out.message, code: out.kind }
  }
}
