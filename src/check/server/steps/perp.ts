/**
 * Steps shared by the perp checks that look past the signature: the per-order statuses of the
 * venue's `ok` envelope, and the orders a wallet has on the options side (GET /orders), where a
 * perp order's account shows.
 */
import { call } from '../operations.ts'
import { jsonOf } from '../answers.ts'
import type { HttpExchange } from '../../target/http.ts'
import type { CheckContext } from '../types.ts'

/** The per-item statuses of an `ok` envelope (empty when there are none). */
export function statusesOf(e: HttpExchange): Record<string, unknown>[] {
  const s = (jsonOf(e)?.response as { data?: { statuses?: unknown } } | undefined)?.data?.statuses
  return Array.isArray(s) ? (s as Record<string, unknown>[]) : []
}

/** A wallet's orders as GET /orders lists them (empty when the answer has none). */
export async function ordersOf(ctx: CheckContext, wallet: string): Promise<Record<string, unknown>[]> {
  const e = await call(ctx, 'listOrders', undefined, { wallet })
  const orders = jsonOf(e)?.orders
  return Array.isArray(orders) ? (orders as Record<string, unknown>[]) : []
}

/** True when the envelope placed an order (a resting or filled status). */
export function placedAny(e: HttpExchange): boolean {
  return statusesOf(e).some((s) => s !== null && typeof s === 'object' && ('resting' in s || 'filled' in s))
}
