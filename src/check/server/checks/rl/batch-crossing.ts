/** `rl.batch-crossing`: a batch that would cross the order limit gets 429 as a whole and consumes nothing; a replacement costs no cancel. */
import { brief } from '../../context.ts'
import { bulkBody, cancelBody, orderBody, placeOrder } from '../../builders.ts'
import { jsonOf, rateHeaders, statusOf, succeeded } from '../../answers.ts'
import { defaultTier, freshWindow } from '../../steps/rate-limits.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'

export const RL_BATCH_CROSSING = 'rl.batch-crossing'

export const rlBatchCrossing: Check<typeof RL_BATCH_CROSSING> = {
  id: RL_BATCH_CROSSING,
  title: 'a batch that would cross the order limit gets 429 as a whole and consumes nothing; a replacement costs no cancel',
  rules: ['RL-13', 'RL-5'],
  level: 'assumed',
  async run(ctx) {
    const w = ctx.wallet()
    await freshWindow(ctx)
    const limit = defaultTier(ctx).ordersPerMinute
    const batch = Math.max(1, Math.min(ctx.spec.rateLimits.maxBatch, limit - 3))
    const first = await call(
      ctx,
      'placeOrders',
      bulkBody('orders', await Promise.all(Array.from({ length: batch }, () => orderBody(ctx, { wallet: w })))),
    )
    if (!succeeded(first)) ctx.fail(`a batch of ${batch} orders was not accepted: ${brief(first)}`, { exchange: first })
    let remaining = rateHeaders(first).remaining ?? limit - batch
    while (remaining > 2) {
      const { e } = await placeOrder(ctx, { wallet: w })
      if (!succeeded(e)) ctx.fail(`order with ${remaining} left in the window was not accepted: ${brief(e)}`, { exchange: e })
      remaining = rateHeaders(e).remaining ?? remaining - 1
    }
    const over = await call(
      ctx,
      'placeOrders',
      bulkBody('orders', await Promise.all(Array.from({ length: remaining + 1 }, () => orderBody(ctx, { wallet: w })))),
    )
    if (statusOf(over) !== 429)
      ctx.fail(`a batch of ${remaining + 1} orders with ${remaining} left: expected HTTP 429 for the whole batch, got ${brief(over)}`, {
        exchange: over,
      })
    const { e: after } = await placeOrder(ctx, { wallet: w })
    if (!succeeded(after))
      ctx.fail(`after a refused batch, an order was not accepted (the batch consumed budget?): ${brief(after)}`, { exchange: after })
    const h = rateHeaders(after)
    if (h.remaining !== undefined && h.remaining !== remaining - 1)
      ctx.fail(`after the refused batch, Remaining is ${h.remaining}; expected ${remaining - 1} (the batch must consume nothing)`, {
        exchange: after,
      })
    // A replacement: one order unit, no cancel unit.
    const orderId = String(jsonOf(after)?.order_id ?? '')
    const probe = await call(ctx, 'cancelOrder', (await cancelBody(ctx, w, { orderId: 'oec-no-such-order' })).text)
    const before = rateHeaders(probe).remaining
    const repl = await call(
      ctx,
      'replaceOrders',
      `{"replacements":[{"cancel":${(await cancelBody(ctx, w, { orderId })).text},"order":${(await orderBody(ctx, { wallet: w })).text}}]}`,
    )
    if (!succeeded(repl)) ctx.fail(`replacement not accepted: ${brief(repl)}`, { exchange: repl })
    const probe2 = await call(ctx, 'cancelOrder', (await cancelBody(ctx, w, { orderId: 'oec-no-such-order' })).text)
    const after2 = rateHeaders(probe2).remaining
    if (before !== undefined && after2 !== undefined && after2 !== before - 1) {
      ctx.fail(
        `cancels Remaining went from ${before} to ${after2} across one replacement and one cancel; expected ${before - 1} (a replacement costs no cancel)`,
        { exchange: probe2 },
      )
    }
  },
}
