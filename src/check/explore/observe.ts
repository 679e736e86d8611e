/**
 * What an answer shows, read the same way for the target and the reference: the outcome class
 * the rule catalog distinguishes (accepted, a business rejection, an auth refusal, a rate limit,
 * a cap, a reused nonce, another refusal, not now (503), a server error), the per-item classes of a batch or a
 * perp action, and the headers a rule states. Pure: an exchange in, a value out.
 */
import type { HttpExchange } from '../target/http.ts'
import type { Sent } from './fields.ts'

export type Outcome = 'accepted' | 'rejected' | 'auth' | 'rate' | 'cap' | 'nonce' | 'refused' | 'unavailable' | 'server' | 'none'

export interface Observed {
  readonly status: number
  readonly outcome: Outcome
  /** Per item of a batch or a perp action, when the request as a whole was answered 200. */
  readonly items?: readonly Outcome[]
  readonly headers: Readonly<Record<string, string>>
  readonly json?: unknown
  /** The request as this side sent it: what the stated fields an answer echoes are held to (fields.ts). */
  readonly sent?: Sent
}

const AUTH_MESSAGE =
  /signature verification failed|unauthorized|not authorized|unknown signer|does not exist|no such user|must send vaultaddress/i

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The class of an HTTP error answer (or of a 200 REJECTED order result carrying the cap's legacy error). */
function errorOutcome(status: number, body: unknown): Outcome {
  const b = isObj(body) ? body : {}
  if (b.error === 'limit_exceeded' || b.code === 'limit_exceeded') return 'cap'
  if (status === 429) return 'rate'
  // The spec's 503 on a write (the server cannot save state now, Retry-After): "not now", nothing changed.
  if (status === 503) return 'unavailable'
  if (status >= 500) return 'server'
  if (status === 401 || status === 403) return 'auth'
  if (status === 409) return 'nonce'
  return 'refused'
}

/** One order or cancel result: ACKED/CANCELED accepted, REJECTED (a cap's rejection apart). */
function resultOutcome(r: unknown): Outcome {
  if (!isObj(r)) return 'none'
  if (r.status === 'ACKED' || r.status === 'CANCELED') return 'accepted'
  if (r.status === 'REJECTED') {
    if (r.error === 'limit_exceeded' || r.code === 'limit_exceeded') return 'cap'
    if (r.code === 'nonce_reused') return 'nonce'
    return 'rejected'
  }
  if (typeof r.code === 'string' || typeof r.error === 'string') return errorOutcome(Number(r.http_status ?? 400), r)
  return 'none'
}

/** One status of a perp answer: the venue answers a cancel that took effect with the string "success". */
function perpStatus(s: unknown): Outcome {
  if (s === 'success') return 'accepted'
  if (!isObj(s)) return 'none'
  if (isObj(s.resting) || isObj(s.filled) || s.success !== undefined) return 'accepted'
  if (typeof s.error === 'string') return 'rejected'
  return 'accepted'
}

export type AnswerKind = 'order' | 'cancel' | 'batch' | 'replace' | 'agent' | 'perp' | 'read'

function sentOf(e: HttpExchange): Sent {
  let body: unknown
  try {
    body = e.request.body === undefined ? undefined : JSON.parse(e.request.body)
  } catch {
    // A body sent malformed on purpose echoes nothing.
  }
  return { method: e.request.method, path: new URL(e.request.url, 'http://x').pathname, ...(body !== undefined ? { body } : {}) }
}

/** Reads an exchange as `kind`; a transport failure is `none` with status 0. */
export function observe(e: HttpExchange, kind: AnswerKind): Observed {
  const res = e.response
  if (!res) return { status: 0, outcome: 'none', headers: {} }
  const base = { status: res.status, headers: res.headers, ...(res.json !== undefined ? { json: res.json } : {}), sent: sentOf(e) }
  if (res.status >= 300) return { ...base, outcome: errorOutcome(res.status, res.json) }
  const body = res.json
  switch (kind) {
    case 'order':
    case 'cancel':
      return { ...base, outcome: resultOutcome(body) }
    case 'batch': {
      const results = isObj(body) && Array.isArray(body.results) ? body.results : undefined
      if (!results) return { ...base, outcome: 'none' }
      const items = results.map(resultOutcome)
      return { ...base, outcome: items.includes('accepted') ? 'accepted' : 'rejected', items }
    }
    case 'replace': {
      const results = isObj(body) && Array.isArray(body.results) ? body.results : undefined
      if (!results) return { ...base, outcome: 'none' }
      // A replacement is taken when its new order is.
      const items = results.map((r) => resultOutcome(isObj(r) ? r.order : undefined))
      return { ...base, outcome: items.includes('accepted') ? 'accepted' : 'rejected', items }
    }
    case 'agent':
      return { ...base, outcome: 'accepted' }
    case 'perp': {
      if (!isObj(body)) return { ...base, outcome: 'none' }
      if (body.status === 'err') {
        const text = typeof body.response === 'string' ? body.response : ''
        return { ...base, outcome: AUTH_MESSAGE.test(text) ? 'auth' : /nonce/i.test(text) ? 'nonce' : 'refused' }
      }
      const data = isObj(body.response) && isObj(body.response.data) ? body.response.data : undefined
      const items = Array.isArray(data?.statuses) ? data.statuses.map(perpStatus) : undefined
      return { ...base, outcome: body.status === 'ok' ? 'accepted' : 'none', ...(items ? { items } : {}) }
    }
    case 'read':
      return { ...base, outcome: 'accepted' }
  }
}

/** Whether an answer took effect (a state change happened): the order, cancel or approval went through. */
export function tookEffect(o: Observed): boolean {
  return o.outcome === 'accepted' && (o.items === undefined || o.items.includes('accepted'))
}
