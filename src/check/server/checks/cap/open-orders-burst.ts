/**
 * `cap.open-orders-burst`: with a wallet a little under the open-order cap, orders sent at once
 * over separate connections: never more resting than the cap, every other one refused as a cap
 * refusal in the stated form.
 */
import { orderBody, placeOrder } from '../../helpers.ts'
import { capBurstPlan, expectAnswered, expectCapHeld, restThenFreshWindow, sendAtOnce } from '../../steps/burst.ts'
import { defaultTier } from '../../steps/rate-limits.ts'
import type { Check } from '../../types.ts'

export const CAP_OPEN_ORDERS_BURST = 'cap.open-orders-burst'

export const capOpenOrdersBurst: Check<typeof CAP_OPEN_ORDERS_BURST> = {
  id: CAP_OPEN_ORDERS_BURST,
  title: 'orders sent at once past the open-order cap, over separate connections: never more resting than the cap',
  rules: ['CAP-1', 'CAP-3', 'ERR-8', 'RL-4'],
  level: 'stated',
  slow: true,
  async run(ctx) {
    const w = ctx.wallet()
    const tier = defaultTier(ctx)
    const cap = tier.maxOpenOrders
    const { size, room } = capBurstPlan(tier.ordersPerMinute, cap)
    await restThenFreshWindow(ctx, w, cap - room, async (x) => (await placeOrder(ctx, { wallet: x })).e)
    const bodies = await Promise.all(Array.from({ length: size }, () => orderBody(ctx, { wallet: w })))
    const answers = await sendAtOnce(
      ctx,
      bodies.map((b) => ({ op: 'placeOrder', body: b.text })),
    )
    expectAnswered(ctx, answers)
    expectCapHeld(ctx, answers, cap, room)
  },
}
