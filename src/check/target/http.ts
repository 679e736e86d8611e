/**
 * The runner's HTTP client. It records every exchange exactly as it went over the wire (the
 * request body text and headers as sent, the response status, headers and body text), so a
 * failure can show what was sent and what came back, and rebuild a `curl` command from it.
 */
import http from 'node:http'
import https from 'node:https'
import { URL } from 'node:url'

export interface SentRequest {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** Body text as sent; undefined when no body was sent. */
  readonly body?: string
}

export interface ReceivedResponse {
  readonly status: number
  /** Header names lowercased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** The body parsed as JSON (plain JSON.parse: responses carry no exact integers we compare), or undefined. */
  readonly json?: unknown
}

export interface HttpExchange {
  readonly request: SentRequest
  /** Absent when the connection failed; `error` then says why. */
  readonly response?: ReceivedResponse
  readonly error?: string
  readonly durationMs: number
}

export interface SendOptions {
  readonly headers?: Record<string, string> | undefined
  /** A body object is serialized with JSON.stringify; a string is sent verbatim. */
  readonly body?: string | undefined
  /** Omit the default `Content-Type: application/json` (a body sent without one). */
  readonly noContentType?: boolean
  /** Raw bytes instead of `body` (for invalid UTF-8). */
  readonly rawBody?: Uint8Array
  /** Send over this pool's connections instead of the client's shared ones. */
  readonly pool?: ConnectionPool
}

/**
 * Connections of a burst's own, one per request. A server accepts at most one new connection
 * per event-loop turn, so requests sent on fresh connections reach it one turn apart however
 * fast they leave; on connections it has already accepted (each answered once, `warm`), requests
 * written at the same moment are read in the same turn, as those of concurrent clients are.
 */
export class ConnectionPool {
  readonly agent: http.Agent

  constructor(
    readonly size: number,
    secure: boolean,
  ) {
    const Agent = secure ? https.Agent : http.Agent
    this.agent = new Agent({ keepAlive: true, maxSockets: size })
  }

  close(): void {
    this.agent.destroy()
  }
}

/** A response as received: its body also parsed as JSON when it is JSON. */
export function receivedResponse(status: number, headers: Readonly<Record<string, string>>, body: string): ReceivedResponse {
  let json: unknown
  try {
    json = body.length > 0 ? JSON.parse(body) : undefined
  } catch {
    json = undefined
  }
  return { status, headers, body, ...(json !== undefined ? { json } : {}) }
}

export type ExchangeListener = (e: HttpExchange) => void

/** Thrown when the target cannot be reached at all: the runner turns it into exit 2. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError'
}

export class HttpClient {
  private readonly base: URL
  private readonly agent: http.Agent
  private readonly listeners: ExchangeListener[] = []

  constructor(
    baseUrl: string,
    private readonly timeoutMs = 10_000,
    /** Sent with every request (`--header`: a gateway's key); a request's own headers win. */
    private readonly extraHeaders: Readonly<Record<string, string>> = {},
  ) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : baseUrl + '/')
    const Agent = this.base.protocol === 'https:' ? https.Agent : http.Agent
    this.agent = new Agent({ keepAlive: true, maxSockets: 32 })
  }

  get baseUrl(): string {
    return this.base.toString().replace(/\/$/, '')
  }

  /** The headers sent with every request (`--header`), for the connections it does not open itself (a WebSocket). */
  get headers(): Readonly<Record<string, string>> {
    return this.extraHeaders
  }

  /** Every exchange is reported to listeners (the runner keeps a per-case log and a global one). */
  onExchange(listener: ExchangeListener): () => void {
    this.listeners.push(listener)
    return () => {
      const i = this.listeners.indexOf(listener)
      if (i >= 0) this.listeners.splice(i, 1)
    }
  }

  close(): void {
    this.agent.destroy()
  }

  /** A HEAD over a raw socket (it sees bytes after the headers that an HTTP client drops), with the `--header`s. */
  rawHead(path: string): ReturnType<typeof rawHead> {
    return rawHead(this.baseUrl, path, this.timeoutMs, this.extraHeaders)
  }

  /** A pool of `size` connections to the target, each opened and answered once (a GET of `path`) before it is returned. */
  async pool(size: number, path: string): Promise<ConnectionPool> {
    const pool = new ConnectionPool(size, this.base.protocol === 'https:')
    await Promise.all(Array.from({ length: size }, () => this.send('GET', path, { pool })))
    return pool
  }

  /** The JSON body text of a value; strings are passed through untouched (exact body text). */
  static text(body: unknown): string {
    return typeof body === 'string' ? body : JSON.stringify(body)
  }

  async send(method: string, path: string, options: SendOptions = {}): Promise<HttpExchange> {
    const url = new URL(path.replace(/^\//, ''), this.base)
    const headers: Record<string, string> = { accept: 'application/json', ...this.extraHeaders }
    const hasBody = options.body !== undefined || options.rawBody !== undefined
    if (hasBody && !options.noContentType) headers['content-type'] = 'application/json'
    Object.assign(headers, options.headers ?? {})
    const payload = options.rawBody
      ? Buffer.from(options.rawBody)
      : options.body !== undefined
        ? Buffer.from(options.body, 'utf8')
        : undefined
    if (payload) headers['content-length'] = String(payload.length)
    const request: SentRequest = {
      method,
      url: url.toString(),
      headers,
      ...(options.body !== undefined
        ? { body: options.body }
        : options.rawBody
          ? { body: Buffer.from(options.rawBody).toString('latin1') }
          : {}),
    }
    const started = performance.now()
    const lib = url.protocol === 'https:' ? https : http
    // A keep-alive socket the target closed as idle just as it was reused fails before the
    // request reached the target (ECONNRESET on a reused socket): sent again, once, on a new one.
    const attempt = () =>
      new Promise<{ exchange: HttpExchange; stale: boolean }>((resolveAttempt) => {
        const resolve = (exchange: HttpExchange, stale = false) => resolveAttempt({ exchange, stale })
        const req = lib.request(url, { method, headers, agent: options.pool?.agent ?? this.agent }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('error', (err) => resolve({ request, error: err.message, durationMs: performance.now() - started }))
          res.on('end', () => {
            const rh: Record<string, string> = {}
            for (const [k, v] of Object.entries(res.headers)) {
              if (v !== undefined) rh[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v)
            }
            resolve({
              request,
              response: receivedResponse(res.statusCode ?? 0, rh, Buffer.concat(chunks).toString('utf8')),
              durationMs: performance.now() - started,
            })
          })
        })
        req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)))
        req.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ request, error: err.message, durationMs: performance.now() - started }, req.reusedSocket && err.code === 'ECONNRESET'),
        )
        if (payload) req.write(payload)
        req.end()
      })
    let { exchange, stale } = await attempt()
    if (stale) ({ exchange } = await attempt())
    for (const l of this.listeners) l(exchange)
    return exchange
  }
}

/** Whether the base URL answers HTTP at all (any status); used to exit 2 on an unreachable target. */
export async function probe(client: HttpClient, path: string): Promise<string | undefined> {
  const e = await client.send('GET', path)
  if (e.response) return undefined
  const error = e.error ?? 'no answer'
  // TLS spoken to a plain-HTTP port: OpenSSL's own words ("wrong version number") name no fix.
  if (client.baseUrl.startsWith('https:') && /wrong version number|EPROTO|packet length too long|http request/i.test(error))
    return `the server speaks plain HTTP, not TLS: use ${client.baseUrl.replace(/^https:/, 'http:')}`
  return error
}

/**
 * A HEAD request over a raw socket, read until the server closes: unlike an HTTP client, which
 * never reads a body after HEAD, this sees any bytes a server wrongly sends after the headers.
 */
export async function rawHead(
  baseUrl: string,
  path: string,
  timeoutMs = 10_000,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<{ status: number; headers: Record<string, string>; trailing: string } | { error: string }> {
  const url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`)
  const net = await import('node:net')
  const tls = await import('node:tls')
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    const socket =
      url.protocol === 'https:'
        ? tls.connect({ host: url.hostname, port, servername: url.hostname })
        : net.connect({ host: url.hostname, port })
    const timer = setTimeout(() => {
      socket.destroy()
      finish()
    }, timeoutMs)
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return resolve({ error: text.length ? 'no complete header block' : 'no answer' })
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const l of lines) {
        const i = l.indexOf(':')
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim()
      }
      resolve({ status: Number(statusLine?.split(' ')[1] ?? 0), headers, trailing: text.slice(end + 4) })
    }
    const extra = Object.entries(extraHeaders).map(([k, v]) => `${k}: ${v}\r\n`)
    const head = `HEAD ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n${extra.join('')}Connection: close\r\n\r\n`
    socket.on('connect', () => socket.write(head))
    socket.on('secureConnect', () => {})
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', finish)
    socket.on('close', finish)
    socket.on('error', (err) => {
      if (!chunks.length && !done) {
        done = true
        clearTimeout(timer)
        resolve({ error: err.message })
      } else finish()
    })
  })
}
