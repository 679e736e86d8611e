/**
 * `cap.open-orders`: the order beyond the open-order cap is refused with limit_exceeded and the
 * cap in the message, as a single order and as an item of a bulk order (where the refusal may be
 * the batch's answer or the item's slot: either carries the stated fields).
 */
import { brief } from '../../context.ts'
import { call } from '../../operations.ts'
import { bulkBody, orderBody, placeOrder } from '../../builders.ts'
import { jsonOf, rateHeaders, statusOf, succeeded } from '../../answers.ts'
import type { HttpExchange } from '../../../target/http.ts'
import { defaultTier, expectCapRefusal } from '../../steps/rate-limits.ts'
import type { Check, CheckContext } from '../../types.ts'

export const CAP_OPEN_ORDERS = 'cap.open-orders'

/** Sends until the answer is not a 429, waiting for the next window after each one. */
async function pastRateLimit(ctx: CheckContext, send: () => Promise<HttpExchange>): Promise<HttpExchange> {
  for (;;) {
    const e = await send()
    if (statusOf(e) !== 429) return e
    const reset = rateHeaders(e).reset
    if (reset === undefined) return ctx.fail('a 429 without X-RateLimit-Reset: cannot wait for the next window', { exchange: e })
    await ctx.target.waitUntil(reset)
  }
}

export const capOpenOrders: Check<typeof CAP_OPEN_ORDERS> = {
  id: CAP_OPEN_ORDERS,
  title: 'the order beyond the open-order cap is refused with limit_exceeded and the cap in the message, alone and in a bulk order',
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
      const e = await pastRateLimit(ctx, async () => (await placeOrder(ctx, { wallet: w })).e)
      if (!succeeded(e)) ctx.fail(`resting order ${open + 1} of the cap ${cap} was refused: ${brief(e)}`, { exchange: e })
      open++
    }
    await ctx.case('bulk-slot', `a bulk order with one gtc item beyond the cap ${cap}`, async (c) => {
      const e = await pastRateLimit(c, async () => call(c, 'placeOrders', bulkBody('orders', [await orderBody(c, { wallet: w })])))
      const results = jsonOf(e)?.results
      if (statusOf(e) >= 300 || !Array.isArray(results)) return expectCapRefusal(c, e, cap, 'cap')
      const slot = results[0] as Record<string, unknown> | undefined
      if (slot?.status !== 'REJECTED')
        c.fail(`a bulk item beyond the open-order cap ${cap} was not rejected: ${brief(e)}`, {
          exchange: e,
          expected: `its slot REJECTED with limit_exceeded and a message stating ${cap}`,
        })
      expectCapRefusal(c, e, cap, 'cap', slot)
    })
    const e = await pastRateLimit(ctx, async () => (await placeOrder(ctx, { wallet: w })).e)
    if (succeeded(e))
      ctx.fail(`a gtc order beyond the open-order cap ${cap} was accepted`, {
        exchange: e,
        expected: `limit_exceeded with a message stating ${cap}`,
      })
    expectCapRefusal(ctx, e, cap, 'cap')
  },
}
