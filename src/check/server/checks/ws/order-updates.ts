/**
 * `ws.order-updates`: a WebSocket subscriber to a wallet gets an update for its new order. The
 * path comes from the spec's `x-websocket`; the seed states the capability but not the channel
 * or payloads, so those are assumed and a departure warns.
 */
import type { HttpExchange } from '../../../target/http.ts'
import { OrderFeedClient } from '../../../target/ws.ts'
import { isObject } from '../../../../contract/index.ts'
import { expectSuccess } from '../../expectations.ts'
import { jsonOf } from '../../answers.ts'
import { placeOrder } from '../../builders.ts'
import type { Check } from '../../types.ts'

export const WS_ORDER_UPDATES = 'ws.order-updates'

export const wsOrderUpdates: Check<typeof WS_ORDER_UPDATES> = {
  id: WS_ORDER_UPDATES,
  title: 'a WebSocket subscriber to a wallet gets an update for its new order',
  rules: ['WS-1', 'WS-2'],
  level: 'assumed',
  async run(ctx) {
    const w = ctx.wallet()
    const feed = new OrderFeedClient(ctx.target.url, ctx.spec.websocket.path, ctx.http.headers)
    const messages = feed.messages
    try {
      const opened = await feed.opened()
      if (opened) ctx.fail(`cannot open ${feed.url}: ${opened}`)
      feed.subscribe('orders', w.address)
      // The subscription has no acknowledgement: if the first order raced it, place another
      // one after a longer pause before concluding that no update comes.
      let orderId: unknown
      let last: HttpExchange | undefined
      for (const pause of [50, 300, 1000]) {
        await new Promise((r) => setTimeout(r, pause))
        const { e } = await placeOrder(ctx, { wallet: w })
        expectSuccess(ctx, e, 'order placed after subscribing')
        last = e
        orderId = jsonOf(e)?.order_id
        const found = () =>
          messages.some(
            (m) => isObject(m) && m.channel === 'orders' && isObject(m.data) && (orderId === undefined || m.data.order_id === orderId),
          )
        const deadline = Date.now() + 2000
        while (!found() && Date.now() < deadline) {
          await feed.next(100)
        }
        if (found()) return
      }
      ctx.fail(
        `no {"channel":"orders","data":{"order_id":${JSON.stringify(orderId)}}} message within 2 s of each of 3 orders (got ${messages.length} message(s): ${JSON.stringify(messages[0] ?? null).slice(0, 200)})`,
        { exchange: last },
      )
    } finally {
      feed.close()
    }
  },
}
