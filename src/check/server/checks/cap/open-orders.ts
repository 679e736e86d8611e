/** `cap.open-orders`: the order beyond the open-order cap is refused with limit_exceeded and the cap in the message. */
import { brief } from '../../context.ts'
import { placeOrder, rateHeaders, statusOf, succeeded } from '../../helpers.ts'
import type { Exchange } from '../../http.ts'
import { defaultTier, expectCapRefusal } from '../../steps/rate-limits.ts'
import type { Check } from '../../types.ts'

export const CAP_OPEN_ORDERS = 'cap.open-orders'

export const capOpenOrders: Check<typeof CAP_OPEN_ORDERS> = {
  id: CAP_OPEN_ORDERS,
  title: 'the order beyond the open-order cap is refused with limit_exceeded and the cap in the message',
  rules: ['CAP-1', 'CAP-3', 'ERR-8', 'CAP-5'],
  level: 'stated',
  slow: true,
  async run(ctx) {
    const w = ctx.wallet()
    const cap = defaultTier(ctx).maxOpenOrders
    let open = 0
    let guard = 0
    while (open < cap) {
      if (guard++ > cap * 3) ctx.fail(`could not rest ${cap} orders`)
      const { e } = await placeOrder(ctx, { wallet: w })
      if (succeeded(e)) {
        open++
        continue
      }
      if (statusOf(e) === 429) {
        const reset = rateHeaders(e).reset
        if (reset === undefined) return ctx.fail('a 429 without X-RateLimit-Reset: cannot wait for the next window', { exchange: e })
        await ctx.target.waitUntil(reset)
        continue
      }
      ctx.fail(`resting order ${open + 1} of the cap ${cap} was refused: ${brief(e)}`, { exchange: e })
    }
    let e: Exchange
    for (;;) {
      e = (await placeOrder(ctx, { wallet: w })).e
      if (statusOf(e) !== 429) break
      const reset = rateHeaders(e).reset
      if (reset === undefined) return ctx.fail('a 429 without X-RateLimit-Reset', { exchange: e })
      await ctx.target.waitUntil(reset)
    }
    if (succeeded(e))
      ctx.fail(`a gtc order beyond the open-order cap ${cap} was accepted`, {
        exchange: e,
        expected: `limit_exceeded with a message stating ${cap}`,
      })
    expectCapRefusal(ctx, e, cap, 'cap')
  },
}
