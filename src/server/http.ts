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

type BodyRead = { kind: 'ok'; bytes: Buffer } | { kind: 'too_large'; aborted: boolean } | { kind: 'gone' }

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

export function createListener(
  ctx: ServerContext,
  router: Router,
  guard: ConnectionGuard,
  /** With a data directory: the commit of every write so far, awaited before any reply is sent. */
  committed?: () => Promise<void> | undefined,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { deps, catalog } = ctx

  const send = (
    res: ServerResponse,
    reply: Reply,
    rc: ReplyContext,
    head: boolean,
    started: number,
    state: RequestState,
    close = false,
  ) => {
    const final = deps.transformReply(reply, rc)
    const text = final.body === undefined ? '' : JSON.stringify(final.body)
    // One flat [name, value, ...] list, which node writes as given. The edge's own headers replace
    // a reply's header of the same name in place, as assigning them into a copy of the object did.
    const own: string[] = []
    if (text !== '') own.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(text)))
    if (close || guard.mustClose(res.socket as Socket)) own.push('Connection', 'close')
    const headers: string[] = []
    for (const k in final.headers) {
      const at = own.indexOf(k)
      if (at >= 0 && at % 2 === 0) {
        headers.push(k, own[at + 1]!)
        own.splice(at, 2)
      } else headers.push(k, final.headers[k]!)
    }
    headers.push(...own)
    res.writeHead(final.status, headers)
    res.end(head ? undefined : text)
    // Logging off (the default): no entry, no clock read, no date string per request.
    if (deps.logger === noRequestLog) return
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

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now()
    const method = (req.method ?? 'GET').toUpperCase()
    const { path, query } = target(req.url)
    const state: RequestState = {}
    const match = router.match(method, path)
    if (match.kind !== 'route') {
      req.resume()
      const head = method === 'HEAD'
      const reply =
        match.kind === 'none'
          ? catalog.reply('not_found', `no such path: ${path.slice(0, 100)}`)
          : catalog.reply(
              'method_not_allowed',
              `${method} is not allowed on ${path}; allowed: ${match.allow.join(', ')}`,
              {},
              { Allow: match.allow.join(', ') },
            )
      send(res, reply, { method, path }, head, started, state)
      return
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
    if (op.operationId !== ANSWERED_OVER_CAP && guard.overCap(req.socket)) {
      req.resume()
      const busy = catalog.reply(
        'too_many_connections',
        `the server is at its connection cap (${ctx.config.maxConnections}); retry shortly`,
        {},
        { 'Retry-After': '1' },
      )
      return send(res, withRate(busy), rc, match.head, started, state, true)
    }
    let body: ParsedBodyOk | undefined
    if (op.requestSchema) {
      const media = mediaProblem(req.headers['content-type'])
      const read = await readBody(req)
      if (read.kind === 'gone') {
        res.destroy()
        return
      }
      if (read.kind === 'too_large') {
        send(
          res,
          withRate(catalog.reply('payload_too_large', `body is over ${MAX_BODY_BYTES} bytes (64 KiB)`)),
          rc,
          false,
          started,
          state,
          read.aborted,
        )
        if (read.aborted) req.destroy()
        return
      }
      if (media) return send(res, withRate(catalog.reply('unsupported_media_type', media)), rc, false, started, state)
      let text: string
      try {
        text = utf8.decode(read.bytes)
      } catch {
        return send(res, withRate(catalog.reply('invalid_json', 'body is not valid UTF-8')), rc, false, started, state)
      }
      if (text.trim() === '')
        return send(res, withRate(catalog.reply('invalid_json', 'body is empty; send a JSON object')), rc, false, started, state)
      const parsed = deps.parseBody(text)
      if (!parsed.ok) {
        const message =
          parsed.field !== null && parsed.code === 'invalid_field' && !parsed.message.includes(parsed.field)
            ? `invalid field "${parsed.field}": ${parsed.message}`
            : parsed.message
        if (parsed.code === 'invalid_field' && handler.refuseBody)
          return send(res, withRate(handler.refuseBody(message)), rc, false, started, state)
        return send(res, withRate(catalog.reply(parsed.code, message)), rc, false, started, state)
      }
      body = parsed
    } else req.resume()

    const out = handler({ method, path, query, ...(body ? { body } : {}), state })
    const reply = withRate(out instanceof Promise ? await out : out)
    // Nothing is answered before the state it reports is on disk (a commit failure is a 500 below).
    const pending = committed?.()
    if (pending) await pending
    send(res, reply, rc, match.head, started, state)
  }

  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err)
      process.stderr.write(`oec serve: internal error on ${req.method} ${req.url}: ${message.split('\n')[0]}\n`)
      if (!res.headersSent) {
        const r = catalog.reply('internal_error', 'internal error')
        const text = JSON.stringify(r.body)
        // A fault is an error response too: a rate-limited endpoint still carries its window headers.
        const match = router.match((req.method ?? 'GET').toUpperCase(), target(req.url).path)
        const category = match.kind === 'route' ? match.route.op.rateLimit?.category : undefined
        res.writeHead(r.status, {
          ...(category ? ctx.anonymousRateHeaders(category) : {}),
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(text),
        })
        res.end(req.method === 'HEAD' ? undefined : text)
      } else res.end()
    })
  }
}
