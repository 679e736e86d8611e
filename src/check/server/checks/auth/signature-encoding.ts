/** `auth.signature-encoding`: signature encodings: v 0/1 accepted, high-s refused, malformed signatures refused. */
import { brief } from '../../context.ts'
import { expectRefused, expectSuccess, placeOrder, succeeded, withState } from '../../helpers.ts'
import type { Check } from '../../types.ts'

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

export const AUTH_SIGNATURE_ENCODING = 'auth.signature-encoding'

export const authSignatureEncoding: Check<typeof AUTH_SIGNATURE_ENCODING> = {
  id: AUTH_SIGNATURE_ENCODING,
  title: 'signature encodings: v 0/1 accepted, high-s refused, malformed signatures refused',
  rules: ['SIG-9', 'SIG-10', 'AUTH-7', 'AUTH-1'],
  level: 'assumed',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    const vFlip = (sig: string, f: (v: number) => number) => `${sig.slice(0, 130)}${f(parseInt(sig.slice(130), 16)).toString(16).padStart(2, '0')}`
    await ctx.case('v-0-1', 'v written as 0/1 instead of 27/28 is accepted', async (c) => {
      const { e } = await placeOrder(c, { wallet: w }, { signature: (s) => vFlip(s, (v) => v - 27) })
      expectSuccess(c, e, 'v as 0/1')
    }, { rules: ['SIG-9'] })
    await ctx.case('high-s', 'the malleable twin (n - s, v flipped) is refused', async (c) => {
      const { e } = await placeOrder(c, { wallet: w }, {
        signature: (sig) => {
          const s = BigInt(`0x${sig.slice(66, 130)}`)
          const v = parseInt(sig.slice(130), 16)
          return `${sig.slice(0, 66)}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`
        },
      })
      expectRefused(c, e, 'high-s signature', { codes: ['signature_verification_failed'] })
    }, { rules: ['SIG-10'] })
    const malformed: [string, string, (s: string) => string][] = [
      ['compact-64', '64-byte compact signature (no v)', (s) => s.slice(0, 130)],
      ['truncated', 'truncated signature', (s) => s.slice(0, 100)],
      ['non-hex', 'non-hex characters', (s) => `0x${'zz'}${s.slice(4)}`],
      ['no-0x', 'missing 0x prefix', (s) => s.slice(2)],
    ]
    for (const [id, title, f] of malformed) {
      await ctx.case(id, title, async (c) => {
        const { e } = await placeOrder(c, { wallet: w }, { signature: f })
        if (succeeded(e)) c.fail(`${title} was accepted (${brief(e)})`, { level: 'stated', rules: ['AUTH-1'], exchange: e })
        expectRefused(c, e, title, { codes: ['invalid_field', 'signature_verification_failed'] })
      }, { rules: ['AUTH-7', 'AUTH-1'] })
    }
  },
}
