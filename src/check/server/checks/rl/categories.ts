/** `rl.categories`: order, cancel and API categories are independent (cancels do not spend orders and vice versa). */
import { brief } from '../../context.ts'
import { cancelBody, placeOrder } from '../../builders.ts'
import { rateHeaders, statusOf, succeeded } from '../../answers.ts'
import { defaultTier, freshWindow, restingOrder } from '../../steps/rate-limits.ts'
import { orderLimitHit } from './order-limit.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'

export const RL_CATEGORIES = 'rl.categories'

export const rlCategories: Check<typeof RL_CATEGORIES> = {
  id: RL_CATEGORIES,
  title: 'order, cancel and API categories are independent (cancels do not spend orders and vice versa)',
  rules: ['RL-3'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    await freshWindow(ctx)
    const tier = defaultTier(ctx)
    const first = await restingOrder(ctx, w)
    const second = await restingOrder(ctx, w)
    const c1 = await call(ctx, 'cancelOrder', (await cancelBody(ctx, w, { orderId: first.orderId })).text)
    if (!succeeded(c1)) ctx.fail(`cancel not accepted (${brief(c1)})`, { exchange: c1 })
    const hc = rateHeaders(c1)
    if (hc.remaining !== undefined && hc.limit !== undefined && hc.remaining !== hc.limit - 1) {
      ctx.fail(
        `after 2 orders and 1 cancel, the cancel response shows ${hc.remaining} of ${hc.limit} left; cancels must not count orders`,
        { exchange: c1, expected: `X-RateLimit-Remaining: ${hc.limit - 1}` },
      )
    }
    const { e: o3 } = await placeOrder(ctx, { wallet: w })
    const ho = rateHeaders(o3)
    if (ho.remaining !== undefined && ho.limit !== undefined && ho.remaining !== ho.limit - 3) {
      ctx.fail(`after 3 orders and 1 cancel, the order response shows ${ho.remaining} of ${ho.limit} left; orders must not count cancels`, {
        exchange: o3,
        expected: `X-RateLimit-Remaining: ${ho.limit - 3}`,
      })
    }
    // Exhaust the orders; a cancel must still go through.
    await orderLimitHit(ctx, w, tier.ordersPerMinute - 3)
    const c2 = await call(ctx, 'cancelOrder', (await cancelBody(ctx, w, { orderId: second.orderId })).text)
    if (statusOf(c2) === 429)
      ctx.fail('a cancel was refused with 429 after the order limit (not the cancel limit) was used up', {
        exchange: c2,
        expected: 'the cancel accepted',
      })
    if (!succeeded(c2)) ctx.fail(`a cancel after the order limit was used up: ${brief(c2)}`, { exchange: c2 })
  },
}
