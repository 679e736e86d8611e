/**
 * `nonce.uint64-max`: nonce 2^64-1 round-trips exactly (accepted, then detected as reused, 2^64-2 still free).
 * Where servers that parse JSON numbers as doubles break: a nonce must keep every digit.
 */
import { acked, reused } from '../../steps/nonce.ts'
import type { Check } from '../../types.ts'

export const NONCE_UINT64_MAX = 'nonce.uint64-max'

export const nonceUint64Max: Check<typeof NONCE_UINT64_MAX> = {
  id: NONCE_UINT64_MAX,
  title: 'nonce 2^64-1 round-trips exactly (accepted, then detected as reused, 2^64-2 still free)',
  rules: ['NONCE-1', 'NONCE-2', 'WIRE-2'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const max = (1n << 64n) - 1n
    await acked(ctx, w, max, 'nonce 2^64-1')
    await reused(ctx, w, max, 'nonce 2^64-1 again')
    await acked(ctx, w, max - 1n, 'nonce 2^64-2 (distinct from 2^64-1)')
  },
}
