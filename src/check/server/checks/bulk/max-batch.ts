/** `bulk.max-batch`: a batch one item over the maximum is refused with batch_too_large. */
import { brief } from '../../context.ts'
import { bulkBody, orderBody } from '../../builders.ts'
import { hasCode, statusOf, succeeded } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'

export const BULK_MAX_BATCH = 'bulk.max-batch'

export const bulkMaxBatch: Check<typeof BULK_MAX_BATCH> = {
  id: BULK_MAX_BATCH,
  title: 'a batch one item over the maximum is refused with batch_too_large',
  rules: ['EP-10'],
  level: 'assumed',
  async run(ctx) {
    const max = ctx.spec.rateLimits.maxBatch
    const w = ctx.wallet()
    const items = await Promise.all(Array.from({ length: max + 1 }, () => orderBody(ctx, { wallet: w })))
    const e = await call(ctx, 'placeOrders', bulkBody('orders', items))
    if (succeeded(e))
      ctx.fail(`a batch of ${max + 1} orders was accepted (the assumed maximum is ${max})`, {
        exchange: e,
        expected: 'HTTP 400 batch_too_large',
      })
    if (statusOf(e) !== 400 || !hasCode(e, 'batch_too_large'))
      ctx.fail(`a batch of ${max + 1} orders: expected HTTP 400 batch_too_large, got ${brief(e)}`, { exchange: e })
  },
}
