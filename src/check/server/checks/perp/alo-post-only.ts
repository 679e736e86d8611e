/** `perp.alo-post-only`: an `Alo` (post-only) order that would cross is an `{error}` status, never a fill. */
import { brief } from '../../context.ts'
import { call } from '../../operations.ts'
import { jsonOf, succeeded } from '../../answers.ts'
import { placeOrder, withState } from '../../builders.ts'
import { ordersOf, statusesOf } from '../../steps/perp.ts'
import type { Check } from '../../types.ts'
import { defaultPerpAction, perpOrder } from './orders.ts'

export const PERP_ALO_POST_ONLY = 'perp.alo-post-only'

export const perpAloPostOnly: Check<typeof PERP_ALO_POST_ONLY> = {
  id: PERP_ALO_POST_ONLY,
  title: 'an Alo order that would cross is an error status, never a fill',
  rules: ['PERP-9'],
  level: 'assumed',
  // Rests an ask just above the best bid that must stay unfilled (a taker elsewhere would lift it).
  shares: ['book'],
  async run(ctx) {
    const maker = ctx.wallet()
    const taker = await withState(ctx, ctx.wallet(), 'options order that gives the perp key state')
    const symbol = ctx.target.symbols[0] ?? ''
    // A resting sell above the best bid (so it rests), which an Alo buy at the same price crosses.
    const book = jsonOf(await call(ctx, 'getOrderbook', undefined, { symbol }))?.result as
      | { bids?: { price?: string }[] }
      | null
      | undefined
    const bestBid = Number(book?.bids?.[0]?.price ?? 0)
    const price = String(Math.floor(Number.isFinite(bestBid) ? bestBid : 0) + 7)
    const { e: ask } = await placeOrder(ctx, { wallet: maker, symbol, side: 'Sell', price, size: '1', tif: 'gtc' })
    if (!succeeded(ask)) ctx.skip(`the resting sell the Alo order would cross was not accepted (${brief(ask)})`)
    const action = defaultPerpAction(price)
    const order = (action.orders as Record<string, unknown>[])[0]!
    order.t = { limit: { tif: 'Alo' } }
    const e = await call(ctx, 'perpExchange', await perpOrder(ctx, taker, { action }))
    const [status] = statusesOf(e)
    if (status && ('filled' in status || 'resting' in status))
      ctx.fail(`an Alo buy at the best ask was placed: ${brief(e)}`, { exchange: e, expected: 'an {error} status (post-only)' })
    if (!status || typeof status.error !== 'string')
      ctx.fail(`an Alo buy at the best ask: expected an {error} status, got ${brief(e)}`, {
        exchange: e,
        expected: '{"status":"ok",...,"statuses":[{"error":"..."}]}',
      })
    const filled = (await ordersOf(ctx, taker.address)).filter(
      (o) => o.price === price && o.filled_size !== undefined && o.filled_size !== '0',
    )
    if (filled.length) ctx.fail('the Alo order traded', { expected: 'no fill' })
  },
}
