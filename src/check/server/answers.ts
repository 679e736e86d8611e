/**
 * Reading the target's answers: status, JSON body, catalog code, success and rejection as the
 * spec's result types say them, and the rate-limit headers.
 */
import { isObject, RATE_LIMIT_HEADERS } from '../../contract/index.ts'
import type { HttpExchange } from '../target/http.ts'
import type { KnownErrorCode } from '../../contract/generated/errors.ts'
import type { AgentChange, CancelResult, OrderResult, PerpResponse } from '../../contract/generated/types.ts'

export function statusOf(e: HttpExchange): number {
  return e.response?.status ?? 0
}

export function jsonOf(e: HttpExchange): Record<string, unknown> | undefined {
  const j = e.response?.json
  return isObject(j) ? (j as Record<string, unknown>) : undefined
}

export function codeOf(e: HttpExchange): string | undefined {
  const c = jsonOf(e)?.code
  return typeof c === 'string' ? c : undefined
}

/** Whether a value read from a response is one of these catalog codes (a misspelled code does not compile). */
export function isCode(value: unknown, ...codes: readonly KnownErrorCode[]): boolean {
  return typeof value === 'string' && (codes as readonly string[]).includes(value)
}

/** Whether the response's `code` is one of these catalog codes. */
export function hasCode(e: HttpExchange, ...codes: readonly KnownErrorCode[]): boolean {
  return isCode(codeOf(e), ...codes)
}

/** The `status` of a response body that says the operation took effect, from the spec's result types. */
type SuccessStatus = Exclude<
  OrderResult['status'] | CancelResult['status'] | AgentChange['status'] | PerpResponse['status'],
  'REJECTED' | 'err'
>
const SUCCESS_STATUSES = new Set<string>(['ACKED', 'CANCELED', 'approved', 'revoked', 'ok'] satisfies SuccessStatus[])

/** A result (a body, a batch slot, a replacement's pair) that says the operation took effect; no status is no success. */
function slotSucceeded(v: unknown): boolean {
  if (!isObject(v)) return false
  if (typeof v.status === 'string') return SUCCESS_STATUSES.has(v.status)
  if (isObject(v.cancel) && isObject(v.order)) return slotSucceeded(v.cancel) && slotSucceeded(v.order)
  return false
}

/**
 * A 2xx whose body says the operation took effect (an order ACKED, an agent approved, a perp
 * `ok`, every slot of a batch): a 200 without a status says nothing, so it is not a success.
 */
export function succeeded(e: HttpExchange): boolean {
  const s = statusOf(e)
  if (s < 200 || s > 299) return false
  const body = jsonOf(e)
  if (Array.isArray(body?.results)) return body.results.length > 0 && body.results.every(slotSucceeded)
  return slotSucceeded(body)
}

/** A 2xx that answers with a rejection: `status` REJECTED (or a perp `err`), or every slot of a batch so. */
export function rejectedResult(e: HttpExchange): boolean {
  const s = statusOf(e)
  if (s < 200 || s > 299) return false
  const rejected = (v: unknown): boolean =>
    isObject(v) &&
    (v.status === ('REJECTED' satisfies OrderResult['status']) ||
      v.status === ('err' satisfies PerpResponse['status']) ||
      (isObject(v.cancel) && isObject(v.order) && (rejected(v.cancel) || rejected(v.order))))
  const body = jsonOf(e)
  if (Array.isArray(body?.results)) return body.results.length > 0 && body.results.every(rejected)
  return rejected(body)
}

export function orderStatus(e: HttpExchange): string | undefined {
  const s = jsonOf(e)?.status
  return typeof s === 'string' ? s : undefined
}

export interface RateHeaders {
  readonly limit?: number | undefined
  readonly remaining?: number | undefined
  readonly reset?: number | undefined
  readonly retryAfter?: number | undefined
  /** Names of the X-RateLimit-* headers that are missing. */
  readonly missing: string[]
}

function intHeader(e: HttpExchange, name: string): number | undefined {
  const v = e.response?.headers[name.toLowerCase()]
  if (v === undefined || !/^\s*\d+\s*$/.test(v)) return undefined
  return Number(v)
}

export function rateHeaders(e: HttpExchange): RateHeaders {
  const H = RATE_LIMIT_HEADERS
  const limit = intHeader(e, H.limit)
  const remaining = intHeader(e, H.remaining)
  const reset = intHeader(e, H.reset)
  const retryAfter = intHeader(e, H.retryAfter)
  const missing = [
    [H.limit, limit],
    [H.remaining, remaining],
    [H.reset, reset],
  ]
    .filter(([, v]) => v === undefined)
    .map(([n]) => String(n))
  return {
    limit,
    remaining,
    reset,
    retryAfter,
    missing,
  }
}
