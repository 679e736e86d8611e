/** `rl.cancel-burst`: cancels sent at once past the cancel limit, over separate connections: never more let through than the limit in one window. */
import { cancelBody, withState } from '../../builders.ts'
import { statusOf } from '../../answers.ts'
import { expectAnswered, expectWithinLimit, pastLimit, sendAtOnce, windowsSeen } from '../../steps/burst.ts'
import { defaultTier, freshWindow } from '../../steps/rate-limits.ts'
import type { Check } from '../../types.ts'

export const RL_CANCEL_BURST = 'rl.cancel-burst'

export const rlCancelBurst: Check<typeof RL_CANCEL_BURST> = {
  id: RL_CANCEL_BURST,
  title: 'cancels sent at once past the cancel limit, over separate connections: never more let through than the limit in one window',
  rules: ['RL-1', 'RL-3', 'RL-4', 'RL-5', 'EP-2', 'ERR-7'],
  level: 'stated',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    const limit = defaultTier(ctx).cancelsPerMinute
    const n = pastLimit(limit)
    // More cancels than a wallet can have open orders: most name no order. Every DELETE /order
    // counts in the cancellation category whatever it finds, so only a 429 stops one.
    const bodies = await Promise.all(Array.from({ length: n }, (_, i) => cancelBody(ctx, w, { orderId: `oec-burst-${i}` })))
    await freshWindow(ctx)
    const answers = await sendAtOnce(
      ctx,
      bodies.map((b) => ({ op: 'cancelOrder', body: b.text })),
    )
    expectAnswered(ctx, answers)
    expectWithinLimit(
      ctx,
      answers.map((e) => ({ e, units: statusOf(e) === 429 ? 0 : 1 })),
      limit,
      'cancels',
    )
    if (answers.every((e) => e.response && statusOf(e) !== 429) && windowsSeen(answers) <= 1)
      ctx.fail(`${n} cancels at once with a limit of ${limit}: none got HTTP 429`, { expected: `HTTP 429 past cancel ${limit}` })
  },
}
