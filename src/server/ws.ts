/**
 * WebSocket order updates (`x-websocket` in the spec): a client subscribes to a wallet's
 * channel and gets one message per order change of that wallet (placed, filled, canceled,
 * rejected). The subscribe message is validated against the spec's schema.
 */
import type { KnownErrorCode } from '../contract/codes.ts'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { deref, getPointer, isObject } from '../contract/index.ts'
import type { ServerContext } from './context.ts'
import { toRecord, type Order } from './exchange.ts'

export interface OrderFeed {
  publish(order: Order): void
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
  const subs = new Map<string, Map<WebSocket, string>>() // wallet → socket → channel

  const error = (ws: WebSocket, code: KnownErrorCode, message: string) => ws.send(JSON.stringify({ code, message }))

  wss.on('connection', (ws) => {
    const mine = new Set<string>()
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
      let set = subs.get(wallet)
      if (!set) subs.set(wallet, (set = new Map()))
      set.set(ws, channel)
      mine.add(wallet)
    })
    ws.on('close', () => {
      for (const w of mine) subs.get(w)?.delete(ws)
    })
    ws.on('error', () => ws.terminate())
  })

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  }
  server.on('upgrade', onUpgrade)

  return {
    publish(order) {
      const set = subs.get(order.walletKey)
      if (!set || set.size === 0) return
      const data = toRecord(order)
      for (const [ws, channel] of set) if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ channel, data }))
    },
    close() {
      server.off('upgrade', onUpgrade)
      for (const ws of wss.clients) ws.terminate()
      wss.close()
    },
  }
}
