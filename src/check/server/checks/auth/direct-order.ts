/** `auth.direct-order`: orders signed by the wallet itself are accepted (every side, tif, route; empty and unicode client_id). */
import { expectAuthenticated, expectSuccess } from '../../expectations.ts'
import { placeOrder } from '../../builders.ts'
import type { Check } from '../../types.ts'

export const AUTH_DIRECT_ORDER = 'auth.direct-order'

export const authDirectOrder: Check<typeof AUTH_DIRECT_ORDER> = {
  id: AUTH_DIRECT_ORDER,
  title: 'orders signed by the wallet itself are accepted (every side, tif, route; empty and unicode client_id)',
  rules: ['AUTH-2', 'EP-1', 'PO-9', 'SIG-1', 'PO-7', 'RL-2', 'AGENT-9'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const acked = async (id: string, title: string, p: Parameters<typeof placeOrder>[1]) =>
      ctx.case(id, title, async (c) => {
        const { e } = await placeOrder(c, p)
        expectSuccess(c, e, title)
      })
    await acked('gtc-buy', 'gtc Buy, book_only, resting', { wallet: w })
    await acked('gtc-sell', 'gtc Sell, best_execution, resting', { wallet: w, side: 'Sell', route: 'best_execution' })
    await acked('empty-client-id', 'client_id is the empty string', { wallet: w, clientId: '' })
    await acked('unicode-client-id', 'client_id with non-ASCII characters', { wallet: w, clientId: 'ordre-é-注文-✓' })
    await acked('decimal-100.0', 'price "100.0" signed and sent', { wallet: w, price: '1.0', size: '1.50' })
    for (const tif of ['ioc', 'fok']) {
      await ctx.case(`tif-${tif}`, `tif ${tif} passes authentication (ACKED or a business REJECTED)`, async (c) => {
        const { e } = await placeOrder(c, { wallet: w, tif })
        expectAuthenticated(c, e, `tif ${tif}`)
      })
    }
    await ctx.case('rfq-only', 'route rfq_only passes authentication (ACKED or REJECTED)', async (c) => {
      const { e } = await placeOrder(c, { wallet: w, route: 'rfq_only' })
      expectAuthenticated(c, e, 'rfq_only')
    })
    await ctx.case(
      'lowercase-wallet',
      'the wallet sent in lowercase hex is the same wallet',
      async (c) => {
        const { e } = await placeOrder(c, { wallet: { ...w, address: w.address.toLowerCase() as `0x${string}` } })
        expectSuccess(c, e, 'lowercase wallet')
      },
      { rules: ['AGENT-9'], level: 'assumed' },
    )
  },
}
