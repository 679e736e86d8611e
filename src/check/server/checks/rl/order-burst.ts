/** `rl.order-burst`: orders sent at once past the order limit, over separate connections: never more accepted than the limit in one window. */
import { orderBody } from '../../builders.ts'
import { statusOf } from '../../answers.ts'
import {
  ackedUnits,
  expectAnswered,
  expectOnlyRateLimited,
  expectWithinLimit,
  pastLimit,
  sendAtOnce,
  windowsSeen,
} from '../../steps/burst.ts'
import { defaultTier, freshWindow } from '../../steps/rate-limits.ts'
import type { Check } from '../../types.ts'

export const RL_ORDER_BURST = 'rl.order-burst'

export const rlOrderBurst: Check<typeof RL_ORDER_BURST> = {
  id: RL_ORDER_BURST,
  title: 'orders sent at once past the order limit, over separate connections: never more accepted than the limit in one window',
  rules: ['RL-1', 'RL-4', 'RL-5', 'EP-1', 'ERR-7'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const limit = defaultTier(ctx).ordersPerMinute
    const n = pastLimit(limit)
    const bodies = await Promise.all(Array.from({ length: n }, () => orderBody(ctx, { wallet: w })))
    await freshWindow(ctx)
    const answers = await sendAtOnce(
      ctx,
      bodies.map((b) => ({ op: 'placeOrder', body: b.text })),
    )
    expectAnswered(ctx, answers)
    expectWithinLimit(
      ctx,
      answers.map((e) => ({ e, units: ackedUnits(e) })),
      limit,
      'orders',
    )
    // Nothing but a 429 refuses a valid resting order of a fresh wallet.
    expectOnlyRateLimited(ctx, answers)
    if (answers.every((e) => e.response && statusOf(e) !== 429) && windowsSeen(answers) <= 1)
      ctx.fail(`${n} orders at once with a limit of ${limit}: none got HTTP 429`, { expected: `HTTP 429 past order ${limit}` })
  },
}
