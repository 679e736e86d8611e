/**
 * Steps shared by the `rl.*` and `cap.*` checks: the default tier's limits, a resting order, the
 * header checks, using up the order limit, and (on a live target) waiting for a fresh window.
 */
import { RATE_LIMIT_HEADERS, type Tier } from '../../../contract/index.ts'
import { brief } from '../context.ts'
import { expectSuccess } from '../expectations.ts'
import { hasCode, isCode, jsonOf, type RateHeaders, rateHeaders, statusOf, succeeded } from '../answers.ts'
import { orderField, placeOrder } from '../builders.ts'
import type { HttpExchange } from '../../target/http.ts'
import type { CheckContext } from '../types.ts'
import type { Wallet } from '../../target/wallets.ts'

export function defaultTier(ctx: CheckContext): Tier {
  const rl = ctx.spec.rateLimits
  const t = rl.tiers[rl.defaultTier]
  if (!t) throw new Error(`spec: x-rate-limits has no default tier ${rl.defaultTier}`)
  return t
}

export function categoryLimit(ctx: CheckContext, category: string): number {
  const t = defaultTier(ctx)
  return category === 'orders' ? t.ordersPerMinute : category === 'cancels' ? t.cancelsPerMinute : t.apiRequestsPerMinute
}

/** Places a resting order and returns its order id and client id. */
export async function restingOrder(ctx: CheckContext, w: Wallet): Promise<{ orderId: string; clientId: string }> {
  const { e, body } = await placeOrder(ctx, { wallet: w })
  expectSuccess(ctx, e, 'set-up order')
  const orderId = jsonOf(e)?.order_id
  if (typeof orderId !== 'string')
    ctx.fail('an ACKED order result carries no order_id (needed to cancel it)', { level: 'assumed', rules: ['EP-9'], exchange: e })
  const clientId = String(orderField(body, 'client_id') ?? '')
  return { orderId, clientId }
}

/** All three headers present, integers, consistent; Retry-After only on a 429. */
export function checkHeaders(ctx: CheckContext, e: HttpExchange, what: string, category: string): RateHeaders {
  const h = rateHeaders(e)
  if (h.missing.length)
    ctx.fail(`${what}: ${h.missing.join(', ')} missing (${brief(e)})`, {
      exchange: e,
      expected: 'X-RateLimit-Limit, -Remaining and -Reset as integers',
      rules: ['RL-6'],
    })
  if (h.remaining! > h.limit!)
    ctx.fail(`${what}: X-RateLimit-Remaining ${h.remaining} exceeds X-RateLimit-Limit ${h.limit}`, { exchange: e, rules: ['RL-7'] })
  const nowS = ctx.target.now() / 1000
  const window = ctx.spec.rateLimits.windowSeconds
  if (!(h.reset! > nowS - 5 && h.reset! <= nowS + window + 5)) {
    ctx.fail(`${what}: X-RateLimit-Reset ${h.reset} is not a Unix time within the current ${window} s window (now ${Math.floor(nowS)})`, {
      exchange: e,
      rules: ['RL-9'],
    })
  }
  if (statusOf(e) !== 429 && e.response?.headers[RATE_LIMIT_HEADERS.retryAfter.toLowerCase()] !== undefined) {
    ctx.fail(`${what}: Retry-After on a ${statusOf(e)} response (it belongs to 429 only)`, { exchange: e, rules: ['RL-8'] })
  }
  const expected = categoryLimit(ctx, category)
  if (h.limit !== expected) {
    ctx.warn(`${what}: X-RateLimit-Limit ${h.limit}, expected the Default tier's ${category} limit ${expected}`, {
      exchange: e,
      level: 'assumed',
      rules: ['RL-11', 'RL-2'],
    })
  }
  return h
}

/** Sends orders until one is refused; returns the exchanges (the last is the refusal, if any). */
export async function exhaustOrders(ctx: CheckContext, w: Wallet, limit: number): Promise<HttpExchange[]> {
  const out: HttpExchange[] = []
  for (let i = 0; i < limit + 1; i++) {
    const { e } = await placeOrder(ctx, { wallet: w })
    out.push(e)
    if (!succeeded(e)) break
  }
  return out
}

/** On a live target, a burst started near the end of an (epoch-aligned) window would be split: wait for a fresh one. */
export async function freshWindow(ctx: CheckContext): Promise<void> {
  if (ctx.target.embedded) return
  const nowS = ctx.target.now() / 1000
  const window = ctx.spec.rateLimits.windowSeconds
  const left = window - (nowS % window)
  if (left < 15) await ctx.target.waitUntil(Math.ceil(nowS + left))
}

/**
 * What a cap refusal lacks of the stated form (empty: nothing). Whatever the form (a 4xx body, a
 * 200 REJECTED result, a slot of a bulk answer), it carries `error: "limit_exceeded"` and a
 * `message` that states the cap (DECISIONS, revised 2026-11-26).
 */
export function capRefusalProblems(refusal: Readonly<Record<string, unknown>>, cap: number, what = 'cap refusal'): string[] {
  const problems: string[] = []
  if (!isCode(refusal.error, 'limit_exceeded'))
    problems.push(`the ${what} has error ${JSON.stringify(refusal.error)}, not "limit_exceeded"`)
  if (typeof refusal.message !== 'string' || !new RegExp(`(^|\\D)${cap}(\\D|$)`).test(refusal.message))
    problems.push(`the ${what} message ${JSON.stringify(refusal.message)} does not state the cap ${cap}`)
  return problems
}

/**
 * An order beyond a cap was refused as the seed states, whatever the form: never a 5xx; the
 * refusal (a 4xx body, a 200 REJECTED result, or `slot`, the item's result in a bulk answer)
 * carries `error: "limit_exceeded"` and a `message` that states the cap (DECISIONS, revised
 * 2026-11-26); 422 is assumed.
 */
export function expectCapRefusal(
  ctx: CheckContext,
  e: HttpExchange,
  cap: number,
  what: 'cap' | 'positions-cap',
  slot?: Record<string, unknown>,
): void {
  const s = statusOf(e)
  if (s >= 500) ctx.fail(`server error ${brief(e)}`, { exchange: e })
  const refusal = slot ?? jsonOf(e) ?? {}
  const form = slot ? 'bulk slot' : s < 300 ? 'REJECTED result' : `HTTP ${s} body`
  const expected = `{"error":"limit_exceeded","message":"… ${cap} …"${s < 300 ? ',"status":"REJECTED","reason":"…"' : ''}}`
  for (const problem of capRefusalProblems(refusal, cap, `${what} refusal (${form})`))
    ctx.fail(problem, { exchange: e, expected, rules: ['CAP-3', 'ERR-8'] })
  if (!slot && s !== 422 && !hasCode(e, 'limit_exceeded'))
    ctx.warn(`${what} refusal answered ${brief(e)}; the reference answers 422 limit_exceeded`, {
      exchange: e,
      level: 'assumed',
      rules: ['CAP-5'],
    })
}

/** What a 429 lacks of the stated body and headers (empty: nothing). */
export function rateLimitRefusalProblems(e: HttpExchange): string[] {
  const body = jsonOf(e) ?? {}
  const problems: string[] = []
  if (!isCode(body.error, 'rate_limit_exceeded')) problems.push(`error is ${JSON.stringify(body.error)}, not "rate_limit_exceeded"`)
  if (typeof body.message !== 'string') problems.push('message missing')
  if (!Number.isInteger(body.retry_after_secs)) problems.push(`retry_after_secs ${JSON.stringify(body.retry_after_secs)} is not an integer`)
  if (!Number.isInteger(body.limit)) problems.push(`limit ${JSON.stringify(body.limit)} is not an integer`)
  const h = rateHeaders(e)
  if (h.retryAfter === undefined) problems.push('Retry-After header missing')
  if (h.remaining !== 0) problems.push(`X-RateLimit-Remaining is ${h.remaining ?? 'missing'}, not 0`)
  if (h.missing.length) problems.push(`${h.missing.join(', ')} missing`)
  return problems
}

/** The stated 429, for a failure's `expected`. */
export const STATED_429 =
  '{"error":"rate_limit_exceeded","message":…,"retry_after_secs":<int>,"limit":<int>} with Retry-After and X-RateLimit-Remaining: 0'
