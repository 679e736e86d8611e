/**
 * The scenario server: a front on 127.0.0.1 between one client under test and the reference
 * server (used as a library, shared by every scenario). It tags each request with the task the
 * client is working on, answers it from the task's script when a step is left (the reference
 * server never sees a scripted request, so no nonce is consumed by it), else forwards it, and
 * records every exchange with monotonic timestamps for the checks and the timeline.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { isLosslessNumber, parse as losslessParse } from 'lossless-json'
import { RATE_LIMIT_HEADERS, type FullContract } from '../../../contract/index.ts'
import { ErrorCatalog } from '../../../server/catalog.ts'
import type { Reply } from '../../../server/reply.ts'
import type { ScriptedAnswer } from './scenarios.ts'

export interface RecordedExchange {
  /** The task the client was working on when the request came in (null before the first task). */
  readonly task: string | null
  /** Arrival of the request's headers, ms on the run's clock. */
  readonly at: number
  readonly method: string
  readonly path: string
  readonly body: string
  readonly wallet: string | null
  /** The nonce's decimal digits, exactly as sent. */
  readonly nonce: string | null
  readonly hasRoute: boolean
  readonly scripted: ScriptedAnswer | null
  /** When the answer was written (or the connection closed), ms on the run's clock. */
  answeredAt: number | null
  /** null: no answer (the connection was closed). */
  status: number | null
  headers: Record<string, string>
  response: string | null
}

export interface ScenarioServer {
  readonly url: string
  readonly exchanges: RecordedExchange[]
  /** Requests from now on belong to this task; its script answers them first. */
  setTask(id: string, script: readonly ScriptedAnswer[]): void
  close(): Promise<void>
}

/** A code that no catalog lists, for the unknown-code step (a new one if the catalog ever adopts it). */
export function unknownCode(contract: FullContract): string {
  const known = new Set(contract.catalog.map((e) => String(e.code)))
  let code = 'order_entry_paused'
  while (known.has(code)) code += '_v2'
  return code
}

/** The reason of the scripted REJECTED answer: it reads like an error code on purpose (ERR-11: never parsed). */
export const ERROR_LIKE_REASON = 'error: rate_limit_exceeded (code 429) - insufficient margin, retry later'

/** The scripted reply of a step (slow and close are not replies of their own). */
export function scriptedReply(contract: FullContract, step: ScriptedAnswer, nowMs: number): Reply {
  const catalog = new ErrorCatalog(contract)
  switch (step.kind) {
    case 'rate-limited': {
      const tier = contract.rateLimits.tiers[contract.rateLimits.defaultTier]
      const limit = tier?.ordersPerMinute ?? 60
      return catalog.reply(
        'rate_limit_exceeded',
        `rate limit exceeded (scripted); retry in ${step.retryAfter} s`,
        { retry_after_secs: step.retryAfter, limit },
        {
          [RATE_LIMIT_HEADERS.limit]: String(limit),
          [RATE_LIMIT_HEADERS.remaining]: '0',
          [RATE_LIMIT_HEADERS.reset]: String(Math.ceil(nowMs / 1000) + step.retryAfter),
          [RATE_LIMIT_HEADERS.retryAfter]: String(step.retryAfter),
        },
      )
    }
    case 'unavailable': {
      const entry = contract.catalog.find((e) => e.surface === 'http' && e.httpStatus.includes(503))
      const body: Record<string, unknown> = { code: entry?.code ?? 'not_ready', message: 'service unavailable (scripted); retry later' }
      return { status: 503, headers: { [RATE_LIMIT_HEADERS.retryAfter]: String(step.retryAfter) }, body }
    }
    case 'unknown-code':
      return {
        status: 422,
        headers: {},
        body: { code: unknownCode(contract), message: 'order entry is paused for this instrument (scripted)' },
      }
    case 'rejected':
      return { status: 200, headers: {}, body: { status: 'REJECTED', reason: ERROR_LIKE_REASON } }
    case 'slow':
    case 'close':
      throw new Error(`step ${step.kind} has no reply of its own`)
  }
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

/** wallet, nonce digits and whether route is present, read losslessly (the nonce may pass 2^53). */
function facts(body: string): { wallet: string | null; nonce: string | null; hasRoute: boolean } {
  try {
    const v = losslessParse(body) as Record<string, unknown> | null
    if (v === null || typeof v !== 'object') return { wallet: null, nonce: null, hasRoute: false }
    const n = v.nonce
    return {
      wallet: typeof v.wallet === 'string' ? v.wallet.toLowerCase() : null,
      nonce: isLosslessNumber(n) ? (n as { value: string }).value : typeof n === 'string' ? n : null,
      hasRoute: 'route' in v,
    }
  } catch {
    return { wallet: null, nonce: null, hasRoute: false }
  }
}

interface Forwarded {
  status: number
  headers: Record<string, string>
  body: string
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date'])

function forward(target: string, method: string, path: string, headers: IncomingMessage['headers'], body: string): Promise<Forwarded> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${target}${path}`,
      { method, headers: { 'content-type': headers['content-type'] ?? 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const out: Record<string, string> = {}
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v
          resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks).toString('utf8') })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

export async function startScenarioServer(opts: {
  contract: FullContract
  /** The reference server's base URL. */
  target: string
  /** The run's clock (ms). */
  now: () => number
}): Promise<ScenarioServer> {
  const exchanges: RecordedExchange[] = []
  let task: string | null = null
  let script: ScriptedAnswer[] = []
  const sockets = new Set<import('node:net').Socket>()

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const at = opts.now()
    const method = (req.method ?? 'GET').toUpperCase()
    const path = req.url ?? '/'
    const body = await readAll(req)
    const step = script.shift() ?? null
    const ex: RecordedExchange = {
      task,
      at,
      method,
      path,
      body,
      ...facts(body),
      scripted: step,
      answeredAt: null,
      status: null,
      headers: {},
      response: null,
    }
    exchanges.push(ex)
    if (step?.kind === 'close') {
      ex.answeredAt = opts.now()
      req.socket.destroy()
      return
    }
    let reply: Forwarded
    if (step === null || step.kind === 'slow') {
      reply = await forward(opts.target, method, path, req.headers, body)
      if (step?.kind === 'slow') await new Promise((r) => setTimeout(r, step.ms))
    } else {
      const r = scriptedReply(opts.contract, step, Date.now())
      reply = { status: r.status, headers: r.headers, body: JSON.stringify(r.body) }
    }
    ex.status = reply.status
    ex.headers = Object.fromEntries(Object.entries(reply.headers).map(([k, v]) => [k.toLowerCase(), v]))
    ex.response = reply.body
    ex.answeredAt = opts.now()
    res.writeHead(reply.status, {
      ...reply.headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(reply.body)),
    })
    res.end(reply.body)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // The reference server is in this process: failing to reach it is the checker's fault, never the client's.
      const message = err instanceof Error ? err.message : String(err)
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ code: 'internal_error', message: `scenario server: ${message}` }))
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    setTask(id, steps) {
      task = id
      script = [...steps]
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const s of sockets) s.destroy()
      })
    },
  }
}
