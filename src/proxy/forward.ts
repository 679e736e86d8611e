/**
 * The transparent part: every request is forwarded to the target with its method, path, headers
 * (raw, in order; only Host names the target) and body bytes, and the target's status, headers
 * and body bytes go back unchanged. WebSocket and other upgrades are piped as raw sockets.
 * Each completed exchange is handed to `onExchange` after the client has its response.
 */
import { createServer, request as httpRequest, Agent as HttpAgent, type IncomingMessage, type Server } from 'node:http'
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https'
import { connect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import type { ProxiedExchange } from './model.ts'

export interface Forwarder {
  readonly server: Server
  /** Exchanges in flight, so a shutdown can wait for their checks. */
  idle(): Promise<void>
  close(): Promise<void>
}

function headerMap(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i]!.toLowerCase()
    out[k] = out[k] === undefined ? raw[i + 1]! : `${out[k]}, ${raw[i + 1]}`
  }
  return out
}

/**
 * Raw headers with Host pointing at the target (the one header a reverse proxy must change), and
 * the `--header` values (a gateway's key), which replace a client's header of the same name.
 */
function upstreamHeaders(raw: readonly string[], host: string, extra: readonly (readonly [string, string])[]): string[] {
  const replaced = new Set(extra.map(([k]) => k.toLowerCase()))
  const out: string[] = []
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    if (!replaced.has(name)) out.push(raw[i]!, name === 'host' ? host : raw[i + 1]!)
  }
  for (const [k, v] of extra) out.push(k, v)
  return out
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

export function createForwarder(
  target: URL,
  onExchange: (ex: ProxiedExchange) => void,
  onError: (message: string) => void,
  extraHeaders: readonly (readonly [string, string])[] = [],
): Forwarder {
  // An https:// target (a staging server behind TLS) is forwarded over TLS; the proxy itself listens on plain HTTP.
  const tls = target.protocol === 'https:'
  const request = tls ? httpsRequest : httpRequest
  const agent = tls ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  const port = Number(target.port || (tls ? 443 : 80))
  const host = target.hostname.replace(/^\[|\]$/g, '')
  let seq = 0
  let inFlight = 0
  let waiters: (() => void)[] = []
  const settle = () => {
    if (--inFlight === 0) {
      for (const w of waiters) w()
      waiters = []
    }
  }
  const sockets = new Set<Socket>()

  const server = createServer((req, res) => {
    const n = ++seq
    inFlight++
    const started = performance.now()
    readAll(req)
      .then(
        (body) =>
          new Promise<void>((resolve) => {
            const up = request({
              host,
              port,
              method: req.method,
              path: req.url,
              headers: upstreamHeaders(req.rawHeaders, target.host, extraHeaders),
              agent,
            })
            up.on('response', (ur) => {
              const chunks: Buffer[] = []
              res.writeHead(ur.statusCode ?? 502, ur.statusMessage, ur.rawHeaders)
              ur.on('data', (c: Buffer) => {
                chunks.push(c)
                res.write(c)
              })
              ur.on('end', () => {
                res.end()
                const ex: ProxiedExchange = {
                  seq: n,
                  method: (req.method ?? 'GET').toUpperCase(),
                  url: req.url ?? '/',
                  requestHeaders: headerMap(req.rawHeaders),
                  requestBody: body,
                  status: ur.statusCode ?? 0,
                  responseHeaders: headerMap(ur.rawHeaders),
                  responseBody: Buffer.concat(chunks),
                  ms: performance.now() - started,
                }
                // Checked after the client has its answer, so an answer is never held back by its own checks.
                setImmediate(() => {
                  try {
                    onExchange(ex)
                  } finally {
                    resolve()
                  }
                })
              })
              ur.on('error', () => {
                res.destroy()
                resolve()
              })
            })
            up.on('error', (err) => {
              onError(`#${n} ${req.method} ${req.url}: the target did not answer (${(err as NodeJS.ErrnoException).code ?? err.message})`)
              if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
              res.end('oec proxy: the target did not answer\n')
              resolve()
            })
            up.end(body)
          }),
      )
      .catch(() => res.destroy())
      .finally(settle)
  })

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const onOpen = () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`]
      const headers = upstreamHeaders(req.rawHeaders, target.host, extraHeaders)
      for (let i = 0; i + 1 < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`)
      up.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (head.length > 0) up.write(head)
      socket.pipe(up).pipe(socket)
    }
    const up = tls ? tlsConnect({ host, port, servername: host }, onOpen) : connect(port, host, onOpen)
    sockets.add(socket)
    sockets.add(up)
    const drop = () => {
      socket.destroy()
      up.destroy()
      sockets.delete(socket)
      sockets.delete(up)
    }
    up.on('error', drop)
    socket.on('error', drop)
    up.on('close', drop)
    socket.on('close', drop)
  })

  return {
    server,
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((r) => waiters.push(r))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
        server.closeIdleConnections()
        agent.destroy()
        setTimeout(() => server.closeAllConnections(), 1000).unref()
      }),
  }
}
