/** `nonce.retry-after-failure`: a request that failed may be retried with the same nonce. */
import { brief } from '../../context.ts'
import { placeOrder } from '../../builders.ts'
import { succeeded } from '../../answers.ts'
import { acked } from '../../steps/nonce.ts'
import type { Check } from '../../types.ts'
import { wrongChainId } from '../../../target/probes.ts'

export const NONCE_RETRY_AFTER_FAILURE = 'nonce.retry-after-failure'

export const nonceRetryAfterFailure: Check<typeof NONCE_RETRY_AFTER_FAILURE> = {
  id: NONCE_RETRY_AFTER_FAILURE,
  title: 'a request that failed may be retried with the same nonce',
  rules: ['NONCE-5', 'NONCE-7', 'SIGFAIL-4'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    await ctx.case('after-bad-signature', 'retry after a refused signature (wrong chain ID)', async (c) => {
      const n = c.nonce(w)
      const wrong = wrongChainId(c.target)
      const { e } = await placeOrder(c, { wallet: w, nonce: n }, { domain: { chainId: wrong } })
      if (succeeded(e)) c.fail(`an order signed under chainId ${wrong} was accepted (${brief(e)})`, { exchange: e, rules: ['SIGFAIL-4'] })
      await acked(c, w, n, 'retry with the same nonce after a refused signature')
    })
    await ctx.case('after-invalid-field', 'retry after a 400 invalid_field (side "buy")', async (c) => {
      const n = c.nonce(w)
      const { e } = await placeOrder(c, { wallet: w, nonce: n, side: 'buy' })
      if (succeeded(e)) c.fail(`side "buy" was accepted (${brief(e)})`, { exchange: e, rules: ['PO-1'] })
      await acked(c, w, n, 'retry with the same nonce after an invalid field')
    })
    await ctx.case(
      'after-rejected',
      'retry after a 200 REJECTED order (unknown instrument)',
      async (c) => {
        const n = c.nonce(w)
        const { e } = await placeOrder(c, { wallet: w, nonce: n, symbol: c.target.missingSymbol })
        if (succeeded(e)) c.skip(`the target accepted an order for ${c.target.missingSymbol}; pass --missing-symbol`)
        await acked(c, w, n, 'retry with the same nonce after a REJECTED order')
      },
      { level: 'assumed', rules: ['NONCE-7', 'NONCE-5'] },
    )
  },
}
