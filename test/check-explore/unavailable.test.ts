/**
 * The spec's 503 on a write (the server cannot save state now, Retry-After) is "not now" to the
 * explorer: the step is not comparable (the run stops comparing), never a divergence and never
 * read as a server fault; a 500 still is one.
 */
import { describe, expect, it } from 'vitest'
import { compareAnswers } from '../../src/check/explore/compare.ts'
import { observe } from '../../src/check/explore/observe.ts'
import type { HttpExchange } from '../../src/check/target/http.ts'
import { shippedContract } from '../../src/contract/load.ts'
import { ErrorCatalog } from '../../src/server/catalog.ts'

const catalog = new ErrorCatalog(shippedContract())

function answered(status: number, body: unknown, headers: Record<string, string> = {}): HttpExchange {
  const text = JSON.stringify(body)
  return {
    request: { method: 'POST', url: 'http://127.0.0.1/order', headers: {}, body: '{}' },
    response: { status, headers, body: text, json: body },
    durationMs: 1,
  }
}

const acked = observe(answered(200, { status: 'ACKED', order_id: '1', client_id: 'c' }), 'order')
const context = { kind: 'order' as const, rateLimited: false, windowRolled: false }

describe('the explorer reads the spec’s write 503 as "not now"', () => {
  it('a not_ready answer to a write is its own outcome, and against an acceptance the step is not comparable', () => {
    const r = catalog.reply('not_ready', 'the state cannot be saved now (ENOSPC)', {}, { 'Retry-After': '1' })
    const down = observe(answered(r.status, r.body, { 'retry-after': '1' }), 'order')
    expect(down.status).toBe(503)
    expect(down.outcome).toBe('unavailable')
    expect(compareAnswers(down, acked, context)).toBe('rolled')
  })

  it('a 500 is still a server fault and a divergence', () => {
    const r = catalog.reply('internal_error', 'internal error')
    const fault = observe(answered(r.status, r.body), 'order')
    expect(fault.outcome).toBe('server')
    const verdict = compareAnswers(fault, acked, context)
    expect(Array.isArray(verdict) && verdict.length).toBeGreaterThan(0)
  })
})
