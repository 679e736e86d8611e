/**
 * What a check expects of an answer, as failures and warnings: taken, authenticated, refused
 * (the refusal classes of DECISIONS: auth_refused = 401 or 403, "refused" = any 4xx, never a 2xx
 * success), perp refusals; a refusal the reference would explain is explained.
 */
import type { HttpExchange } from '../target/http.ts'
import type { CheckContext, FailOptions } from './types.ts'
import { brief } from './context.ts'
import { refusedRequestNote } from '../../explain/note.ts'
import type { KnownErrorCode } from '../../contract/generated/errors.ts'
import { codeOf, isCode, jsonOf, rejectedResult, statusOf, succeeded } from './answers.ts'

/** The operation must have taken effect (ACKED, approved, ...). */
export function expectSuccess(ctx: CheckContext, e: HttpExchange, what: string, o: FailOptions = {}): void {
  if (succeeded(e)) return
  ctx.fail(`${what}: expected it to be accepted, got ${brief(e)}${whyRefused(ctx, e)}`, {
    expected: o.expected ?? 'HTTP 200 and a success status (ACKED / approved / revoked / ok)',
    exchange: e,
    ...o,
  })
}

/** An auth refusal of a request the runner signed: whether it verifies under the contract (then the server is at fault), from the explain engine. */
function whyRefused(ctx: CheckContext, e: HttpExchange): string {
  const s = statusOf(e)
  if ((s !== 401 && s !== 403) || e.request.body === undefined) return ''
  const note = refusedRequestNote(ctx.spec, e.request.body, {
    path: new URL(e.request.url).pathname,
    method: e.request.method,
    domain: { name: ctx.target.domainName, chainId: ctx.target.chainId },
  })
  return note ? `; ${note}` : ''
}

/** A valid signature must pass authentication: HTTP 200 (ACKED or a business REJECTED). */
export function expectAuthenticated(ctx: CheckContext, e: HttpExchange, what: string, o: FailOptions = {}): void {
  const s = statusOf(e)
  if (s >= 200 && s < 300) return
  ctx.fail(`${what}: expected it to pass authentication (HTTP 200), got ${brief(e)}${whyRefused(ctx, e)}`, {
    expected: 'HTTP 200 with an order result',
    exchange: e,
    ...o,
  })
}

export interface RefusalOptions extends FailOptions {
  /** Codes accepted without a warning (assumed naming); any other 4xx is a warning. */
  readonly codes?: readonly KnownErrorCode[]
}

/**
 * The request must be refused: never a 2xx that took effect, never a 5xx. A 2xx REJECTED is
 * accepted with a warning (the seed's HTTP statuses for refusals are assumed).
 */
export function expectRefused(ctx: CheckContext, e: HttpExchange, what: string, o: RefusalOptions = {}): void {
  const s = statusOf(e)
  const expected = o.expected ?? (o.codes?.length ? `a 4xx with code ${o.codes.join(' or ')}` : 'a 4xx refusal')
  if (s >= 500) ctx.fail(`${what}: expected a refusal, got a server error ${brief(e)}`, { ...o, expected, exchange: e })
  if (s >= 200 && s < 300) {
    if (succeeded(e)) ctx.fail(`${what}: expected a refusal, but it was accepted (${brief(e)})`, { ...o, expected, exchange: e })
    if (!rejectedResult(e))
      ctx.fail(`${what}: expected a refusal, got a 2xx that does not say REJECTED (${brief(e)})`, { ...o, expected, exchange: e })
    ctx.warn(`${what}: refused with ${brief(e)}; expected ${expected}`, { ...o, expected, exchange: e, level: 'assumed' })
    return
  }
  if (s < 400) ctx.fail(`${what}: expected a refusal, got ${brief(e)}`, { ...o, expected, exchange: e })
  const code = codeOf(e)
  if (o.codes?.length && !isCode(code, ...o.codes)) {
    ctx.warn(`${what}: refused with ${brief(e)}; expected code ${o.codes.join(' or ')}`, { ...o, expected, exchange: e, level: 'assumed' })
  }
}

/** The messages the seed states for the two auth refusals, from the spec's catalog. */
function authMessages(ctx: CheckContext): Map<string, string> {
  const m = new Map<KnownErrorCode, string>()
  for (const code of AUTH_REFUSAL_CODES) {
    const message = ctx.spec.catalog.find((c) => c.code === code)?.message
    if (message) m.set(code, message)
  }
  return m
}

/** The two codes of an auth refusal: 401 first, then 403. */
const AUTH_REFUSAL_CODES: readonly KnownErrorCode[] = ['signature_verification_failed', 'unauthorized']

/** auth_refused: 401 signature_verification_failed or 403 unauthorized, each with its own message. */
export function expectAuthRefused(ctx: CheckContext, e: HttpExchange, what: string, o: FailOptions = {}): void {
  const messages = authMessages(ctx)
  const codes = AUTH_REFUSAL_CODES.filter((c) => messages.has(c))
  expectRefused(ctx, e, what, { ...o, codes, expected: o.expected ?? `auth_refused: HTTP 401 ${codes[0]} or HTTP 403 ${codes[1] ?? ''}` })
  const s = statusOf(e)
  if (s === 200) return
  const code = codeOf(e)
  const message = jsonOf(e)?.message
  const stated = [...messages.values()]
  if (code && messages.has(code) && message !== messages.get(code)) {
    if (typeof message === 'string' && stated.includes(message)) {
      ctx.warn(`${what}: code ${code} came with the other auth message ${JSON.stringify(message)}`, { exchange: e, level: 'assumed' })
    } else {
      ctx.fail(`${what}: refusal message ${JSON.stringify(message)} is not the stated ${JSON.stringify(messages.get(code))}`, {
        exchange: e,
        expected: `message ${JSON.stringify(messages.get(code))}`,
        rules: ['SIGFAIL-6', 'AUTH-4'],
      })
    }
  }
  if (![401, 403].includes(s) && s >= 400 && s < 500) {
    // Not an auth status; expectRefused already warned about the code.
  }
}

/** The auth code a perp `{status: "err"}` envelope stands for, by the stated message it carries. */
export function envelopeAuthCode(ctx: CheckContext, e: HttpExchange): string | undefined {
  const j = jsonOf(e)
  if (statusOf(e) !== 200 || j?.status !== 'err' || typeof j.response !== 'string') return undefined
  for (const [code, message] of authMessages(ctx)) if (j.response === message) return code
  return undefined
}

/**
 * A perp request must be refused (stated: never accepted, never a 5xx). The venue answers a
 * refusal with HTTP 200 `{status: "err", response}`, which its SDKs turn into their API error;
 * an HTTP 4xx instead (assumed envelope) or, for `auth`, another message only warns.
 */
export function expectPerpRefused(ctx: CheckContext, e: HttpExchange, what: string, o: FailOptions & { auth?: boolean } = {}): void {
  const s = statusOf(e)
  const expected = o.expected ?? 'HTTP 200 {"status":"err","response":...}'
  if (s >= 500) return ctx.fail(`${what}: expected a refusal, got a server error ${brief(e)}`, { ...o, expected, exchange: e })
  if (s === 200 && jsonOf(e)?.status === 'err') {
    if (o.auth && !envelopeAuthCode(ctx, e)) {
      const stated = [...authMessages(ctx).values()].map((m) => JSON.stringify(m)).join(' or ')
      ctx.warn(`${what}: refused with ${brief(e)}; expected the stated message ${stated}`, {
        ...o,
        expected,
        exchange: e,
        level: 'assumed',
        rules: ['SIGFAIL-6', 'AUTH-4'],
      })
    }
    return
  }
  if (succeeded(e)) return ctx.fail(`${what}: expected a refusal, but it was accepted (${brief(e)})`, { ...o, expected, exchange: e })
  if (s >= 400 && s < 500) {
    return ctx.warn(`${what}: refused with ${brief(e)}; the venue's SDKs raise their API error only on HTTP 200 {"status":"err"}`, {
      ...o,
      expected,
      exchange: e,
      level: 'assumed',
      rules: ['PERP-8'],
    })
  }
  ctx.fail(`${what}: expected a refusal, got ${brief(e)}`, { ...o, expected, exchange: e })
}
