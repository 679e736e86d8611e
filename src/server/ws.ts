/**
 * WebSocket order updates (`x-websocket` in the spec): a client subscribes to a wallet's
 * channel and gets one message per order change of that wallet (placed, filled, canceled,
 * rejected). The subscribe message is validated against the spec's schema.
 *
 * What a subscriber costs the order path: an update is serialised, encoded and framed once,
 * whatever the number of subscribers, and each subscriber adds one socket write of a buffer
 * shared by all per turn, at most one per 20 ms under a steady stream (ws-broadcast.ts). A
 * subscriber that does not read is never buffered without bound: once it holds unsent data, a
 * write that would take it past `wsSendBufferBytes` closes it with SLOW_CONSUMER_CLOSE instead,
 * and it is dropped a moment later if it does not complete the close.
 */
import type { KnownErrorCode } from '../contract/codes.ts'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { deref, getPointer, isObject } from '../contract/index.ts'
import type { ServerContext } from './context.ts'
import { toRecord, type Order, type OrderRecord } from './order-types.ts'
import { createBroadcaster } from './ws-broadcast.ts'

/** Close code for a subscriber whose unsent data passed the cap (1008: policy violation). */
export const SLOW_CONSUMER_CLOSE = 1008
/** A subscriber that does not complete the close handshake is dropped after this. */
const CLOSE_GRACE_MS = 1000
/** Wallets one socket may follow: subscriptions are memory too. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 1000

const batchKey = (walletKey: string, channel: string) => `${walletKey} ${channel}`

export interface OrderFeed {
  publish(order: Order): void
  /** Someone follows this wallet (lower-case): worth taking a snapshot of its order now to deliver later. */
  follows(walletKey: string): boolean
  /** Pushes a snapshot taken earlier (the data directory delivers once the change is committed). */
  deliver(walletKey: string, record: OrderRecord): void
  close(): void
}

export function attachWebSocket(server: Server, ctx: ServerContext): OrderFeed {
  const ext = ctx.spec.doc['x-websocket']
  const path = isObject(ext) && typeof ext.path === 'string' ? ext.path : '/ws'
  const channels = isObject(ext) && isObject(ext.channels) ? ext.channels : {}
  // The subscribe schema of each channel, by channel name.
  const checks = new Map<string, (v: unknown) => { message: string } | null>()
  for (const [name, ch] of Object.entries(channels)) {
    const sub = isObject(ch) ? ch.subscribe : undefined
    const ref = isObject(sub) && typeof sub.$ref === 'string' ? sub.$ref.replace(/^#/, '') : undefined
    if (ref && deref(ctx.spec.doc, sub) !== undefined && getPointer(ctx.spec.doc, ref) !== undefined)
      checks.set(name, ctx.validators.schema(ref))
  }
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  const subs = new Map<string, Map<string, Set<WebSocket>>>() // wallet → channel → sockets

  const error = (ws: WebSocket, code: KnownErrorCode, message: string) => ws.send(JSON.stringify({ code, message }))
  const cap = ctx.config.wsSendBufferBytes
  const slowConsumer = (ws: WebSocket) => {
    ws.close(SLOW_CONSUMER_CLOSE, `slow consumer: over ${cap} bytes unsent`)
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref()
  }
  const raw = new WeakMap<WebSocket, Duplex>()
  const broadcast = createBroadcaster({ socketOf: (ws) => raw.get(ws), cap, slow: slowConsumer })
  const unfollow = (ws: WebSocket, wallet: string, channel: string) => {
    const byChannel = subs.get(wallet)
    const sockets = byChannel?.get(channel)
    if (!byChannel || !sockets) return
    broadcast.seal(batchKey(wallet, channel))
    sockets.delete(ws)
    if (sockets.size === 0) byChannel.delete(channel)
    if (byChannel.size === 0) subs.delete(wallet)
  }

  wss.on('connection', (ws) => {
    const mine = new Map<string, string>() // wallet → channel
    ws.on('message', (data, isBinary) => {
      let msg: unknown
      try {
        msg = JSON.parse(isBinary ? '' : data.toString())
      } catch {
        return error(ws, 'invalid_json', 'a subscribe message is a JSON object')
      }
      const params = isObject(msg) && isObject(msg.params) ? msg.params : {}
      const channel = typeof params.channel === 'string' ? params.channel : ''
      const check = checks.get(channel) ?? [...checks.values()][0]
      const problem = check ? check(msg) : null
      if (problem || !checks.has(channel))
        return error(ws, 'invalid_field', problem?.message ?? `unknown channel ${JSON.stringify(channel.slice(0, 40))}`)
      const wallet = String(params.wallet).toLowerCase()
      if (!mine.has(wallet) && mine.size >= MAX_SUBSCRIPTIONS_PER_SOCKET)
        return error(ws, 'invalid_field', `a connection follows at most ${MAX_SUBSCRIPTIONS_PER_SOCKET} wallets; open another`)
      const before = mine.get(wallet)
      if (before === channel) return
      if (before) unfollow(ws, wallet, before)
      let byChannel = subs.get(wallet)
      if (!byChannel) subs.set(wallet, (byChannel = new Map()))
      let sockets = byChannel.get(channel)
      if (!sockets) byChannel.set(channel, (sockets = new Set()))
      // A batch of this turn was addressed before this subscriber came: it waits for the next.
      broadcast.seal(batchKey(wallet, channel))
      sockets.add(ws)
      mine.set(wallet, channel)
    })
    ws.on('close', () => {
      for (const [w, c] of mine) unfollow(ws, w, c)
    })
    ws.on('error', () => ws.terminate())
  })

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      raw.set(ws, socket)
      wss.emit('connection', ws, req)
    })
  }
  server.on('upgrade', onUpgrade)

  function deliver(walletKey: string, data: OrderRecord): void {
    const byChannel = subs.get(walletKey)
    if (!byChannel) return
    // One payload per channel name: the encoding is shared by every subscriber of that channel.
    for (const [channel, sockets] of byChannel)
      broadcast.send(batchKey(walletKey, channel), () => [...sockets], Buffer.from(JSON.stringify({ channel, data })))
  }

  return {
    publish(order) {
      if (subs.get(order.walletKey)?.size) deliver(order.walletKey, toRecord(order))
    },
    follows: (walletKey) => (subs.get(walletKey)?.size ?? 0) > 0,
    deliver,
    close() {
      server.off('upgrade', onUpgrade)
      for (const ws of wss.clients) ws.terminate()
      wss.close()
    },
  }
}
