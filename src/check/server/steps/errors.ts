/**
 * The error responses the `err.*` body checks read: every 4xx/5xx of the run, plus a few
 * provoked here so that a check run alone (`--only err.body-shape`) still has material.
 */
import type { HttpExchange } from '../../target/http.ts'
import type { CheckContext } from '../types.ts'
import { call } from '../operations.ts'
import { route } from '../../target/routes.ts'

/** A few error responses of its own, so the body checks have material even when run alone. */
export async function provokeErrors(ctx: CheckContext): Promise<void> {
  await call(ctx, 'placeOrder', '{"wallet":')
  await ctx.send('GET', '/no-such-path')
  await ctx.send('PATCH', route(ctx, 'placeOrder').path, '{}')
  await call(ctx, 'listOrders', undefined, { wallet: 'not-an-address' })
}

export function errorResponses(ctx: CheckContext): HttpExchange[] {
  return ctx.history().filter((e) => e.request.method !== 'HEAD' && e.response && e.response.status >= 400)
}
