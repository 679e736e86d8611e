/**
 * The explorer's `/ws` watch (ws-watch.ts) against WebSocket servers of the test's own on
 * loopback: one connection serves a shard's sequences, the target's last update per order is held
 * against the reference's record (a dropped update warns once settled, a late one does not), and a
 * target whose `/ws` never opens is reported once, by the first shard that tried, never tried again.
 */
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { type WebSocket, WebSocketServer } from 'ws'
import { shippedContract } from '../../src/contract/index.ts'
import { WsWatch } from '../../src/check/explore/ws-watch.ts'

const spec = shippedContract()
const channel = Object.keys(spec.websocket.channels)[0]!
const servers: Server[] = []
afterAll(() => {
  for (const s of servers) s.close()
})

async function listen(server: Server): Promise<string> {
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A target whose `/ws` answers subscribes by refusing the empty channel, as the reference does; `push` sends an order's update. */
async function feedServer() {
  const http = createServer()
  const wss = new WebSocketServer({ server: http, path: spec.websocket.path })
  const sockets: WebSocket[] = []
  const subscribed: string[] = []
  wss.on('connection', (ws) => {
    sockets.push(ws)
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { params: { channel: string; wallet?: string } }
      if (m.params.channel === '') ws.send(JSON.stringify({ error: 'unknown channel' }))
      else subscribed.push(m.params.wallet!)
    })
  })
  const url = await listen(http)
  const push = (order_id: string, status: string, filled_size = '0') =>
    sockets.at(-1)!.send(JSON.stringify({ channel, data: { order_id, status, filled_size } }))
  return { url, sockets, subscribed, push }
}

const feedsOf = (target: string) => ({ target, headers: {}, websocket: spec.websocket })

describe('the /ws watch of a shard', () => {
  it('follows every sequence on one connection and compares the last update with the reference record', async () => {
    const t = await feedServer()
    const watch = new WsWatch(feedsOf(t.url))
    const orders = [{ target: '7', oracle: 'r7' }]
    await watch.watch(['0xaa', '0xbb'])
    t.push('7', 'OPEN')
    t.push('7', 'CANCELED')
    expect(await watch.settle(orders, new Map([['r7', 'CANCELED|0']]), false)).toEqual([])

    // The next sequence: same connection, its own wallets, the last sequence's updates dropped.
    await watch.watch(['0xcc'])
    expect(t.sockets).toHaveLength(1)
    expect(t.subscribed).toEqual(['0xaa', '0xbb', '0xcc'])
    t.push('8', 'OPEN')
    const dropped = await watch.settle([{ target: '8', oracle: 'r8' }], new Map([['r8', 'CANCELED|0']]), false)
    expect(dropped.map((d) => d.rule)).toEqual(['WS-2'])
    expect(dropped[0]!.what).toContain('order 8: target OPEN|0; reference CANCELED|0')
    // An update from before this sequence counts for nothing: order 7 now has none.
    await watch.watch(['0xdd'])
    const none = await watch.settle(orders, new Map([['r7', 'CANCELED|0']]), false)
    expect(none[0]?.what).toContain('order 7: target no update')

    // A late update within the settling time agrees.
    await watch.watch(['0xee'])
    t.push('9', 'OPEN')
    setTimeout(() => t.push('9', 'FILLED', '1'), 100)
    expect(await watch.settle([{ target: '9', oracle: 'r9' }], new Map([['r9', 'FILLED|1']]), false)).toEqual([])
    watch.close()
  })

  it('with another client on the book, how much filled is no verdict', async () => {
    const t = await feedServer()
    const watch = new WsWatch(feedsOf(t.url))
    await watch.watch(['0xaa'])
    t.push('1', 'FILLED', '2')
    t.push('2', 'OPEN', '0')
    const reference = new Map([
      ['r1', 'OPEN|0'],
      ['r2', 'CANCELED|0'],
    ])
    const orders = [
      { target: '1', oracle: 'r1' },
      { target: '2', oracle: 'r2' },
    ]
    const d = await watch.settle(orders, reference, true)
    expect(d).toHaveLength(1)
    expect(d[0]!.what).toContain('order 2:')
    expect(d[0]!.what).not.toContain('order 1:')
    watch.close()
  })

  it('a target whose /ws never opens is reported once and not tried again by another shard', async () => {
    let upgrades = 0
    const http = createServer((_req, res) => res.end())
    http.on('upgrade', (_req, socket) => {
      upgrades++
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n')
    })
    const url = await listen(http)
    const first = new WsWatch(feedsOf(url))
    await first.watch(['0xaa'])
    const said = await first.settle([], new Map(), false)
    expect(said.map((d) => d.rule)).toEqual(['WS-2'])
    expect(said[0]!.what).toMatch(/^cannot open ws:\/\/127\.0\.0\.1:\d+\//)
    await first.watch(['0xbb'])
    expect(await first.settle([], new Map(), false)).toEqual([])
    const second = new WsWatch(feedsOf(url))
    await second.watch(['0xcc'])
    expect(await second.settle([], new Map(), false)).toEqual([])
    expect(upgrades).toBe(1)
  })
})
