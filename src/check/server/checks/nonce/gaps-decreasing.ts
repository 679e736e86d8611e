/** `nonce.gaps-decreasing`: gaps and decreasing nonces are allowed. */
import { acked } from '../../steps/nonce.ts'
import type { Check } from '../../types.ts'

export const NONCE_GAPS_DECREASING = 'nonce.gaps-decreasing'

export const nonceGapsDecreasing: Check<typeof NONCE_GAPS_DECREASING> = {
  id: NONCE_GAPS_DECREASING,
  title: 'gaps and decreasing nonces are allowed',
  // NONCE-3 (nonces should increase) is about clients: `oec check client --http` checks it.
  rules: ['NONCE-4', 'NONCE-8'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const base = ctx.nonce(w)
    await acked(ctx, w, base + 1_000_000n, 'nonce N+1000000 (a gap)')
    await ctx.case(
      'decreasing',
      'a lower, unused nonce after a higher one',
      async (c) => {
        await acked(c, w, base + 5n, 'nonce N+5 after N+1000000')
        await acked(c, w, base, 'nonce N after N+5')
      },
      { level: 'assumed', rules: ['NONCE-8'] },
    )
  },
}
