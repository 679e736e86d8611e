/** WebSocket /ws: subscribe to a wallet's orders, one push per order change. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { call, nonce, placeOrder, signed, start, wallet, type Started } from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start()
})
afterAll(() => s.close())

function open(): Promise<{ ws: WebSocket; messages: any[]; waitFor(n: number): Promise<any[]> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(s.url.replace('http', 'ws') + '/ws')
    const messages: any[] = []
    const waiters: (() => void)[] = []
    ws.on('message', (d) => {
      messages.push(JSON.parse(String(d)))
      for (const w of waiters.splice(0)) w()
    })
    ws.on('error', reject)
    ws.on('open', () =>
      resolve({
        ws,
        messages,
        waitFor: (n) =>
          new Promise((res) => {
            const check = () => (messages.length >= n ? res(messages) : waiters.push(check))
            check()
          }),
      }),
    )
  })
}

/** Sends a message and waits until the server has handled it (a ping sent after it is answered after it). */
function sendAndSettle(ws: WebSocket, msg: unknown): Promise<void> {
  return new Promise((resolve) => {
    ws.send(JSON.stringify(msg))
    ws.once('pong', () => resolve())
    ws.ping()
  })
}

describe('WebSocket order updates', () => {
  it('pushes placed, filled and canceled changes of the subscribed wallet only', async () => {
    const maker = wallet()
    const taker = wallet()
    const c = await open()
    try {
      await sendAndSettle(c.ws, { method: 'subscribe', params: { channel: 'orders', wallet: maker.address.toLowerCase() } })
      const id = (await placeOrder(s, maker, { symbol: 'SOL-20261225-200-C', side: 'Sell', price: '300', size: '2', clientId: 'ws1' })).json
        .order_id
      await placeOrder(s, taker, { symbol: 'SOL-20261225-200-C', side: 'Buy', price: '300', size: '1', tif: 'ioc' })
      await call(s, 'DELETE', '/order', await signed('CancelOrder', { wallet: maker.address, orderId: id, nonce: nonce() }, maker.key))
      const msgs = await c.waitFor(3)
      expect(msgs.map((m) => [m.channel, m.data.order_id, m.data.status, m.data.filled_size])).toEqual([
        ['orders', id, 'OPEN', '0'],
        ['orders', id, 'OPEN', '1'],
        ['orders', id, 'CANCELED', '1'],
      ])
      expect(msgs[0].data).toMatchObject({
        client_id: 'ws1',
        wallet: maker.address,
        symbol: 'SOL-20261225-200-C',
        side: 'Sell',
        size: '2',
        price: '300',
      })
    } finally {
      c.ws.close()
    }
  })

  it('a bad subscribe message gets an error message naming the field', async () => {
    const c = await open()
    try {
      c.ws.send(JSON.stringify({ method: 'subscribe', params: { channel: 'orders', wallet: 'nope' } }))
      c.ws.send('not json')
      const [a, b] = await c.waitFor(2)
      expect(a.code).toBe('invalid_field')
      expect(a.message).toContain('wallet')
      expect(b.code).toBe('invalid_json')
    } finally {
      c.ws.close()
    }
  })
})
