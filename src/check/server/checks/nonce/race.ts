/**
 * `nonce.race`: one signed order sent many times at once over separate connections, round after
 * round: at most one copy is ever accepted. A server whose nonce check and nonce store are split
 * by a single event-loop turn lets several through only when copies land in the same turn, so
 * the check repeats the race (see docs/check-server.md for how often that catches it).
 */
import { brief } from '../../context.ts'
import { orderBody } from '../../builders.ts'
import { succeeded } from '../../answers.ts'
import { expectAnswered, sendAtOnce } from '../../steps/burst.ts'
import type { Check } from '../../types.ts'

export const NONCE_RACE = 'nonce.race'

/** Copies of the request per round. Each copy is charged to the order limit, so a round takes a fresh wallet. */
export const NONCE_RACE_COPIES = 50
/**
 * Rounds per run. With the server in its own process a single round caught a one-turn nonce race
 * in 7 of 10 runs (all 50 copies in one turn is not guaranteed across processes); 0.3^5 < 1 %.
 */
export const NONCE_RACE_ROUNDS = 5

export const nonceRace: Check<typeof NONCE_RACE> = {
  id: NONCE_RACE,
  title: `one signed order sent ${NONCE_RACE_COPIES} times at once over separate connections, ${NONCE_RACE_ROUNDS} rounds: at most one copy accepted`,
  rules: ['NONCE-2', 'NONCE-8'],
  level: 'stated',
  async run(ctx) {
    for (let round = 1; round <= NONCE_RACE_ROUNDS; round++) {
      const w = ctx.wallet()
      const body = await orderBody(ctx, { wallet: w })
      const answers = await sendAtOnce(
        ctx,
        Array.from({ length: NONCE_RACE_COPIES }, () => ({ op: 'placeOrder', body: body.text })),
      )
      expectAnswered(ctx, answers)
      const accepted = answers.filter(succeeded)
      if (accepted.length > 1)
        ctx.fail(`round ${round}: ${accepted.length} of ${NONCE_RACE_COPIES} copies of one signed order (one nonce) were accepted`, {
          exchange: accepted[1],
          expected: 'at most one copy accepted, the others refused (409 nonce_reused)',
        })
      if (accepted.length === 0 && answers.every((e) => e.response))
        ctx.fail(`round ${round}: no copy of a valid order with an unused nonce was accepted (${brief(answers[0])})`, {
          exchange: answers[0],
          expected: 'exactly one copy accepted',
        })
    }
  },
}
