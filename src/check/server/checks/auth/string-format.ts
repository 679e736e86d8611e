/** `auth.string-format`: size/price strings must be sent exactly as signed (100.0 signed, 100 sent is a mismatch). */
import { expectAuthenticated, expectAuthRefused } from '../../expectations.ts'
import { placeOrder, withState } from '../../builders.ts'
import type { Check } from '../../types.ts'

export const AUTH_STRING_FORMAT = 'auth.string-format'

export const authStringFormat: Check<typeof AUTH_STRING_FORMAT> = {
  id: AUTH_STRING_FORMAT,
  title: 'size/price strings must be sent exactly as signed (100.0 signed, 100 sent is a mismatch)',
  rules: ['PO-4', 'SIGFAIL-2'],
  level: 'stated',
  // Rests a buy at 100 in the first instrument: it would fill an ask another check rests below it.
  shares: ['book'],
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    const cases: [string, 'price' | 'size', string, string][] = [
      ['price-100.0-sent-100', 'price', '100.0', '100'],
      ['price-100-sent-100.0', 'price', '100', '100.0'],
      ['price-trailing-zero', 'price', '1.5', '1.50'],
      ['size-1.0-sent-1', 'size', '1.0', '1'],
      ['size-2-sent-2.00', 'size', '2', '2.00'],
    ]
    for (const [id, field, signedAs, sent] of cases) {
      await ctx.case(id, `${field} signed "${signedAs}", sent "${sent}"`, async (c) => {
        const base = field === 'price' ? { price: signedAs } : { size: signedAs }
        const { e } = await placeOrder(c, { wallet: w, ...base }, { after: { [field]: sent } })
        expectAuthRefused(c, e, `${field} signed "${signedAs}" sent "${sent}"`)
      })
    }
    await ctx.case('exact-100.0', 'price "100.0" signed and sent exactly is accepted', async (c) => {
      const { e } = await placeOrder(c, { wallet: w, price: '100.0', side: 'Buy', tif: 'gtc' })
      expectAuthenticated(c, e, 'price "100.0" signed and sent')
    })
  },
}
