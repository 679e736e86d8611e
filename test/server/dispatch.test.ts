/**
 * The in-process door (`dispatch`) answers as the HTTP edge does: for the same requests, sent to
 * two servers in the same state, one over loopback and one in process, the same status, body and
 * headers (the socket's own headers aside). The explorer's oracle relies on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../../src/server/index.ts'
import { signedOrder, start, SYMBOL, wallet, type Started } from './helpers.ts'

let overHttp: Started
let inProcess: Started
beforeAll(async () => {
  ;[overHttp, inProcess] = await Promise.all([start(), start()])
})
afterAll(() => Promise.all([overHttp.close(), inProcess.close()]))

/** Headers that belong to the connection, not the answer. */
const SOCKET_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

async function viaHttp(method: string, url: string, headers: Record<string, string>, body?: string) {
  const r = await fetch(`${overHttp.url}${url}`, { method, headers, ...(body !== undefined ? { body } : {}) })
  const h: Record<string, string> = {}
  r.headers.forEach((v, k) => {
    if (!SOCKET_HEADERS.has(k)) h[k] = v
  })
  return { status: r.status, headers: h, body: await r.text() }
}

describe('dispatch answers as HTTP does', () => {
  const json = { 'content-type': 'application/json' }
  const cases: [string, string, string, Record<string, string>, () => Promise<string | undefined>][] = [
    ['health', 'GET', '/health', {}, async () => undefined],
    ['HEAD on a GET path', 'HEAD', '/health', {}, async () => undefined],
    ['unknown path', 'GET', '/nope', {}, async () => undefined],
    ['wrong method', 'PATCH', '/order', json, async () => '{}'],
    ['a query', 'GET', `/orderbook?symbol=${SYMBOL}`, {}, async () => undefined],
    ['a bad query', 'GET', '/orders?wallet=nope', {}, async () => undefined],
    ['not JSON', 'POST', '/order', json, async () => '{"wallet":'],
    ['empty body', 'POST', '/order', json, async () => ' '],
    ['another media type', 'POST', '/order', { 'content-type': 'text/plain' }, async () => '{}'],
    ['too large', 'POST', '/order', json, async () => `{"wallet":"${'a'.repeat(MAX_BODY_BYTES)}"}`],
    ['a signed order', 'POST', '/order', json, async () => (order ??= await signedOrder(wallet()))],
    // The same bytes again: the nonce is consumed on both servers.
    ['the same order again', 'POST', '/order', json, async () => order],
  ]
  let order: string | undefined
  for (const [name, method, url, headers, bodyOf] of cases) {
    it(name, async () => {
      const body = await bodyOf()
      const a = await viaHttp(method, url, headers, body)
      const b = await inProcess.dispatch({ method, url, headers, ...(body !== undefined ? { body } : {}) })
      expect(b.status).toBe(a.status)
      expect(b.body).toBe(a.body)
      expect(b.headers).toEqual(a.headers)
    })
  }
})
