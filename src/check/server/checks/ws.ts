/**
 * WebSocket order updates: subscribe to a wallet's `orders` channel (the path and message
 * shapes come from the spec's `x-websocket`), place an order, and expect an update for it.
 * The seed states the capability; the channel and payloads are assumed, so this warns.
 */
import WebSocket from 'ws'
import { isObject } from '../../../spec/index.ts'
import { expectSuccess, jsonOf, placeOrder } from '../helpers.ts'
import type { Check } from '../types.ts'

export const wsChecks: Check[] = [
  {
    id: 'ws.order-updates',
    title: 'a WebSocket subscriber to a wallet gets an update for its new order',
    rules: ['WS-1', 'WS-2'],
    level: 'assumed',
    async run(ctx) {
      const ext = ctx.spec.doc['x-websocket']
      const path = isObject(ext) && typeof ext.path === 'string' ? ext.path : '/ws'
      const w = ctx.wallet()
      const url = `${ctx.target.url.replace(/^http/, 'ws')}${path}`
      const socket = new WebSocket(url)
      const messages: unknown[] = []
      let waiter: (() => void) | undefined
      socket.on('message', (d) => {
        try {
          messages.push(JSON.parse(d.toString()))
        } catch {
          messages.push(d.toString())
        }
        waiter?.()
      })
      try {
        const opened = await new Promise<string | undefined>((resolve) => {
          socket.once('open', () => resolve(undefined))
          socket.once('error', (err) => resolve(err.message))
          setTimeout(() => resolve('no connection within 5 s'), 5000).unref()
        })
        if (opened) ctx.fail(`cannot open ${url}: ${opened}`)
        socket.send(JSON.stringify({ method: 'subscribe', params: { channel: 'orders', wallet: w.address } }))
        // Give the subscription a moment to register before the order is placed.
        await new Promise((r) => setTimeout(r, 50))
        const { e } = await placeOrder(ctx, { wallet: w })
        expectSuccess(ctx, e, 'order placed after subscribing')
        const orderId = jsonOf(e)?.order_id
        const found = () =>
          messages.find((m) => isObject(m) && m.channel === 'orders' && isObject(m.data) && (m.data.order_id === orderId || orderId === undefined))
        const deadline = Date.now() + 5000
        while (!found() && Date.now() < deadline) {
          await new Promise<void>((r) => {
            waiter = r
            setTimeout(r, 200).unref()
          })
        }
        if (!found()) ctx.fail(`no {"channel":"orders","data":{"order_id":${JSON.stringify(orderId)}}} message within 5 s (got ${messages.length} message(s): ${JSON.stringify(messages[0] ?? null).slice(0, 200)})`, { exchange: e })
      } finally {
        socket.terminate()
      }
    },
  },
]
