/** `auth.number-price`: size or price sent as a JSON number is refused (invalid_field or signature_verification_failed). */
import { expectRefused, placeOrder, withState } from '../../helpers.ts'
import { RawJson } from '../../requests.ts'
import type { Check } from '../../types.ts'

export const AUTH_NUMBER_PRICE = 'auth.number-price'

export const authNumberPrice: Check<typeof AUTH_NUMBER_PRICE> = {
  id: AUTH_NUMBER_PRICE,
  title: 'size or price sent as a JSON number is refused (invalid_field or signature_verification_failed)',
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
        expectRefused(c, e, `${field} as a JSON number`, { codes: ['invalid_field', 'signature_verification_failed'] })
      })
    }
  },
}
