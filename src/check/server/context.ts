/**
 * The per-case context: records the exchanges of one case, turns `fail`/`warn`/`skip` into a
 * `CaseResult` with the request sent, the response, what was expected and a `curl` command.
 */
import type { CaseResult, Level, Outcome } from '../../report/model.ts'
import type { FullContract } from '../../contract/index.ts'
import { curlCommand } from '../target/curl.ts'
import type { HttpExchange, HttpClient } from '../target/http.ts'
import type { Rng } from './rng.ts'
import type { CaseOptions, Check, CheckContext, FailOptions, TargetInfo } from './types.ts'
import { walletFromKey, type NonceBook, type Wallet } from '../target/wallets.ts'

class CaseStop extends Error {
  constructor(
    readonly kind: 'fail' | 'skip',
    message: string,
    readonly options: FailOptions = {},
  ) {
    super(message)
  }
}

export interface RunShared {
  readonly target: TargetInfo
  readonly spec: FullContract
  readonly http: HttpClient
  readonly nonces: NonceBook
  readonly slow: boolean
  readonly rngFor: (label: string) => Rng
  /** The key of a fresh wallet by label (`<case id>#<n>`): the same wallets whatever runs beside the case. */
  readonly walletKey: (label: string) => `0x${string}`
  readonly emit: (r: CaseResult) => void
  /** Every exchange a case sends (the run's history is made of them, check by check). */
  readonly record: (e: HttpExchange) => void
  readonly history: () => readonly HttpExchange[]
  /** Whether a (sub-)case id is selected by --only/--skip. */
  readonly selects: (id: string) => boolean
}

const BODY_LIMIT = 4000

function clip(s: string): string {
  return s.length > BODY_LIMIT ? `${s.slice(0, BODY_LIMIT)}… (${s.length} chars)` : s
}

export function describeRequest(e: HttpExchange): string {
  const r = e.request
  const headers = Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`)
  return [`${r.method} ${r.url}`, ...headers, ...(r.body !== undefined ? ['', clip(r.body)] : [])].join('\n')
}

export function describeResponse(e: HttpExchange): string {
  if (!e.response) return `no response: ${e.error ?? 'unknown error'}`
  const headers = Object.entries(e.response.headers)
    .filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k))
    .map(([k, v]) => `${k}: ${v}`)
  return [`HTTP ${e.response.status}`, ...headers, '', clip(e.response.body)].join('\n')
}

/** One line summary of a response: `HTTP 401 signature_verification_failed "Signature verification failed"`. */
export function brief(e: HttpExchange | undefined): string {
  if (!e) return 'nothing sent'
  if (!e.response) return `no response (${e.error ?? 'error'})`
  const j = e.response.json as Record<string, unknown> | undefined
  const code = j && typeof j === 'object' ? (j.code ?? j.error ?? (typeof j.status === 'string' ? j.status : undefined)) : undefined
  const msg = j && typeof j === 'object' ? (j.message ?? j.reason) : undefined
  return `HTTP ${e.response.status}${code !== undefined ? ` ${String(code)}` : ''}${typeof msg === 'string' ? ` ${JSON.stringify(msg.length > 120 ? msg.slice(0, 120) + '…' : msg)}` : ''}`
}

/** Runs one case (a whole check, or a sub-case) and emits its result. */
export async function runCase(
  shared: RunShared,
  id: string,
  title: string,
  rules: readonly string[],
  level: Level,
  fn: (ctx: CheckContext) => Promise<void>,
  rngLabel: string,
): Promise<CaseResult | undefined> {
  const log: HttpExchange[] = []
  const warnings: { message: string; options: FailOptions }[] = []
  let subCases = 0
  let wallets = 0
  const started = performance.now()
  const ctx: CheckContext = {
    target: shared.target,
    spec: shared.spec,
    http: shared.http,
    rng: shared.rngFor(rngLabel),
    slow: shared.slow,
    log,
    history: shared.history,
    wallet: (): Wallet => walletFromKey(shared.walletKey(`${rngLabel}#${wallets++}`)),
    nonce: (w) => shared.nonces.take(typeof w === 'string' ? w : w.address),
    async send(method, path, body, headers) {
      const e = await shared.http.send(method, path, { body, headers })
      log.push(e)
      shared.record(e)
      if (!e.response)
        throw new CaseStop('fail', `${method} ${path}: no response from the target (${e.error ?? 'connection failed'})`, { exchange: e })
      return e
    },
    async sendRaw(method, path, options) {
      const e = await shared.http.send(method, path, options)
      log.push(e)
      shared.record(e)
      return e
    },
    fail(message, options) {
      throw new CaseStop('fail', message, options)
    },
    warn(message, options = {}) {
      warnings.push({ message, options })
    },
    skip(reason) {
      throw new CaseStop('skip', reason)
    },
    async case(subId, subTitle, subFn, options: CaseOptions = {}) {
      subCases++
      if (!shared.selects(`${id}/${subId}`)) return
      await runCase(shared, `${id}/${subId}`, subTitle, options.rules ?? rules, options.level ?? level, subFn, `${rngLabel}/${subId}`)
    },
  }

  let outcome: Outcome = 'pass'
  let message: string | undefined
  let focus: FailOptions = {}
  try {
    await fn(ctx)
  } catch (err) {
    if (err instanceof CaseStop) {
      focus = err.options
      message = err.message
      if (err.kind === 'skip') outcome = 'skip'
      else outcome = (err.options.level ?? level) === 'stated' ? 'fail' : 'warn'
    } else {
      outcome = 'fail'
      message = `the check itself crashed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`
    }
  }
  if (outcome === 'pass' && warnings.length > 0) {
    outcome = 'warn'
    message = warnings.map((w) => w.message).join('; ')
    focus = warnings[0]!.options
  }
  // A check made only of sub-cases reports through them; it adds a result only when it failed itself.
  if (subCases > 0 && outcome === 'pass') return undefined
  const exchange = focus.exchange ?? log[log.length - 1]
  const details: CaseResult['details'] = {}
  if (outcome === 'fail' || outcome === 'warn') {
    if (focus.expected) details.expected = focus.expected
    if (exchange) {
      details.request = describeRequest(exchange)
      details.response = describeResponse(exchange)
      details.curl = curlCommand(exchange.request)
    }
  }
  const result: CaseResult = {
    id,
    title,
    rules: [...(focus.rules ?? rules)],
    level: focus.level ?? level,
    outcome,
    // Spreads, not plain keys: a result is written to reports, which must not gain undefined keys.
    ...(message !== undefined ? { message } : {}),
    ...(Object.keys(details).length ? { details } : {}),
    durationMs: Math.round(performance.now() - started),
  }
  shared.emit(result)
  return result
}

export function runCheck(shared: RunShared, check: Check): Promise<CaseResult | undefined> {
  return runCase(shared, check.id, check.title, check.rules, check.level, (ctx) => check.run(ctx), check.id)
}
