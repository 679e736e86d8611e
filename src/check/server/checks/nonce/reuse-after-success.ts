/** `nonce.reuse-after-success`: a nonce consumed by an accepted order cannot be used again by the same wallet. */
import { acked, reused } from '../../steps/nonce.ts'
import type { Check } from '../../types.ts'

export const NONCE_REUSE_AFTER_SUCCESS = 'nonce.reuse-after-success'

export const nonceReuseAfterSuccess: Check<typeof NONCE_REUSE_AFTER_SUCCESS> = {
  id: NONCE_REUSE_AFTER_SUCCESS,
  title: 'a nonce consumed by an accepted order cannot be used again by the same wallet',
  rules: ['NONCE-2', 'NONCE-7'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const n = ctx.nonce(w)
    await acked(ctx, w, n, 'first order with nonce N')
    await reused(ctx, w, n, 'second order (another client_id) with the same nonce N')
  },
}
