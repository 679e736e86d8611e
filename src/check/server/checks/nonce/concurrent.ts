/** `nonce.concurrent`: of 6 concurrent orders with one nonce, at most one is accepted. */
import { brief } from '../../context.ts'
import { orderBody } from '../../builders.ts'
import { statusOf, succeeded } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'

export const NONCE_CONCURRENT = 'nonce.concurrent'

export const nonceConcurrent: Check<typeof NONCE_CONCURRENT> = {
  id: NONCE_CONCURRENT,
  title: 'of 6 concurrent orders with one nonce, at most one is accepted',
  rules: ['NONCE-2', 'NONCE-8'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const n = ctx.nonce(w)
    const bodies = await Promise.all(Array.from({ length: 6 }, () => orderBody(ctx, { wallet: w, nonce: n })))
    const results = await Promise.all(bodies.map((b) => call(ctx, 'placeOrder', b.text)))
    const ok = results.filter(succeeded)
    if (ok.length > 1)
      ctx.fail(`${ok.length} of 6 concurrent orders with nonce ${n} were accepted`, { expected: 'at most one accepted', exchange: ok[1] })
    for (const e of results) if (statusOf(e) >= 500) ctx.fail(`a concurrent request got a server error ${brief(e)}`, { exchange: e })
  },
}
