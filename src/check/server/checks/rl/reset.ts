/** `rl.reset`: after the limit is hit, the counters reset at X-RateLimit-Reset. */
import { brief } from '../../context.ts'
import { placeOrder } from '../../builders.ts'
import { rateHeaders, succeeded } from '../../answers.ts'
import { defaultTier, freshWindow } from '../../steps/rate-limits.ts'
import { orderLimitHit } from './order-limit.ts'
import type { Check } from '../../types.ts'

export const RL_RESET = 'rl.reset'

export const rlReset: Check<typeof RL_RESET> = {
  id: RL_RESET,
  title: 'after the limit is hit, the counters reset at X-RateLimit-Reset',
  rules: ['RL-1', 'RL-9', 'RL-10', 'RL-11'],
  level: 'stated',
  slow: true,
  async run(ctx) {
    const w = ctx.wallet()
    await freshWindow(ctx)
    const limit = defaultTier(ctx).ordersPerMinute
    const last = await orderLimitHit(ctx, w, limit)
    const reset = rateHeaders(last).reset
    if (reset === undefined) return ctx.fail('the 429 carries no X-RateLimit-Reset', { exchange: last })
    await ctx.target.waitUntil(reset)
    const { e } = await placeOrder(ctx, { wallet: w })
    if (!succeeded(e))
      ctx.fail(`an order at X-RateLimit-Reset (${reset}) was not accepted: ${brief(e)}`, { exchange: e, expected: 'ACKED: a new window' })
    const h = rateHeaders(e)
    if (h.limit !== undefined && h.remaining !== h.limit - 1)
      ctx.fail(`the first order of the new window shows Remaining ${h.remaining}, expected ${h.limit - 1}`, { exchange: e })
    const window = ctx.spec.rateLimits.windowSeconds
    if (h.reset !== undefined && h.reset !== reset + window)
      ctx.warn(`the new window ends at ${h.reset}, expected ${reset + window}`, { exchange: e, level: 'assumed', rules: ['RL-11'] })
  },
}
