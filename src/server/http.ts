/**
 * The HTTP edge: body limits and media type, lossless parsing, routing, the rate-limit headers
 * of rate-limited endpoints, HEAD without a body, and a 500 only for the server's own faults.
 */
import type { ParsedBodyOk } from '../signing/index.ts'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionGuard } from './connections.ts'
import { RATE_HEADERS, type RequestState, type ServerContext } from './context.ts'
import { noRequestLog, type ReplyContext } from './deps.ts'
import type { Reply } from './reply.ts'
import type { Router } from './router.ts'

/** Bodies above this get 413. */
export const MAX_BODY_BYTES = 64 * 1024
/** Past this much we stop reading and close the connection after the 413. */
const ABORT_BYTES = 1024 * 1024

export type BodyRead = { kind: 'ok'; bytes: Buffer } | { kind: 'too_large'; aborted: boolean } | { kind: 'gone' }

function readBody(req: IncomingMessage): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let total = 0
    let done = false
    const finish = (r: BodyRead) => {
      if (!done) {
        done = true
        resolve(r)
      }
    }
    req.on('data', (chunk: Buffer) => {
      total += chunk.length
      if (total <= MAX_BODY_BYTES) chunks.push(chunk)
      else if (total > ABORT_BYTES) {
        req.pause()
        finish({ kind: 'too_large', aborted: true })
      }
    })
    req.on('end', () =>
      finish(
        total > MAX_BODY_BYTES
          ? { kind: 'too_large', aborted: false }
          : { kind: 'ok', bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total) },
      ),
    )
    // The client went away mid-body: nobody to answer.
    req.on('error', () => finish({ kind: 'gone' }))
    req.on('aborted', () => finish({ kind: 'gone' }))
  })
}

/** Missing Content-Type is read as JSON; a present one must be JSON (utf-8 if a charset is named). */
function mediaProblem(header: string | undefined): string | null {
  if (header === undefined || header === 'application/json') return null
  const [type = '', ...params] = header.split(';')
  const t = type.trim().toLowerCase()
  if (t !== 'application/json' && !/^application\/[a-z0-9.!#$&^_-]+\+json$/.test(t))
    return `Content-Type ${JSON.stringify(type.trim().slice(0, 60))} is not JSON; send application/json`
  for (const p of params) {
    const [k, v = ''] = p.split('=')
    if (k?.trim().toLowerCase() === 'charset' && !/^"?utf-8"?$/i.test(v.trim()))
      return `charset ${JSON.stringify(v.trim().slice(0, 30))} is not supported; send utf-8`
  }
  return null
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** A request target that WHATWG URL parsing leaves as it is: no query, dot segment, escape, `//` or backslash. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)+$|^\/$/

/** Path and query of a request target; the common plain path skips building a URL. */
function target(raw: string | undefined): { path: string; query: URLSearchParams } {
  if (raw !== undefined && PLAIN_PATH.test(raw)) return { path: raw, query: new URLSearchParams() }
  let url: URL
  try {
    url = new URL(raw ?? '/', 'http://localhost')
  } catch {
    url = new URL('http://localhost/')
  }
  return { path: url.pathname, query: url.searchParams }
}

/** The one operation answered as usual on a connection over the cap: a health probe must see the server. */
const ANSWERED_OVER_CAP = 'getHealth'

/** A request as the edge sees it, whatever carried it: a socket, or a caller in the same process. */
export interface EdgeRequest {
  readonly method: string
  /** The request target as sent: path and query. */
  readonly url: string
  readonly contentType: string | undefined
  /** Read the body (only for operations that take one). */
  readBody(): Promise<BodyRead>
  /** Drop an unread body. */
  discard(): void
  /** Whether the connection is over the server's connection cap (always false in process). */
  overCap(): boolean
}

/** The edge's answer: what goes on the wire, and what to do with the connection. */
export interface EdgeAnswer {
  readonly status: number
  /** One flat [name, value, ...] list, in the order it is written. */
  readonly headers: string[]
  readonly text: string
  /** HEAD: the headers of the GET answer, no body. */
  readonly head: boolean
  /** Close the connection after the answer. */
  readonly close: boolean
  /** The client went away mid-body (nobody to answer), or the body ran past the abort size. */
  readonly drop?: 'gone' | 'after'
}

export type Edge = (req: EdgeRequest) => Promise<EdgeAnswer>

/**
 * The whole request path without a socket: routing, body limits and media type, lossless
 * parsing, the handler, the rate-limit headers, the commit wait and the reply's wire form. The
 * node listener and the in-process `dispatch` both call it, so they answer alike.
 */
export function createEdge(
  ctx: ServerContext,
  router: Router,
  /**
   * With a data directory: the commit of every write so far, awaited before any reply is sent,
   * and why writes cannot be committed now (then writes answer 503 and reads go on).
   */
  store?: { settled(): Promise<void> | undefined; unavailable(): string | undefined },
): Edge {
  const { deps, catalog } = ctx

  const answer = (reply: Reply, rc: ReplyContext, head: boolean, started: number, state: RequestState, close = false): EdgeAnswer => {
    const final = deps.transformReply(reply, rc)
    const text = final.body === undefined ? '' : JSON.stringify(final.body)
    // The edge's own headers replace a reply's header of the same name in place, as assigning
    // them into a copy of the object did.
    const own: string[] = []
    if (text !== '') own.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(text)))
    const headers: string[] = []
    for (const k in final.headers) {
      const at = own.indexOf(k)
      if (at >= 0 && at % 2 === 0) {
        headers.push(k, own[at + 1]!)
        own.splice(at, 2)
      } else headers.push(k, final.headers[k]!)
    }
    headers.push(...own)
    // Logging off (the default): no entry, no clock read, no date string per request.
    if (deps.logger !== noRequestLog) {
      const code =
        final.body && typeof final.body === 'object' && typeof (final.body as { code?: unknown }).code === 'string'
          ? (final.body as { code: string }).code
          : undefined
      deps.logger({
        time: new Date().toISOString(),
        method: rc.method,
        path: rc.path,
        status: final.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        ...(code ? { code } : {}),
        ...(state.wallet ? { wallet: state.wallet } : {}),
      })
    }
    return { status: final.status, headers, text, head, close }
  }

  return async (req) => {
    const started = performance.now()
    const method = req.method.toUpperCase()
    const { path, query } = target(req.url)
    const state: RequestState = {}
    const match = router.match(method, path)
    if (match.kind !== 'route') {
      req.discard()
      const reply =
        match.kind === 'none'
          ? catalog.reply('not_found', `no such path: ${path.slice(0, 100)}`)
          : catalog.reply(
              'method_not_allowed',
              `${method} is not allowed on ${path}; allowed: ${match.allow.join(', ')}`,
              {},
              { Allow: match.allow.join(', ') },
            )
      return answer(reply, { method, path }, method === 'HEAD', started, state)
    }
    const { op, handler } = match.route
    const rc: ReplyContext = { method, path, operationId: op.operationId }
    // Every reply of a rate-limited endpoint carries the window headers, errors included: the
    // identified wallet's counters (uncharged if refused), else the default tier's empty window.
    const withRate = (reply: Reply): Reply => {
      if (!op.rateLimit || reply.headers[RATE_HEADERS.limit] !== undefined) return reply
      const category = state.category ?? op.rateLimit.category
      return {
        ...reply,
        headers: { ...reply.headers, ...(state.wallet ? ctx.rateHeaders(state.wallet, category) : ctx.anonymousRateHeaders(category)) },
      }
    }
    const refuse = (reply: Reply) => answer(withRate(reply), rc, false, started, state)
    if (op.operationId !== ANSWERED_OVER_CAP && req.overCap()) {
      req.discard()
      const busy = catalog.reply(
        'too_many_connections',
        `the server is at its connection cap (${ctx.config.maxConnections}); retry shortly`,
        {},
        { 'Retry-After': '1' },
      )
      return answer(withRate(busy), rc, match.head, started, state, true)
    }
    const read = method === 'GET' || method === 'HEAD'
    // A write is refused while the store cannot commit; a read (POST /info too) goes on.
    const writes = !read && handler.readOnly !== true
    // A store that cannot commit (a full disk) refuses writes before they change anything.
    const storeDown = (outcome: string): EdgeAnswer | undefined => {
      const why = store?.unavailable()
      if (why === undefined) return undefined
      const down = catalog.reply('not_ready', `the state cannot be saved now (${why}); ${outcome}`, {}, { 'Retry-After': '1' })
      return answer(withRate(down), rc, match.head, started, state)
    }
    if (writes) {
      const down = storeDown('nothing was changed, retry shortly')
      if (down) {
        req.discard()
        return down
      }
    }
    let body: ParsedBodyOk | undefined
    if (op.requestSchema) {
      const media = mediaProblem(req.contentType)
      const read = await req.readBody()
      if (read.kind === 'gone') return { status: 0, headers: [], text: '', head: false, close: true, drop: 'gone' }
      if (read.kind === 'too_large') {
        const a = answer(
          withRate(catalog.reply('payload_too_large', `body is over ${MAX_BODY_BYTES} bytes (64 KiB)`)),
          rc,
          false,
          started,
          state,
          read.aborted,
        )
        return read.aborted ? { ...a, drop: 'after' } : a
      }
      if (media) return refuse(catalog.reply('unsupported_media_type', media))
      let text: string
      try {
        text = utf8.decode(read.bytes)
      } catch {
        return refuse(catalog.reply('invalid_json', 'body is not valid UTF-8'))
      }
      if (text.trim() === '') return refuse(catalog.reply('invalid_json', 'body is empty; send a JSON object'))
      const parsed = deps.parseBody(text)
      if (!parsed.ok) {
        const message =
          parsed.field !== null && parsed.code === 'invalid_field' && !parsed.message.includes(parsed.field)
            ? `invalid field "${parsed.field}": ${parsed.message}`
            : parsed.message
        if (parsed.code === 'invalid_field' && handler.refuseBody) return refuse(handler.refuseBody(message))
        return refuse(catalog.reply(parsed.code, message))
      }
      body = parsed
    } else req.discard()

    const out = handler({ method, path, query, body, state })
    const reply = withRate(out instanceof Promise ? await out : out)
    // Nothing is answered before the state it reports is on disk. A read while the store cannot
    // commit answers at once; a write whose commit failed answers 503 (its change stays queued
    // and is committed when space returns).
    const pending = !writes && store?.unavailable() !== undefined ? undefined : store?.settled()
    if (pending)
      try {
        await pending
      } catch (err) {
        const down = storeDown('this change is kept and saved once space returns: check its state before sending it again')
        if (down) return down
        throw err
      }
    return answer(reply, rc, match.head, started, state)
  }
}

/** The answer to a fault of the server's own: a 500, with a rate-limited endpoint's window headers still on it. */
export function faultAnswer(ctx: ServerContext, router: Router, method: string, url: string): EdgeAnswer {
  const r = ctx.catalog.reply('internal_error', 'internal error')
  const text = JSON.stringify(r.body)
  const match = router.match(method.toUpperCase(), target(url).path)
  const category = match.kind === 'route' ? match.route.op.rateLimit?.category : undefined
  const headers: string[] = []
  for (const [k, v] of Object.entries(category ? ctx.anonymousRateHeaders(category) : {})) headers.push(k, v)
  headers.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(text)))
  return { status: r.status, headers, text, head: method.toUpperCase() === 'HEAD', close: false }
}

function reportFault(err: unknown, method: string | undefined, url: string | undefined): void {
  const message = err instanceof Error ? err.message : String(err)
  process.stderr.write(`oec serve: internal error on ${method} ${url}: ${message.split('\n')[0]}\n`)
}

/** The node `request` listener: the edge over a socket, with the connection guard's say on closing. */
export function createListener(
  ctx: ServerContext,
  router: Router,
  edge: Edge,
  guard: ConnectionGuard,
): (req: IncomingMessage, res: ServerResponse) => void {
  const write = (res: ServerResponse, a: EdgeAnswer) => {
    const headers = a.close || guard.mustClose(res.socket as Socket) ? [...a.headers, 'Connection', 'close'] : a.headers
    res.writeHead(a.status, headers)
    res.end(a.head ? undefined : a.text)
  }
  return (req, res) => {
    const edgeReq: EdgeRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      contentType: req.headers['content-type'],
      readBody: () => readBody(req),
      discard: () => void req.resume(),
      overCap: () => guard.overCap(req.socket),
    }
    edge(edgeReq).then(
      (a) => {
        if (a.drop === 'gone') return void res.destroy()
        write(res, a)
        if (a.drop === 'after') req.destroy()
      },
      (err: unknown) => {
        reportFault(err, req.method, req.url)
        if (!res.headersSent) write(res, faultAnswer(ctx, router, req.method ?? 'GET', req.url ?? '/'))
        else res.end()
      },
    )
  }
}

/** A request made in the same process, without a socket. */
export interface InProcessRequest {
  readonly method: string
  /** Path and query. */
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
}

export interface InProcessResponse {
  readonly status: number
  /** Header names lowercased, as a client reads them off the wire. */
  readonly headers: Record<string, string>
  readonly body: string
}

/**
 * The in-process door: the same edge as over HTTP, minus the socket (no connection cap, no
 * header limits, no timeouts). The explorer's oracle is called this way: an exchange costs the
 * handler's work, not two HTTP stacks.
 */
export function createDispatch(ctx: ServerContext, router: Router, edge: Edge): (req: InProcessRequest) => Promise<InProcessResponse> {
  const lower = (a: EdgeAnswer): InProcessResponse => {
    const headers: Record<string, string> = {}
    for (let i = 0; i < a.headers.length; i += 2) {
      const k = a.headers[i]!.toLowerCase()
      headers[k] = headers[k] === undefined ? a.headers[i + 1]! : `${headers[k]}, ${a.headers[i + 1]!}`
    }
    return { status: a.status, headers, body: a.head ? '' : a.text }
  }
  return async (r) => {
    const bytes = r.body === undefined ? Buffer.alloc(0) : typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : Buffer.from(r.body)
    const contentType = Object.entries(r.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1]
    try {
      return lower(
        await edge({
          method: r.method,
          url: r.url,
          contentType,
          readBody: async () =>
            bytes.length > MAX_BODY_BYTES ? { kind: 'too_large', aborted: bytes.length > ABORT_BYTES } : { kind: 'ok', bytes },
          discard: () => {},
          overCap: () => false,
        }),
      )
    } catch (err) {
      reportFault(err, r.method, r.url)
      return lower(faultAnswer(ctx, router, r.method, r.url))
    }
  }
}
