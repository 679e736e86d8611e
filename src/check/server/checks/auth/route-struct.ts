/** `auth.route-struct`: route is signed exactly when it is in the body (PlaceOrder vs the 8-field struct). */
import { expectAuthRefused } from '../../expectations.ts'
import { placeOrder, withState } from '../../builders.ts'
import type { Check } from '../../types.ts'

export const AUTH_ROUTE_STRUCT = 'auth.route-struct'

export const authRouteStruct: Check<typeof AUTH_ROUTE_STRUCT> = {
  id: AUTH_ROUTE_STRUCT,
  title: 'route is signed exactly when it is in the body (PlaceOrder vs the 8-field struct)',
  rules: ['PO-6', 'SIG-2', 'SIG-1'],
  level: 'stated',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    await ctx.case('signed-with-route-sent-without', 'route signed, then omitted from the body', async (c) => {
      const { e } = await placeOrder(c, { wallet: w, route: 'best_execution' }, { after: { route: undefined } })
      expectAuthRefused(c, e, 'route signed but omitted from the body')
    })
    await ctx.case('signed-without-route-sent-with', 'route not signed (8-field struct), then added to the body', async (c) => {
      const { e } = await placeOrder(c, { wallet: w, route: null }, { after: { route: 'best_execution' } })
      expectAuthRefused(c, e, 'route added to the body after signing the 8-field struct')
    })
  },
}
