/** `rl.unauthenticated-free`: a request refused by authentication does not spend the named wallet's budget. */
import { brief } from '../../context.ts'
import { expectSuccess } from '../../expectations.ts'
import { placeOrder } from '../../builders.ts'
import { rateHeaders, succeeded } from '../../answers.ts'
import type { Check } from '../../types.ts'

export const RL_UNAUTHENTICATED_FREE = 'rl.unauthenticated-free'

export const rlUnauthenticatedFree: Check<typeof RL_UNAUTHENTICATED_FREE> = {
  id: RL_UNAUTHENTICATED_FREE,
  title: "a request refused by authentication does not spend the named wallet's budget",
  rules: ['RL-12'],
  level: 'assumed',
  async run(ctx) {
    const w = ctx.wallet()
    const first = (await placeOrder(ctx, { wallet: w })).e
    expectSuccess(ctx, first, 'first order')
    const stranger = (await placeOrder(ctx, { wallet: w, signer: ctx.wallet() })).e
    if (succeeded(stranger))
      ctx.fail(`an order signed by a stranger was accepted (${brief(stranger)})`, {
        exchange: stranger,
        level: 'stated',
        rules: ['AUTH-2'],
      })
    const second = (await placeOrder(ctx, { wallet: w })).e
    expectSuccess(ctx, second, 'second order')
    const a = rateHeaders(first).remaining
    const b = rateHeaders(second).remaining
    if (a !== undefined && b !== undefined && b !== a - 1) {
      ctx.fail(
        `X-RateLimit-Remaining went from ${a} to ${b} across one accepted order and one refused stranger's order; expected ${a - 1}`,
        { exchange: second },
      )
    }
  },
}
