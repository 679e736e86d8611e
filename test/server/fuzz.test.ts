/**
 * Property test: thousands of malformed bodies against the running server. Whatever comes in,
 * the answer is a 4xx whose body carries a catalog code and a message; never a 5xx or a crash.
 */
import { Agent, request } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shippedContract } from '../../src/contract/index.ts'
import { start, wallet, type Started } from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start()
})
afterAll(async () => {
  agent.destroy()
  await s.close()
})

const agent = new Agent({ keepAlive: true, maxSockets: 4 })
/** A lean keep-alive client: thousands of requests, so no per-request fetch machinery. */
function send(method: string, url: string, body: string | undefined, type: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const bytes = body === undefined ? undefined : Buffer.from(body, 'utf8')
    const headers: Record<string, string | number> = type ? { 'content-type': type } : {}
    // node sends DELETE bodies without a length unless told; say it, as every real client does.
    if (bytes) headers['content-length'] = bytes.length
    const req = request(url, { method, agent, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    req.end(bytes)
  })
}

const codes = new Set(shippedContract().catalog.map((e) => e.code))
const w = wallet().address
const sig = '0x' + 'ab'.repeat(65)
const base: Record<string, unknown> = {
  wallet: w,
  symbol: 'BTC-20261225-100000-C',
  side: 'Buy',
  size: '1',
  price: '100',
  tif: 'gtc',
  route: 'book_only',
  client_id: 'x',
  nonce: 1,
  signature: sig,
}

const anyJson = fc.jsonValue({ maxDepth: 4 })
const weird = fc.oneof(anyJson, fc.string({ maxLength: 300 }), fc.constantFrom(null, true, 1e308, -0, 1.5, 2 ** 64, '', 'x'.repeat(5000)))

/** A plausible body with one field broken, dropped, duplicated or joined by an unknown one. */
const mutatedBody = fc.oneof(
  fc
    .record({ key: fc.constantFrom(...Object.keys(base)), value: weird })
    .map(({ key, value }) => JSON.stringify({ ...base, [key]: value })),
  fc.constantFrom(...Object.keys(base)).map((key) => JSON.stringify(Object.fromEntries(Object.entries(base).filter(([k]) => k !== key)))),
  fc
    .record({ key: fc.string({ minLength: 1, maxLength: 40 }), value: weird })
    .map(({ key, value }) => JSON.stringify({ ...base, [`x${key}`]: value })),
  fc.constantFrom(...Object.keys(base)).map((key) => JSON.stringify(base).replace('{', `{${JSON.stringify(key)}:"dup",`)),
  fc.integer({ min: 33, max: 3000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  fc.integer({ min: 1, max: 20 }).map((n) => JSON.stringify({ orders: Array.from({ length: n }, () => ({ ...base, price: 1 })) })),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
  anyJson.map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '"str"',
    '{',
    '{"nonce":18446744073709551616}',
    '{"nonce":-1}',
    '\u0000',
    '{"__proto__":{"x":1}}',
    '{"constructor":1}',
  ),
  fc.integer({ min: 65_537, max: 80_000 }).map((n) => JSON.stringify({ ...base, client_id: 'y'.repeat(n) })),
)

const target = fc.constantFrom(
  ['POST', '/order'],
  ['DELETE', '/order'],
  ['POST', '/bulk_order'],
  ['PUT', '/bulk_order'],
  ['DELETE', '/bulk_order'],
  ['DELETE', '/bulk_order_cloid'],
  ['POST', '/approve-agent'],
  ['POST', '/revoke-agent'],
  ['POST', '/exchange'],
  ['POST', '/info'],
)
const contentType = fc.constantFrom<string | undefined>(
  'application/json',
  undefined,
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
)

describe('malformed bodies', () => {
  it('always a 4xx with a catalog code and a message, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(target, mutatedBody, contentType, async ([method, path], body, type) => {
        const r = await send(method, s.url + path, body, type)
        const text = r.text
        // The perp endpoint answers a refusal of a parsed body in the venue's envelope.
        if (path === '/exchange' && r.status === 200) {
          const env = JSON.parse(text) as { status: string; response: unknown }
          expect(env.status, text).toBe('err')
          expect(typeof env.response === 'string' && env.response.length > 0 && env.response.length < 1000, text).toBe(true)
          return
        }
        expect(r.status, `${method} ${path} ${body.slice(0, 200)} -> ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400)
        expect(r.status, text).toBeLessThan(500)
        const json = JSON.parse(text || 'null') as { code: string; message: string }
        expect(json, `${r.status} ${method} ${path} ${JSON.stringify(body.slice(0, 100))}`).not.toBeNull()
        expect(codes.has(json.code), json.code).toBe(true)
        expect(typeof json.message).toBe('string')
        expect(json.message.length).toBeGreaterThan(0)
        expect(json.message.length).toBeLessThan(1000)
      }),
      { numRuns: 2000, seed: 20261123 },
    )
  }, 60_000)

  it('malformed query strings on the read endpoints: 400 invalid_field or a 200, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/orders', '/orderbook', '/authorized-agents', '/health'),
        fc.string({ maxLength: 100 }),
        async (path, q) => {
          const r = await send(
            'GET',
            `${s.url}${path}?${encodeURIComponent(q)}=${encodeURIComponent(q)}&wallet=${encodeURIComponent(q)}`,
            undefined,
            undefined,
          )
          const text = r.text
          expect(r.status, text).toBeLessThan(500)
          if (r.status >= 400) expect(codes.has((JSON.parse(text) as { code: string }).code)).toBe(true)
        },
      ),
      { numRuns: 400, seed: 20261123 },
    )
  })
})
