/**
 * `startProxy`: the validation proxy as a library object. Forwards every exchange unchanged
 * (forward.ts), then checks it against the contract (request-checks.ts, response-checks.ts) and
 * reports each violation as it is found, attributed to the client or the server.
 */
import { contractFor, type Contract } from '../contract/index.ts'
import { InputError } from '../errors.ts'
import type { CaseResult, RunSummary } from '../report/model.ts'
import { compileValidators } from '../server/validate.ts'
import type { DomainOverrides } from '../signing/index.ts'
import { createForwarder } from './forward.ts'
import type { ProxiedExchange, Violation } from './model.ts'
import { exchangeResults } from './report.ts'
import { checkRequest, type CheckContext } from './request-checks.ts'
import { checkResponse } from './response-checks.ts'
import { createProxySession } from './session.ts'

export interface ProxyOptions {
  /** The server to forward to: `http://host:port` or `https://host`. */
  target: string
  /** Headers added to every forwarded request (a gateway's key), replacing the client's of the same name. */
  headers?: readonly (readonly [string, string])[]
  port?: number
  host?: string
  spec?: Contract | string
  /** The options domain the target signs, over the contract's (its --domain-name, --chain-id). */
  domain?: DomainOverrides | undefined
  /** Time limit of one signature diagnosis (default 500 ms). */
  explainMs?: number
  onViolation?: (v: Violation) => void
  /** The proxy's own trouble (the target does not answer). */
  onError?: (message: string) => void
}

export interface RunningProxy {
  url: string
  port: number
  /** Exchanges checked so far. */
  exchanges(): number
  /** Every violation so far, in the order found. */
  violations(): readonly Violation[]
  /** The session as the shared result model (one pass per clean exchange, one result per violation). */
  summary(): RunSummary
  /** Resolves when every exchange received so far has been checked. */
  idle(): Promise<void>
  close(): Promise<void>
}

export async function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  let target: URL
  try {
    target = new URL(opts.target)
  } catch {
    throw new InputError(`--target must be a URL such as http://127.0.0.1:8080, not ${JSON.stringify(opts.target)}`)
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new InputError(`--target must be an http:// or https:// URL (got ${target.protocol})`)
  const contract = contractFor(opts.spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'oec proxy')
  const ctx: CheckContext = {
    contract,
    validators: compileValidators(contract),
    session: createProxySession(),
    domain: opts.domain,
    explainMs: opts.explainMs ?? 500,
  }
  const violations: Violation[] = []
  let exchanges = 0
  const results: CaseResult[] = []
  const startedAt = new Date().toISOString()
  const started = performance.now()

  const onExchange = (ex: ProxiedExchange) => {
    exchanges++
    let found: Violation[]
    let operationId: string | undefined
    try {
      const req = checkRequest(ctx, ex)
      operationId = req.facts?.op.operationId
      found = [...req.violations, ...checkResponse(ctx, ex, req.facts)]
    } catch (err) {
      opts.onError?.(`#${ex.seq} could not be checked: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`)
      return
    }
    violations.push(...found)
    results.push(...exchangeResults(ex, found, operationId))
    for (const v of found) opts.onViolation?.(v)
  }

  const fwd = createForwarder(target, onExchange, (m) => opts.onError?.(m), opts.headers)
  const host = opts.host ?? '127.0.0.1'
  const port = opts.port ?? 0
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) =>
      reject(
        new InputError(
          err.code === 'EADDRINUSE'
            ? `port ${port} on ${host} is already in use (pick another with --port, or 0 for any free port)`
            : `cannot listen on ${host}:${port}: ${err.message}`,
        ),
      )
    fwd.server.once('error', onError)
    fwd.server.listen(port, host, () => {
      fwd.server.off('error', onError)
      resolve()
    })
  })
  const address = fwd.server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    port: actual,
    exchanges: () => exchanges,
    violations: () => violations,
    summary: () => ({
      suite: 'oec proxy',
      target: target.toString().replace(/\/$/, ''),
      results: [...results],
      startedAt,
      durationMs: Math.round(performance.now() - started),
    }),
    idle: () => fwd.idle(),
    close: () => fwd.close(),
  }
}
