/**
 * What POST /info answers, per request type, in the venue's shapes and from the server's state:
 * the instrument list is the perp universe (asset index = position), the books give mids, levels
 * and each instrument's context, the order store gives an account's resting orders. Pure reads of
 * the server context; the handler (info.ts) validates the request first.
 */
import type { ServerContext } from '../context.ts'
import { add, div, formatDec, parseDec, sub } from '../decimal.ts'
import type { Order } from '../order-types.ts'

export interface InfoRequest {
  readonly type: string
  readonly user?: string
  readonly coin?: string
}

/**
 * Sizes and prices are exact decimals here, with no lot size; the venue's SDKs round a size to
 * szDecimals and a price to 6 - szDecimals decimals, so 4 leaves both usable. Options carry no
 * leverage, hence 1.
 */
const SZ_DECIMALS = 4
const MAX_LEVERAGE = 1
/** A venue client order id (16 bytes); an options client_id of another form is not one. */
const CLOID = /^0x[0-9a-f]{32}$/

const meta = (ctx: ServerContext) => ({
  universe: ctx.engine.instruments.map((name) => ({ name, szDecimals: SZ_DECIMALS, maxLeverage: MAX_LEVERAGE })),
})
// No spot markets, and only the default perp dex, which the venue lists as null.
const spotMeta = () => ({ universe: [], tokens: [] })

function bestOf(ctx: ServerContext, symbol: string): { bid?: string | undefined; ask?: string | undefined } {
  const d = ctx.engine.depth(symbol)
  return { bid: d?.bids[0]?.price, ask: d?.asks[0]?.price }
}

function midOf(ctx: ServerContext, symbol: string): string | null {
  const { bid, ask } = bestOf(ctx, symbol)
  return bid && ask ? formatDec(div(add(parseDec(bid), parseDec(ask)), parseDec('2'))) : null
}

/** The venue's asset context; what this server has no notion of (funding, volume, an oracle) is zero or the mark. */
function assetCtx(ctx: ServerContext, symbol: string) {
  const { bid, ask } = bestOf(ctx, symbol)
  const midPx = midOf(ctx, symbol)
  const markPx = midPx ?? bid ?? ask ?? '0'
  return {
    funding: '0',
    openInterest: '0',
    prevDayPx: markPx,
    dayNtlVlm: '0',
    premium: null,
    oraclePx: markPx,
    markPx,
    midPx,
    impactPxs: bid && ask ? [bid, ask] : null,
    dayBaseVlm: '0',
  }
}

function restingOrder(o: Order) {
  const cloid = CLOID.test(o.input.clientId) ? { cloid: o.input.clientId } : {}
  return {
    coin: o.input.symbol,
    side: o.input.side === 'Buy' ? 'B' : 'A',
    limitPx: o.input.price,
    sz: formatDec(sub(o.size, o.filled)),
    oid: Number(o.id),
    timestamp: o.createdAt,
    origSz: o.input.size,
    ...cloid,
  }
}

const openOrders = (ctx: ServerContext, req: InfoRequest) => ctx.engine.list(req.user!, 'OPEN').reverse().map(restingOrder)

/** Each request type of the spec's PerpInfoRequest, and the field it cannot do without. */
export const INFO_ANSWERS: Record<string, { needs?: 'user' | 'coin'; answer: (ctx: ServerContext, req: InfoRequest) => unknown }> = {
  meta: { answer: meta },
  spotMeta: { answer: spotMeta },
  perpDexs: { answer: () => [null] },
  metaAndAssetCtxs: { answer: (ctx) => [meta(ctx), ctx.engine.instruments.map((s) => assetCtx(ctx, s))] },
  spotMetaAndAssetCtxs: { answer: () => [spotMeta(), []] },
  // The venue lists a mid only where both sides have one.
  allMids: {
    answer: (ctx) => Object.fromEntries(ctx.engine.instruments.flatMap((s) => (midOf(ctx, s) === null ? [] : [[s, midOf(ctx, s)]]))),
  },
  l2Book: {
    needs: 'coin',
    // The venue answers null for a coin it does not list.
    answer: (ctx, req) => {
      const d = ctx.engine.depth(req.coin!)
      if (!d) return null
      const side = (levels: { price: string; size: string }[]) => levels.map((l) => ({ px: l.price, sz: l.size, n: 1 }))
      return { coin: req.coin, time: ctx.deps.clock.now(), levels: [side(d.bids), side(d.asks)] }
    },
  },
  openOrders: { needs: 'user', answer: openOrders },
  frontendOpenOrders: {
    needs: 'user',
    answer: (ctx, req) =>
      ctx.engine
        .list(req.user!, 'OPEN')
        .reverse()
        .map((o) => ({
          ...restingOrder(o),
          orderType: 'Limit',
          tif: o.input.route === 'book_only' ? 'Alo' : 'Gtc',
          reduceOnly: false,
          isTrigger: false,
          triggerPx: '0.0',
          triggerCondition: 'N/A',
          isPositionTpsl: false,
          children: [],
        })),
  },
  // Separate perp and spot margin, the venue's default account mode.
  userAbstraction: { needs: 'user', answer: () => 'default' },
}
