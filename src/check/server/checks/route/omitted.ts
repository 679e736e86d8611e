/**
 * `route.omitted`: route omitted: the 8-field struct verifies, the order is best_execution with a
 * deprecation notice (or 400 invalid_field if route is enforced). The notice is found by
 * difference: a header the same order with route does not carry (stated); its name is assumed.
 */
import { brief } from '../../context.ts'
import { hasCode, jsonOf, statusOf, succeeded } from '../../answers.ts'
import { orderField, placeOrder } from '../../builders.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'
import type { HeaderName } from '../../../../contract/generated/contract.ts'
import type { Route } from '../../../../contract/generated/types.ts'

/** Header names that can carry the deprecation notice (the seed does not name it): the spec's two, and Warning. */
const NOTICE_HEADERS = [...(['Deprecation', 'Sunset'] satisfies HeaderName[]), 'Warning'].map((h) => h.toLowerCase())

export const ROUTE_OMITTED = 'route.omitted'

export const routeOmitted: Check<typeof ROUTE_OMITTED> = {
  id: ROUTE_OMITTED,
  title:
    'route omitted: the 8-field struct verifies, the order is best_execution with a deprecation notice (or 400 invalid_field if route is enforced)',
  rules: ['ROUTE-1', 'ROUTE-2', 'PO-6', 'SIG-2', 'ROUTE-4'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const { e, body } = await placeOrder(ctx, { wallet: w, route: null })
    const s = statusOf(e)
    if (s === 400 && hasCode(e, 'invalid_field')) return // the server enforces route after the sunset: acceptable
    if (!succeeded(e)) {
      ctx.fail(`an order without route, signed with the 8-field PlaceOrder struct, was not accepted: ${brief(e)}`, {
        expected: 'HTTP 200 ACKED with a deprecation header, or HTTP 400 invalid_field (route enforced)',
        exchange: e,
      })
    }
    // The seed states that a header appears, not its name: whatever the same order with route lacks.
    const withRoute = (await placeOrder(ctx, { wallet: w, route: 'best_execution' satisfies Route })).e
    const present = new Set(Object.keys(withRoute.response?.headers ?? {}))
    const added = Object.keys(e.response?.headers ?? {}).filter((h) => !present.has(h))
    if (added.length === 0) {
      ctx.fail('no header of the response to an order without route is missing from the same order with route: no deprecation notice', {
        rules: ['ROUTE-2'],
        exchange: e,
        expected: `a header present only when route is omitted, e.g. Deprecation: true and Sunset (headers with route: ${[...present].join(', ')})`,
      })
    }
    if (!added.some((h) => NOTICE_HEADERS.includes(h))) {
      ctx.warn(`the deprecation notice is in ${added.join(', ')}, not Deprecation, Sunset or Warning`, {
        level: 'assumed',
        rules: ['ROUTE-4'],
        exchange: e,
        expected: 'Deprecation: true and Sunset: Sat, 04 Jul 2026 00:00:00 GMT',
      })
    }
    const orderId = jsonOf(e)?.order_id
    const list = await call(ctx, 'listOrders', undefined, { wallet: w.address })
    const orders = jsonOf(list)?.orders
    if (Array.isArray(orders)) {
      const clientId = orderField(body, 'client_id')
      const rec = orders.find(
        (o) => (o as Record<string, unknown>).order_id === orderId || (o as Record<string, unknown>).client_id === clientId,
      ) as Record<string, unknown> | undefined
      if (rec && rec.route !== undefined && rec.route !== 'best_execution') {
        ctx.fail(`the order placed without route is recorded with route ${JSON.stringify(rec.route)}`, {
          expected: 'route best_execution',
          exchange: list,
          rules: ['ROUTE-1'],
        })
      }
    }
  },
}
