/**
 * `nonce.precision-2p53`: nonce 2^53+1 round-trips exactly (2^53 and 2^53+1 are different nonces).
 * Where servers that parse JSON numbers as doubles break: a nonce must keep every digit.
 */
import { statusOf } from '../../answers.ts'
import { acked, reused } from '../../steps/nonce.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'
import { label } from '../../../target/routes.ts'

export const NONCE_PRECISION_2P53 = 'nonce.precision-2p53'

export const noncePrecision2p53: Check<typeof NONCE_PRECISION_2P53> = {
  id: NONCE_PRECISION_2P53,
  title: 'nonce 2^53+1 round-trips exactly (2^53 and 2^53+1 are different nonces)',
  rules: ['NONCE-1', 'NONCE-2', 'WIRE-2'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const n = (1n << 53n) + 1n
    await acked(ctx, w, n, 'nonce 2^53+1')
    await acked(ctx, w, n - 1n, 'nonce 2^53 after 2^53+1 (a double would make them equal)')
    await acked(ctx, w, n + 2n, 'nonce 2^53+3')
    await reused(ctx, w, n, 'nonce 2^53+1 again')
    // The order record, when listed, must not show a rounded nonce either (not all servers list it).
    const list = await call(ctx, 'listOrders', undefined, { wallet: w.address })
    if (statusOf(list) === 200 && list.response?.body.includes('9007199254740992') && !list.response.body.includes('9007199254740993')) {
      ctx.fail(`${label(ctx, 'listOrders')} shows the nonce rounded to 9007199254740992`, { exchange: list })
    }
  },
}
