/** `auth.signature-encoding`: signature encodings: v 0/1 accepted, high-s refused, malformed signatures refused. */
import { brief } from '../../context.ts'
import { expectRefused, expectSuccess } from '../../expectations.ts'
import { placeOrder, withState } from '../../builders.ts'
import { succeeded } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { highSTwin, splitSignature, withVForm } from '../../../../signing/signature.ts'

/** r ‖ s without v: the 64-byte form a verifier that needs v must refuse. */
function rsOnly(sig: string): string {
  const { r, s } = splitSignature(sig)
  return `${r}${s.slice(2)}`
}

export const AUTH_SIGNATURE_ENCODING = 'auth.signature-encoding'

export const authSignatureEncoding: Check<typeof AUTH_SIGNATURE_ENCODING> = {
  id: AUTH_SIGNATURE_ENCODING,
  title: 'signature encodings: v 0/1 accepted, high-s refused, malformed signatures refused',
  rules: ['SIG-9', 'SIG-10', 'AUTH-7', 'AUTH-1'],
  level: 'assumed',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    await ctx.case(
      'v-0-1',
      'v written as 0/1 instead of 27/28 is accepted',
      async (c) => {
        const { e } = await placeOrder(c, { wallet: w }, { signature: (s) => withVForm(s, 'raw') })
        expectSuccess(c, e, 'v as 0/1')
      },
      { rules: ['SIG-9'] },
    )
    await ctx.case(
      'high-s',
      'the malleable twin (n - s, v flipped) is refused',
      async (c) => {
        const { e } = await placeOrder(c, { wallet: w }, { signature: highSTwin })
        expectRefused(c, e, 'high-s signature', { codes: ['signature_verification_failed'] })
      },
      { rules: ['SIG-10'] },
    )
    const malformed: [string, string, (s: string) => string][] = [
      ['compact-64', '64-byte compact signature (no v)', (sig) => rsOnly(sig)],
      ['truncated', 'truncated signature', (s) => s.slice(0, 100)],
      ['non-hex', 'non-hex characters', (s) => `0x${'zz'}${s.slice(4)}`],
      ['no-0x', 'missing 0x prefix', (s) => s.slice(2)],
    ]
    for (const [id, title, f] of malformed) {
      await ctx.case(
        id,
        title,
        async (c) => {
          const { e } = await placeOrder(c, { wallet: w }, { signature: f })
          if (succeeded(e)) c.fail(`${title} was accepted (${brief(e)})`, { level: 'stated', rules: ['AUTH-1'], exchange: e })
          expectRefused(c, e, title, { codes: ['invalid_field', 'signature_verification_failed'] })
        },
        { rules: ['AUTH-7', 'AUTH-1'] },
      )
    }
  },
}
