/** The HTTP surface: routing, media types, body limits, error bodies, HEAD, read endpoints. */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../../src/server/index.ts'
import { compileValidators } from '../../src/server/validate.ts'
import { contract } from '../helpers/shipped.ts'
import { call, placeOrder, post, signedOrder, start, SYMBOL, wallet, type Started } from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start()
})
afterAll(() => s.close())

describe('routing', () => {
  it('unknown path: 404 not_found; known path, wrong method: 405 with Allow', async () => {
    const r = await call(s, 'GET', '/nope')
    expect(r.status).toBe(404)
    expect(r.json.code).toBe('not_found')
    const m = await call(s, 'PATCH', '/order', '{}')
    expect(m.status).toBe(405)
    expect(m.json.code).toBe('method_not_allowed')
    expect(m.headers.get('allow')).toBe('POST, DELETE')
    const g = await call(s, 'POST', '/orders', '{}')
    expect(g.headers.get('allow')).toBe('GET, HEAD')
  })

  it('HEAD on a GET path: the status and headers, no body', async () => {
    const ok = await call(s, 'HEAD', '/health')
    expect(ok.status).toBe(200)
    expect(ok.text).toBe('')
    const bad = await call(s, 'HEAD', '/orders?wallet=nope')
    expect(bad.status).toBe(400)
    expect(bad.text).toBe('')
    const missing = await call(s, 'HEAD', '/missing')
    expect(missing.status).toBe(404)
    expect(missing.text).toBe('')
  })

  it('a request the HTTP parser refuses still gets 400 with a catalog body', async () => {
    const port = new URL(s.url).port
    const raw = await new Promise<string>((resolve, reject) => {
      const sock = connect(Number(port), '127.0.0.1', () => sock.write('BLAH /order HTTP/1.1\r\nHost: x\r\n\r\n'))
      let out = ''
      sock.on('data', (d) => (out += d))
      sock.on('end', () => resolve(out))
      sock.on('error', reject)
    })
    expect(raw.startsWith('HTTP/1.1 400')).toBe(true)
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).code).toBe('invalid_field')
  })

  it('GET /health', async () => {
    expect((await call(s, 'GET', '/health')).json).toEqual({ status: 'ok' })
  })
})

describe('bodies', () => {
  it('over 64 KiB: 413 payload_too_large', async () => {
    const r = await post(s, '/order', `{"wallet":"${'a'.repeat(MAX_BODY_BYTES)}"}`)
    expect(r.status).toBe(413)
    expect(r.json.code).toBe('payload_too_large')
  })

  it('a 2 MiB body is refused without reading it all: the 413 arrives before the upload ends', async () => {
    // A raw socket reads what the server sends even while the upload is cut short, which a
    // fetch client may report only as a reset.
    const { port } = new URL(s.url)
    const answer = await new Promise<string>((resolve) => {
      let got = ''
      const sock = connect(Number(port), '127.0.0.1', () => {
        sock.write(`POST /order HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`)
        const chunk = Buffer.alloc(64 * 1024, 0x78)
        let sent = 0
        const pump = () => {
          while (sent < 2 * 1024 * 1024 && !sock.destroyed) {
            sent += chunk.length
            if (!sock.write(chunk)) return void sock.once('drain', pump)
          }
        }
        pump()
      })
      sock.on('data', (d) => (got += d.toString('latin1')))
      sock.on('error', () => {}) // EPIPE/ECONNRESET once the server closes: what it sent is in `got`
      sock.on('close', () => resolve(got))
    })
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer).toContain('"code":"payload_too_large"')
    expect(answer.toLowerCase()).toContain('connection: close')
  })

  it('non-JSON: 400 invalid_json; empty body: 400 invalid_json', async () => {
    const r = await post(s, '/order', '{"wallet": ')
    expect(r.status).toBe(400)
    expect(r.json.code).toBe('invalid_json')
    expect((await post(s, '/order', '')).json.code).toBe('invalid_json')
  })

  it('wrong content type: 415; missing content type is read as JSON', async () => {
    const w = wallet()
    const body = await signedOrder(w)
    const r = await call(s, 'POST', '/order', body, { 'content-type': 'text/plain' })
    expect(r.status).toBe(415)
    expect(r.json.code).toBe('unsupported_media_type')
    const bare = await fetch(s.url + '/order', { method: 'POST', body: new Blob([body]) })
    expect(bare.headers.get('content-type')).toContain('application/json')
    expect(((await bare.json()) as { status: string }).status).toBe('ACKED')
    const charset = await call(s, 'POST', '/order', await signedOrder(w), { 'content-type': 'application/json; charset=utf-8' })
    expect(charset.json.status).toBe('ACKED')
  })

  it('duplicate keys and deep nesting: 400 invalid_field', async () => {
    const w = wallet()
    const body = await signedOrder(w)
    const dup = await post(s, '/order', body.replace('{', '{"side":"Sell",'))
    expect(dup.status).toBe(400)
    expect(dup.json.code).toBe('invalid_field')
    expect(dup.json.message).toContain('side')
    const deep = await post(s, '/order', '['.repeat(1000) + ']'.repeat(1000))
    expect(deep.status).toBe(400)
    expect(deep.json.code).toBe('invalid_field')
  })

  it('an unknown field (clientId instead of client_id) is refused, naming it', async () => {
    const w = wallet()
    const body = (await signedOrder(w)).replace('"client_id"', '"clientId"')
    const r = await post(s, '/order', body)
    expect(r.status).toBe(400)
    expect(r.json.message).toContain('clientId')
  })

  it.each([
    ['side', '"buy"'],
    ['tif', '"GTC"'],
    ['route', '"fast"'],
    ['size', '"1e3"'],
    ['price', '"-1"'],
    ['price', '"01"'],
    ['wallet', '"0x12"'],
    ['symbol', '"BTC_20261225_1_C"'],
    ['client_id', '7'],
  ])('field %s = %s: 400 invalid_field naming it', async (field, value) => {
    const w = wallet()
    const body = (await signedOrder(w)).replace(new RegExp(`"${field}":("[^"]*"|\\d+)`), `"${field}":${value}`)
    const r = await post(s, '/order', body)
    expect(r.status).toBe(400)
    expect(r.json.code).toBe('invalid_field')
    expect(r.json.message).toContain(field)
  })

  it('a symbol with an impossible date is invalid_field; an unknown instrument is REJECTED', async () => {
    const w = wallet()
    const r = await placeOrder(s, w, { symbol: 'BTC-20260230-100-C' })
    expect(r.status).toBe(400)
    expect(r.json.message).toContain('calendar')
    const u = await placeOrder(s, w, { symbol: 'BTC-20260228-100-C' })
    expect(u.status).toBe(200)
    expect(u.json.status).toBe('REJECTED')
    expect(u.json.reason).toContain('unknown instrument')
  })

  it.each(['size', 'price'])('%s sent as a JSON number: 401 Signature verification failed (a cause the seed lists)', async (field) => {
    const w = wallet()
    for (const path of ['/order', '/bulk_order']) {
      const one = (await signedOrder(w)).replace(`"${field}":"1"`, `"${field}":1`).replace(`"${field}":"100"`, `"${field}":100`)
      const r = await post(s, path, path === '/order' ? one : `{"orders":[${one}]}`)
      expect(r.status, path).toBe(401)
      expect(r.json, path).toMatchObject({ code: 'signature_verification_failed', message: 'Signature verification failed' })
    }
  })

  it('a nonce above 2^64-1 is refused with the exact bound in the message, however large', async () => {
    const w = wallet()
    for (const n of ['18446744073709551616', '99999999999999999999999']) {
      const r = await post(s, '/order', (await signedOrder(w, { nonce: 5n })).replace('"nonce":5', `"nonce":${n}`))
      expect(r.status).toBe(400)
      expect(r.json.message).toContain('18446744073709551615')
      expect(r.json.message).not.toContain('18446744073709552000')
    }
  })

  it('every error body has code and message (and error where the catalog keeps a legacy value)', async () => {
    const r = await post(s, '/order', '{}')
    expect(Object.keys(r.json).sort()).toEqual(['code', 'message'])
  })
})

describe('read endpoints', () => {
  it('GET /orderbook of a missing instrument: HTTP 200 JSON-RPC 13020 envelope', async () => {
    const r = await call(s, 'GET', '/orderbook?symbol=ETH-20991231-1-P')
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ jsonrpc: '2.0', result: null, error: { code: 13020, message: 'not_found' } })
  })

  it.each([
    ['lower case', 'btc-20261225-100000-c'],
    ['malformed', 'nope'],
    ['an impossible date', 'BTC-20260230-1-C'],
    ['empty', ''],
  ])('GET /orderbook of an unlisted symbol (%s) is the 13020 envelope, not a 400', async (_what, symbol) => {
    const r = await call(s, 'GET', `/orderbook?symbol=${encodeURIComponent(symbol)}`)
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ jsonrpc: '2.0', result: null, error: { code: 13020, message: 'not_found' } })
  })

  it('GET /orderbook: price levels best first', async () => {
    const t = await start()
    try {
      const w = wallet()
      await placeOrder(t, w, { side: 'Buy', price: '10', size: '1' })
      await placeOrder(t, w, { side: 'Buy', price: '12', size: '2' })
      await placeOrder(t, w, { side: 'Buy', price: '12.0', size: '0.5' })
      await placeOrder(t, w, { side: 'Sell', price: '20', size: '1' })
      await placeOrder(t, w, { side: 'Sell', price: '15', size: '1' })
      const r = await call(t, 'GET', `/orderbook?symbol=${SYMBOL}`)
      expect(r.json).toEqual({
        jsonrpc: '2.0',
        error: null,
        result: {
          symbol: SYMBOL,
          bids: [
            { price: '12', size: '2.5' },
            { price: '10', size: '1' },
          ],
          asks: [
            { price: '15', size: '1' },
            { price: '20', size: '1' },
          ],
        },
      })
    } finally {
      await t.close()
    }
  })

  it('query parameters are validated: missing, malformed, unknown, repeated', async () => {
    expect((await call(s, 'GET', '/orders')).json.message).toContain('wallet')
    expect((await call(s, 'GET', '/orders?wallet=0x1')).json.code).toBe('invalid_field')
    const w = wallet().address
    expect((await call(s, 'GET', `/orders?wallet=${w}&limit=5`)).json.message).toContain('limit')
    expect((await call(s, 'GET', `/orders?wallet=${w}&wallet=${w}`)).status).toBe(400)
    expect((await call(s, 'GET', `/orders?wallet=${w}&status=open`)).status).toBe(400)
    expect((await call(s, 'GET', '/orderbook')).json.code).toBe('invalid_field')
    expect((await call(s, 'GET', `/orders?wallet=${w}`)).json).toEqual({
      orders: [],
      history: { complete: true, retain: 10_000, forgotten_through: null },
    })
  })

  it('GET /orders compares wallets as bytes (any case)', async () => {
    const w = wallet()
    await placeOrder(s, w)
    const r = await call(s, 'GET', `/orders?wallet=${w.address.toLowerCase()}`)
    expect(r.json.orders).toHaveLength(1)
    expect(Object.keys(r.json.orders[0]).sort()).toEqual([
      'client_id',
      'created_at',
      'filled_size',
      'order_id',
      'price',
      'route',
      'side',
      'size',
      'status',
      'symbol',
      'tif',
      'wallet',
    ])
  })
})

describe('the spec: an order result', () => {
  const check = compileValidators(contract).schema('/components/schemas/OrderResult')
  it('requires reason with status REJECTED (a oneOf: the generator has no if/then)', () => {
    expect(check({ status: 'ACKED', order_id: '1' })).toBeNull()
    expect(check({ status: 'REJECTED', reason: 'no liquidity' })).toBeNull()
    expect(check({ status: 'REJECTED' })).not.toBeNull()
    expect(check({ reason: 'x' })).not.toBeNull()
  })
})
