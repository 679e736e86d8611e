/**
 * The three perp actions this server executes against the shared books. Integers arrive as
 * bigints (see exact.ts) and are compared as such; one nonce covers the whole action, so the
 * caller checks it once and consumes it when any item changed state.
 */
import { cmp, formatDec, parseDec } from '../decimal.ts'
import type { ServerContext } from '../context.ts'
import { averagePrice, type OrderInput } from '../order-types.ts'
import { executeOrder } from '../orders.ts'
import type { PerpStatus } from './envelope.ts'
import { indexIn } from './exact.ts'

/** One order of an `order` action; integers are bigints once read exactly (exact.ts). */
export interface OrderWire<Int = bigint> {
  a: Int
  b: boolean
  p: string
  s: string
  r: boolean
  t: { limit: { tif: string } }
  c?: string
}

/** Venue time-in-force → options tif and route. Alo rests like gtc; its post-only rule is checked before placing. */
const TIF: Record<string, { tif: string; route: string }> = {
  Gtc: { tif: 'gtc', route: 'best_execution' },
  Ioc: { tif: 'ioc', route: 'best_execution' },
  Alo: { tif: 'gtc', route: 'book_only' },
}

export interface ActionResult {
  readonly statuses: PerpStatus[]
  readonly changed: boolean
}

function unknownAsset(ctx: ServerContext, a: bigint): PerpStatus {
  return {
    error: `unknown asset index ${a} (this server lists ${ctx.engine.instruments.length} instruments; see POST /info {"type":"meta"})`,
  }
}

/** The best opposite price when a post-only order at `price` would trade against it. */
function crossedBy(ctx: ServerContext, symbol: string, buy: boolean, price: string): string | undefined {
  const depth = ctx.engine.depth(symbol)
  const best = (buy ? depth?.asks : depth?.bids)?.[0]
  if (!best) return undefined
  const c = cmp(parseDec(best.price), parseDec(price))
  return (buy ? c <= 0 : c >= 0) ? best.price : undefined
}

export function placePerpOrders(ctx: ServerContext, wallet: string, orders: readonly OrderWire[], nonce: bigint): ActionResult {
  const statuses: PerpStatus[] = []
  let changed = false
  for (const o of orders) {
    const symbol = indexIn(ctx.engine.instruments, o.a)
    if (symbol === undefined) {
      statuses.push(unknownAsset(ctx, o.a))
      continue
    }
    const tif = o.t.limit.tif
    const cloid = o.c?.toLowerCase()
    if (tif === 'Alo') {
      const bbo = crossedBy(ctx, symbol, o.b, o.p)
      if (bbo !== undefined) {
        statuses.push({ error: `Post only order would have immediately matched, bbo was ${bbo}. asset=${o.a}` })
        continue
      }
    }
    const mode = TIF[tif]!
    const input: OrderInput = {
      wallet,
      symbol,
      side: o.b ? 'Buy' : 'Sell',
      size: o.s,
      price: o.p,
      tif: mode.tif,
      route: mode.route,
      clientId: cloid ?? '',
    }
    const out = executeOrder(ctx, { input, nonce }, false)
    if (out.kind !== 'accepted') {
      statuses.push({ error: out.kind === 'rejected' ? out.reason : out.message })
      continue
    }
    changed = true
    const ord = out.order
    const oid = Number(ord.id)
    const tag = cloid !== undefined ? { cloid } : {}
    if (ord.status === 'OPEN') statuses.push({ resting: { oid, ...tag } })
    else if (ord.filled.coef > 0n) statuses.push({ filled: { totalSz: formatDec(ord.filled), avgPx: averagePrice(ord), oid, ...tag } })
    else statuses.push({ error: 'Order could not immediately match against any resting orders.' })
  }
  return { statuses, changed }
}

/** `cancel` ({a, o}) and `cancelByCloid` ({asset, cloid}): each item must name an order of the account in that asset. */
export function cancelPerpOrders(
  ctx: ServerContext,
  wallet: string,
  items: readonly ({ a: bigint; o: bigint } | { asset: bigint; cloid: string })[],
): ActionResult {
  const statuses: PerpStatus[] = []
  let changed = false
  for (const item of items) {
    const [asset, by, label] =
      'o' in item
        ? ([item.a, { orderId: item.o.toString() }, `order ${item.o}`] as const)
        : ([item.asset, { clientId: item.cloid.toLowerCase() }, `cloid ${item.cloid}`] as const)
    const symbol = indexIn(ctx.engine.instruments, asset)
    if (symbol === undefined) {
      statuses.push(unknownAsset(ctx, asset))
      continue
    }
    const target =
      'orderId' in by
        ? ctx.engine.order(by.orderId)
        : ctx.engine
            .list(wallet)
            .reverse()
            .find((o) => o.input.clientId === by.clientId)
    if (target && target.input.symbol !== symbol) {
      statuses.push({ error: `${label} is not in asset ${asset}` })
      continue
    }
    const out = ctx.engine.cancel(wallet, by)
    if (out.kind === 'canceled') {
      changed = true
      statuses.push('success')
    } else statuses.push({ error: `Order was never placed, already canceled, or filled. ${label}: ${out.reason}` })
  }
  return { statuses, changed }
}
