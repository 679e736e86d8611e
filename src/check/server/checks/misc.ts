/** Assumed operational rules: batch size limit, health endpoint, who pays for a refused request. */
import { brief } from '../context.ts'
import { bulkBody, codeOf, expectSuccess, jsonOf, orderBody, placeOrder, rateHeaders, statusOf, succeeded } from '../helpers.ts'
import type { Check } from '../types.ts'

export const miscChecks: Check[] = [
  {
    id: 'bulk.max-batch',
    title: 'a batch one item over the maximum is refused with batch_too_large',
    rules: ['EP-10'],
    level: 'assumed',
    async run(ctx) {
      const max = ctx.spec.rateLimits.maxBatch
      const w = ctx.wallet()
      const items = await Promise.all(Array.from({ length: max + 1 }, () => orderBody(ctx, { wallet: w })))
      const e = await ctx.send('POST', '/bulk_order', bulkBody('orders', items))
      if (succeeded(e)) ctx.fail(`a batch of ${max + 1} orders was accepted (the assumed maximum is ${max})`, { exchange: e, expected: 'HTTP 400 batch_too_large' })
      if (statusOf(e) !== 400 || codeOf(e) !== 'batch_too_large') ctx.fail(`a batch of ${max + 1} orders: expected HTTP 400 batch_too_large, got ${brief(e)}`, { exchange: e })
    },
  },
  {
    id: 'ops.health',
    title: 'GET /health answers 200 {"status":"ok"}',
    rules: ['EP-11'],
    level: 'assumed',
    async run(ctx) {
      const e = await ctx.send('GET', '/health')
      if (statusOf(e) !== 200 || jsonOf(e)?.status !== 'ok') ctx.fail(`expected HTTP 200 {"status":"ok"}, got ${brief(e)}`, { exchange: e })
    },
  },
  {
    id: 'rl.unauthenticated-free',
    title: "a request refused by authentication does not spend the named wallet's budget",
    rules: ['RL-12'],
    level: 'assumed',
    async run(ctx) {
      const w = ctx.wallet()
      const first = (await placeOrder(ctx, { wallet: w })).e
      expectSuccess(ctx, first, 'first order')
      const stranger = (await placeOrder(ctx, { wallet: w, signer: ctx.wallet() })).e
      if (succeeded(stranger)) ctx.fail(`an order signed by a stranger was accepted (${brief(stranger)})`, { exchange: stranger, level: 'stated', rules: ['AUTH-2'] })
      const second = (await placeOrder(ctx, { wallet: w })).e
      expectSuccess(ctx, second, 'second order')
      const a = rateHeaders(first).remaining
      const b = rateHeaders(second).remaining
      if (a !== undefined && b !== undefined && b !== a - 1) {
        ctx.fail(`X-RateLimit-Remaining went from ${a} to ${b} across one accepted order and one refused stranger's order; expected ${a - 1}`, { exchange: second })
      }
    },
  },
]
