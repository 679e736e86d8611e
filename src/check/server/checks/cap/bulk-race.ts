/**
 * `cap.bulk-race`: with a wallet a little under the open-order cap, batches and single orders
 * sent at once: one cap for both, never more resting than the cap.
 */
import { placeOrder } from '../../helpers.ts'
import { bulkRaceRequests, capBurstPlan, expectAnswered, expectCapHeld, restThenFreshWindow, sendAtOnce } from '../../steps/burst.ts'
import { defaultTier } from '../../steps/rate-limits.ts'
import type { Check } from '../../types.ts'

export const CAP_BULK_RACE = 'cap.bulk-race'

export const capBulkRace: Check<typeof CAP_BULK_RACE> = {
  id: CAP_BULK_RACE,
  title: 'batches and single orders sent at once past the open-order cap: one cap for both, never more resting than the cap',
  rules: ['CAP-1', 'CAP-3', 'ERR-8', 'EP-3'],
  level: 'stated',
  slow: true,
  async run(ctx) {
    const w = ctx.wallet()
    const tier = defaultTier(ctx)
    const cap = tier.maxOpenOrders
    const { size, room } = capBurstPlan(tier.ordersPerMinute, cap)
    await restThenFreshWindow(ctx, w, cap - room, async (x) => (await placeOrder(ctx, { wallet: x })).e)
    const answers = await sendAtOnce(ctx, await bulkRaceRequests(ctx, w, size))
    expectAnswered(ctx, answers)
    expectCapHeld(ctx, answers, cap, room)
  },
}
