/** `rl.bulk-race`: batches and single orders for one wallet sent at once past the order limit: every order of a batch counts, never more accepted than the limit in one window. */
import { ackedUnits, bulkRaceRequests, expectAnswered, expectWithinLimit, pastLimit, sendAtOnce } from '../../steps/burst.ts'
import { defaultTier, freshWindow } from '../../steps/rate-limits.ts'
import type { Check } from '../../types.ts'

export const RL_BULK_RACE = 'rl.bulk-race'

export const rlBulkRace: Check<typeof RL_BULK_RACE> = {
  id: RL_BULK_RACE,
  title:
    'batches and single orders for one wallet sent at once past the order limit: never more orders accepted than the limit in one window',
  rules: ['RL-1', 'RL-4', 'RL-5', 'EP-1', 'EP-3'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const limit = defaultTier(ctx).ordersPerMinute
    const requests = await bulkRaceRequests(ctx, w, pastLimit(limit))
    await freshWindow(ctx)
    const answers = await sendAtOnce(ctx, requests)
    expectAnswered(ctx, answers)
    expectWithinLimit(
      ctx,
      answers.map((e) => ({ e, units: ackedUnits(e) })),
      limit,
      'orders',
    )
  },
}
