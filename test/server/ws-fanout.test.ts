/**
 * WebSocket fan-out bounds: a subscriber that stops reading is closed instead of buffered without
 * bound (while a reading one on the same wallet gets everything), and an update is serialised once
 * however many subscribers read it. The orders/s ratio with 200 subscribers vs 1 is measured by
 * `npm run bench -- fanout`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { SLOW_CONSUMER_CLOSE } from '../../src/server/ws.ts'
import { placeOrder, post, signedOrder, start, wallet, type Started } from './helpers.ts'

let s: Started | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  await s?.close()
  s = undefined
})

interface Subscriber {
  ws: WebSocket
  count(): number
  closed: Promise<number>
}

async function subscribe(url: string, address: string): Promise<Subscriber> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`)
  let n = 0
  ws.on('message', () => n++)
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  ws.send(JSON.stringify({ method: 'subscribe', params: { channel: 'orders', wallet: address } }))
  // The server handled the subscribe once a ping sent after it is answered.
  await new Promise((resolve) => {
    ws.once('pong', resolve)
    ws.ping()
  })
  return { ws, count: () => n, closed }
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 10))
}

describe('slow WebSocket consumer', () => {
  it('is closed once its unsent data passes the cap, while a reading subscriber gets every update', async () => {
    const w = wallet()
    const cap = 256 * 1024
    s = await start({ wsSendBufferBytes: cap, walletTiers: { [w.address.toLowerCase()]: 'market_maker' } })
    const reader = await subscribe(s.url, w.address)
    const slow = await subscribe(s.url, w.address)
    // Stop reading: the kernel's buffers fill, then the server's.
    const socket = (slow.ws as unknown as { _socket: import('node:net').Socket })._socket
    socket.pause()

    const ORDERS = 160
    const big = 'x'.repeat(60_000) // each update carries the client_id: about 60 kB per message
    for (let i = 0; i < ORDERS; i++) {
      const r = await placeOrder(s, w, { clientId: `${big}${i}`, price: `${1 + (i % 5)}`, side: 'Buy' })
      expect(r.status).toBe(200)
    }
    await until(() => reader.count() >= ORDERS)
    expect(reader.count()).toBe(ORDERS)

    socket.resume()
    const code = await slow.closed
    // The server gave up on it: it never received everything (about 9.6 MB were published) ...
    expect(slow.count()).toBeLessThan(ORDERS)
    // ... and it was closed as a slow consumer (1008), or dropped when it did not complete the close (1006).
    expect([SLOW_CONSUMER_CLOSE, 1006]).toContain(code)
    reader.ws.close()
  })
})

describe('fan-out', () => {
  it('sends the updates of one turn whole and in the same order to every subscriber', async () => {
    const w = wallet()
    s = await start({ walletTiers: { [w.address.toLowerCase()]: 'market_maker' } })
    const seen: string[][] = []
    const subs: Subscriber[] = []
    for (let i = 0; i < 20; i++) {
      const sub = await subscribe(s.url, w.address)
      const mine: string[] = []
      sub.ws.on('message', (d) => mine.push((JSON.parse(String(d)) as { data: { client_id: string } }).data.client_id))
      seen.push(mine)
      subs.push(sub)
    }
    // One bulk request: its orders are placed in one turn, so their updates leave together.
    const ORDERS = 12
    const bodies = await Promise.all(Array.from({ length: ORDERS }, (_, i) => signedOrder(w, { clientId: `t${i}`, price: `${1 + i}` })))
    const r = await post(s, '/bulk_order', `{"orders":[${bodies.join(',')}]}`)
    expect(r.status).toBe(200)
    expect((r.json as { results: { status: string }[] }).results.every((x) => x.status === 'ACKED')).toBe(true)
    await until(() => seen.every((x) => x.length >= ORDERS))
    expect(seen[0]).toEqual(Array.from({ length: ORDERS }, (_, i) => `t${i}`))
    for (const x of seen) expect(x).toEqual(seen[0])
    for (const x of subs) x.ws.close()
  })

  it('serialises an update once for 200 subscribers, and every subscriber receives it', async () => {
    const w = wallet()
    s = await start()
    const subs: Subscriber[] = []
    for (let i = 0; i < 200; i++) subs.push(await subscribe(s.url, w.address))
    const stringify = vi.spyOn(JSON, 'stringify')
    const r = await placeOrder(s, w, { clientId: 'fan', price: '7' })
    expect(r.status).toBe(200)
    await until(() => subs.every((x) => x.count() >= 1))
    const updates = stringify.mock.calls.filter(([v]) => (v as { channel?: unknown })?.channel === 'orders')
    expect(updates.length).toBe(1)
    expect(subs.every((x) => x.count() === 1)).toBe(true)
    for (const x of subs) x.ws.close()
  })
})
