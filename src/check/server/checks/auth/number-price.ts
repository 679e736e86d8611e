/**
 * `auth.number-price`: size or price sent as a JSON number is refused. The seed lists it as a cause
 * of `Signature verification failed`: accepting it fails, another refusal code warns.
 */
import { expectAuthRefused, expectRefused } from '../../expectations.ts'
import { hasCode } from '../../answers.ts'
import { placeOrder, withState } from '../../builders.ts'
import { RawJson } from '../../../target/requests.ts'
import type { Check } from '../../types.ts'

export const AUTH_NUMBER_PRICE = 'auth.number-price'

export const authNumberPrice: Check<typeof AUTH_NUMBER_PRICE> = {
  id: AUTH_NUMBER_PRICE,
  title: 'size or price sent as a JSON number is refused (signature_verification_failed, "Signature verification failed")',
  rules: ['PO-5', 'SIGFAIL-1', 'PO-10'],
  level: 'stated',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    for (const [id, field, value] of [
      ['price-number', 'price', '100'],
      ['size-number', 'size', '2'],
      ['price-number-fraction', 'price', '1.5'],
    ] as const) {
      await ctx.case(id, `${field} sent as the JSON number ${value} (signed as the string "${value}")`, async (c) => {
        const { e } = await placeOrder(c, { wallet: w, [field]: value }, { after: { [field]: new RawJson(value) } })
        expectRefused(c, e, `${field} as a JSON number`, { codes: ['signature_verification_failed'] })
        if (hasCode(e, 'signature_verification_failed')) expectAuthRefused(c, e, `${field} as a JSON number`)
      })
    }
  },
}
