/** `rl.remaining`: X-RateLimit-Remaining falls by 1 per request and by k per k-item batch, in each category. */
import { bulkBody, cancelBody, orderBody, orderField, placeOrder } from '../../builders.ts'
import { jsonOf, type RateHeaders } from '../../answers.ts'
import { expectAuthenticated } from '../../expectations.ts'
import type { HttpExchange } from '../../../target/http.ts'
import { checkHeaders, freshWindow } from '../../steps/rate-limits.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'
import { label } from '../../../target/routes.ts'

export const RL_REMAINING = 'rl.remaining'

export const rlRemaining: Check<typeof RL_REMAINING> = {
  id: RL_REMAINING,
  title: 'X-RateLimit-Remaining falls by 1 per request and by k per k-item batch, in each category',
  rules: ['RL-7', 'EP-3', 'EP-4', 'EP-5', 'EP-6'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    await freshWindow(ctx)
    let last: RateHeaders | undefined
    const step = (e: HttpExchange, what: string, k: number, category: string) => {
      // Charged means authenticated: a batch slot REJECTED on business grounds (no such client id) still counts.
      expectAuthenticated(ctx, e, what)
      const h = checkHeaders(ctx, e, what, category)
      if (last && last.reset === h.reset && h.remaining !== last.remaining! - k) {
        ctx.fail(`${what}: X-RateLimit-Remaining went from ${last.remaining} to ${h.remaining}, expected ${last.remaining! - k} (−${k})`, {
          exchange: e,
          expected: `X-RateLimit-Remaining: ${last.remaining! - k}`,
        })
      }
      last = h
    }
    // orders
    const ids: { orderId: string; clientId: string }[] = []
    for (let i = 0; i < 2; i++) {
      const { e, body } = await placeOrder(ctx, { wallet: w })
      step(e, `${label(ctx, 'placeOrder')} #${i + 1}`, 1, 'orders')
      ids.push({ orderId: String(jsonOf(e)?.order_id ?? ''), clientId: String(orderField(body, 'client_id')) })
    }
    const k = 3
    const bulk = await call(
      ctx,
      'placeOrders',
      bulkBody('orders', await Promise.all(Array.from({ length: k }, () => orderBody(ctx, { wallet: w })))),
    )
    step(bulk, `${label(ctx, 'placeOrders')} with ${k} orders`, k, 'orders')
    const results = jsonOf(bulk)?.results
    if (Array.isArray(results))
      for (const r of results)
        if (typeof (r as Record<string, unknown>).order_id === 'string')
          ids.push({ orderId: (r as { order_id: string }).order_id, clientId: '' })
    // replacements count one order each (EP-4)
    const victims = ids.splice(0, 2)
    const repl = await call(
      ctx,
      'replaceOrders',
      `{"replacements":[${(
        await Promise.all(
          victims.map(
            async (v) =>
              `{"cancel":${(await cancelBody(ctx, w, { orderId: v.orderId })).text},"order":${(await orderBody(ctx, { wallet: w })).text}}`,
          ),
        )
      ).join(',')}]}`,
    )
    step(repl, `${label(ctx, 'replaceOrders')} with 2 replacements`, 2, 'orders')
    // cancels
    last = undefined
    const more = [] as { orderId: string; clientId: string }[]
    for (let i = 0; i < 4; i++) {
      const { e, body } = await placeOrder(ctx, { wallet: w })
      more.push({ orderId: String(jsonOf(e)?.order_id ?? ''), clientId: String(orderField(body, 'client_id')) })
    }
    const ce1 = await call(ctx, 'cancelOrder', (await cancelBody(ctx, w, { orderId: more[0]!.orderId })).text)
    step(ce1, `${label(ctx, 'cancelOrder')} #1`, 1, 'cancels')
    const ce2 = await call(ctx, 'cancelOrder', (await cancelBody(ctx, w, { clientId: more[1]!.clientId })).text)
    step(ce2, `${label(ctx, 'cancelOrder')} #2 (by client_id)`, 1, 'cancels')
    const bc = await call(
      ctx,
      'cancelOrders',
      bulkBody('cancels', [
        await cancelBody(ctx, w, { orderId: more[2]!.orderId }),
        await cancelBody(ctx, w, { orderId: ids[0]?.orderId ?? 'none' }),
      ]),
    )
    step(bc, `${label(ctx, 'cancelOrders')} with 2 cancels`, 2, 'cancels')
    const bcc = await call(
      ctx,
      'cancelOrdersByClientId',
      bulkBody('cancels', [
        await cancelBody(ctx, w, { clientId: more[3]!.clientId }),
        await cancelBody(ctx, w, { clientId: 'no-such-client-id' }),
      ]),
    )
    step(bcc, `${label(ctx, 'cancelOrdersByClientId')} with 2 cancels`, 2, 'cancels')
  },
}
