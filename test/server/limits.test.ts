/** Rate limits (fixed windows on a simulated clock), headers, caps and the bulk endpoints. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  call,
  nonce,
  orderMessage,
  placeOrder,
  post,
  signed,
  signedOrder,
  start,
  T0,
  wallet,
  type Res,
  type Started,
  type Wallet,
} from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start()
})
afterAll(() => s.close())

async function bulk(w: Wallet, n: number, f: Parameters<typeof signedOrder>[1] = {}): Promise<string> {
  const items: string[] = []
  for (let i = 0; i < n; i++) items.push(await signedOrder(w, { clientId: `b${i}`, ...f }))
  return `{"orders":[${items.join(',')}]}`
}

async function cancelBody(w: Wallet, orderId: string, n = nonce(), signer = w.key) {
  return signed('CancelOrder', { wallet: w.address, orderId, nonce: n }, signer)
}

describe('rate limits', () => {
  it('the 61st order of a Default-tier wallet in one window: 429 with body, Retry-After, Remaining 0', async () => {
    s.clock.set(T0 + 5_000)
    const w = wallet()
    const bodies = await Promise.all(Array.from({ length: 61 }, (_, i) => signedOrder(w, { clientId: `o${i}`, tif: 'ioc' })))
    let last: Res | undefined
    for (let i = 0; i < 60; i++) {
      last = await post(s, '/order', bodies[i]!)
      expect(last.status).toBe(200)
      expect(last.headers.get('x-ratelimit-remaining')).toBe(String(59 - i))
    }
    expect(last!.headers.get('x-ratelimit-limit')).toBe('60')
    expect(last!.headers.get('x-ratelimit-reset')).toBe(String(T0 / 1000 + 60))
    const r = await post(s, '/order', bodies[60]!)
    expect(r.status).toBe(429)
    expect(r.json).toMatchObject({ code: 'rate_limit_exceeded', error: 'rate_limit_exceeded', limit: 60, retry_after_secs: 55 })
    expect(typeof r.json.message).toBe('string')
    expect(r.headers.get('retry-after')).toBe('55')
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(r.headers.get('x-ratelimit-limit')).toBe('60')
    // The same request is accepted in the next window (the nonce was not consumed).
    s.clock.set(T0 + 60_000)
    const again = await post(s, '/order', bodies[60]!)
    expect(again.json.status).toBe('ACKED')
    expect(again.headers.get('x-ratelimit-remaining')).toBe('59')
    expect(again.headers.get('x-ratelimit-reset')).toBe(String(T0 / 1000 + 120))
  })

  it('Retry-After is at least 1 at the very end of a window', async () => {
    s.clock.set(T0 + 59_999)
    const t = await start({ tiers: { default: { ordersPerMinute: 1 } } as never })
    try {
      t.clock.set(T0 + 59_999)
      const w = wallet()
      await placeOrder(t, w)
      const r = await placeOrder(t, w)
      expect(r.status).toBe(429)
      expect(r.json.retry_after_secs).toBe(1)
      expect(r.headers.get('retry-after')).toBe('1')
    } finally {
      await t.close()
    }
  })

  it('a wallet tier from config sets the limits', async () => {
    const w = wallet()
    const t = await start({ walletTiers: { [w.address]: 'tier1' } })
    try {
      const r = await placeOrder(t, w)
      expect(r.headers.get('x-ratelimit-limit')).toBe('30')
    } finally {
      await t.close()
    }
  })

  it('categories are independent: cancels do not spend orders', async () => {
    s.clock.set(T0 + 120_000 + 1000)
    const w = wallet()
    const placed = await placeOrder(s, w)
    const id = placed.json.order_id as string
    const c = await call(s, 'DELETE', '/order', await cancelBody(w, id))
    expect(c.json).toMatchObject({ status: 'CANCELED', order_id: id })
    expect(c.headers.get('x-ratelimit-limit')).toBe('120')
    expect(c.headers.get('x-ratelimit-remaining')).toBe('119')
    const o = await placeOrder(s, w)
    expect(o.headers.get('x-ratelimit-remaining')).toBe('58')
  })

  it('headers on error responses when the body names a wallet; uncharged when not authenticated', async () => {
    s.clock.set(T0 + 180_000 + 1000)
    const w = wallet()
    await placeOrder(s, w)
    const bad = await post(s, '/order', await signedOrder(w, {}, { chainId: 1 }))
    expect(bad.status).toBe(401)
    expect(bad.headers.get('x-ratelimit-remaining')).toBe('59')
    const invalid = await post(s, '/order', (await signedOrder(w)).replace('"side":"Buy"', '"side":"buy"'))
    expect(invalid.status).toBe(400)
    expect(invalid.headers.get('x-ratelimit-limit')).toBe('60')
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('59')
    // No wallet to identify: the default tier's view of the window, nothing used (the seed puts
    // the headers on every response of a rate-limited endpoint, errors included).
    const windowEnd = String((Math.floor(s.clock.now() / 60_000) + 1) * 60)
    for (const junk of [
      await post(s, '/order', '{"nope":1}'),
      await post(s, '/order', '{not json'),
      await post(s, '/approve-agent', '{"agent":"0x01","nonce":1,"signature":"0x"}'),
    ]) {
      expect(junk.status).toBe(400)
      expect(junk.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/)
      expect(junk.headers.get('x-ratelimit-remaining')).toBe(junk.headers.get('x-ratelimit-limit'))
      expect(junk.headers.get('x-ratelimit-reset')).toBe(windowEnd)
    }
    expect((await post(s, '/order', '{not json')).headers.get('x-ratelimit-limit')).toBe('60')
    expect((await post(s, '/approve-agent', '{not json')).headers.get('x-ratelimit-limit')).toBe('600')
    // Authenticated failures are charged: a 409 counts.
    const n = nonce()
    await placeOrder(s, w, { nonce: n })
    const reused = await placeOrder(s, w, { nonce: n })
    expect(reused.status).toBe(409)
    expect(reused.headers.get('x-ratelimit-remaining')).toBe('57')
  })

  it('approve-agent is counted in the api category of the owner', async () => {
    const w = wallet()
    const r = await post(s, '/approve-agent', await signed('ApproveAgent', { agent: wallet().address, nonce: nonce() }, w.key))
    expect(r.headers.get('x-ratelimit-limit')).toBe('600')
    expect(r.headers.get('x-ratelimit-remaining')).toBe('599')
  })
})

describe('bulk', () => {
  it('POST /bulk_order: per-item results in order; Remaining drops by k', async () => {
    s.clock.set(T0 + 240_000 + 1000)
    const w = wallet()
    const good = await signedOrder(w, { clientId: 'g1' })
    const badSig = await signedOrder(w, { clientId: 'g2' }, { chainId: 1 })
    const unknown = await signedOrder(w, { clientId: 'g3', symbol: 'BTC-20261225-7-C' })
    const invalid = (await signedOrder(w, { clientId: 'g4' })).replace('"tif":"gtc"', '"tif":"GTC"')
    const r = await post(s, '/bulk_order', `{"orders":[${good},${badSig},${unknown},${invalid}]}`)
    expect(r.status).toBe(200)
    const [a, b, c, d] = r.json.results
    expect(a).toMatchObject({ status: 'ACKED', client_id: 'g1' })
    expect(b).toMatchObject({ status: 'REJECTED', code: 'signature_verification_failed' })
    expect(c).toMatchObject({ status: 'REJECTED', client_id: 'g3' })
    expect(c.reason).toContain('unknown instrument')
    expect(d).toMatchObject({ status: 'REJECTED', code: 'invalid_field' })
    expect(d.reason).toContain('orders[3].tif')
    // Charged for the two authenticated items.
    expect(r.headers.get('x-ratelimit-remaining')).toBe('58')
    const k = await post(s, '/bulk_order', await bulk(w, 5))
    expect(k.headers.get('x-ratelimit-remaining')).toBe('53')
  })

  it('a batch that would cross the limit: 429 as a whole, nothing consumed', async () => {
    s.clock.set(T0 + 300_000 + 1000)
    const w = wallet()
    expect((await post(s, '/bulk_order', await bulk(w, 50, { tif: 'ioc' }))).status).toBe(200)
    const over = await bulk(w, 11, { tif: 'ioc' })
    const r = await post(s, '/bulk_order', over)
    expect(r.status).toBe(429)
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0')
    const ten = await post(s, '/bulk_order', await bulk(w, 10, { tif: 'ioc' }))
    expect(ten.status).toBe(200)
    expect(ten.json.results.every((x: { status: string }) => x.status === 'ACKED')).toBe(true)
    // The refused batch's nonces were not consumed: it goes through in the next window.
    s.clock.set(T0 + 360_000 + 1000)
    const later = await post(s, '/bulk_order', over)
    expect(later.json.results.filter((x: { status: string }) => x.status === 'ACKED')).toHaveLength(11)
  })

  it('more than maxBatch items: 400 batch_too_large; mixed wallets: 400 invalid_field', async () => {
    const w = wallet()
    const r = await post(s, '/bulk_order', await bulk(w, 51))
    expect(r.status).toBe(400)
    expect(r.json.code).toBe('batch_too_large')
    const other = wallet()
    const mixed = await post(s, '/bulk_order', `{"orders":[${await signedOrder(w)},${await signedOrder(other)}]}`)
    expect(mixed.status).toBe(400)
    expect(mixed.json.code).toBe('invalid_field')
    expect(mixed.json.message).toContain('same wallet')
  })

  it('a batch with no authenticated item is refused as a whole and not charged', async () => {
    const w = wallet()
    const r = await post(s, '/bulk_order', await bulk(w, 2, { price: '5' }).then((b) => b.replaceAll('"price":"5"', '"price":"6"')))
    expect(r.status).toBe(401)
    expect(r.headers.get('x-ratelimit-remaining')).toBe('60')
  })

  it('DELETE /bulk_order and /bulk_order_cloid cancel item by item, charged as cancels', async () => {
    s.clock.set(T0 + 420_000 + 1000)
    const w = wallet()
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await placeOrder(s, w, { clientId: `x${i}`, price: '1' })).json.order_id)
    const c1 = await signed('CancelOrder', { wallet: w.address, orderId: ids[0]!, nonce: nonce() }, w.key)
    const c2 = await signed('CancelOrder', { wallet: w.address, orderId: '999999', nonce: nonce() }, w.key)
    const r = await call(s, 'DELETE', '/bulk_order', `{"cancels":[${c1},${c2}]}`)
    expect(r.json.results[0]).toMatchObject({ status: 'CANCELED', order_id: ids[0] })
    expect(r.json.results[1]).toMatchObject({ status: 'REJECTED', order_id: '999999' })
    expect(r.headers.get('x-ratelimit-limit')).toBe('120')
    expect(r.headers.get('x-ratelimit-remaining')).toBe('118')
    const byCl = await signed('CancelOrderByClientId', { wallet: w.address, clientId: 'x1', nonce: nonce() }, w.key)
    const r2 = await call(s, 'DELETE', '/bulk_order_cloid', `{"cancels":[${byCl}]}`)
    expect(r2.json.results[0]).toMatchObject({ status: 'CANCELED', order_id: ids[1], client_id: 'x1' })
    const single = await call(
      s,
      'DELETE',
      '/order',
      await signed('CancelOrderByClientId', { wallet: w.address, clientId: 'x2', nonce: nonce() }, w.key),
    )
    expect(single.json).toMatchObject({ status: 'CANCELED', order_id: ids[2] })
    const open = await call(s, 'GET', `/orders?wallet=${w.address}&status=OPEN`)
    expect(open.json.orders).toEqual([])
  })

  it('PUT /bulk_order: a replacement costs one order; its order is not placed when the cancel fails', async () => {
    s.clock.set(T0 + 480_000 + 1000)
    const w = wallet()
    const first = (await placeOrder(s, w, { clientId: 'old', price: '1' })).json.order_id as string
    const good = `{"cancel":${await signed('CancelOrder', { wallet: w.address, orderId: first, nonce: nonce() }, w.key)},"order":${await signedOrder(w, { clientId: 'new', price: '2' })}}`
    const bad = `{"cancel":${await signed('CancelOrder', { wallet: w.address, orderId: first, nonce: nonce() }, w.key)},"order":${await signedOrder(w, { clientId: 'never', price: '3' })}}`
    const r = await call(s, 'PUT', '/bulk_order', `{"replacements":[${good},${bad}]}`)
    expect(r.status).toBe(200)
    expect(r.json.results[0].cancel).toMatchObject({ status: 'CANCELED', order_id: first })
    expect(r.json.results[0].order).toMatchObject({ status: 'ACKED', client_id: 'new' })
    expect(r.json.results[1].cancel.status).toBe('REJECTED')
    expect(r.json.results[1].order.status).toBe('REJECTED')
    expect(r.headers.get('x-ratelimit-limit')).toBe('60')
    expect(r.headers.get('x-ratelimit-remaining')).toBe('57')
    const orders = (await call(s, 'GET', `/orders?wallet=${w.address}`)).json.orders as { client_id: string; status: string }[]
    expect(orders.map((o) => [o.client_id, o.status])).toEqual([
      ['old', 'CANCELED'],
      ['new', 'OPEN'],
    ])
  })
})

describe('caps', () => {
  it('open-order cap: 422 limit_exceeded with the cap in the message; ioc is exempt', async () => {
    const t = await start({ tiers: { default: { maxOpenOrders: 3, maxPositions: 50 } } as never })
    try {
      const w = wallet()
      for (let i = 0; i < 3; i++) expect((await placeOrder(t, w, { price: '1' })).json.status).toBe('ACKED')
      const r = await placeOrder(t, w, { price: '1' })
      expect(r.status).toBe(422)
      expect(r.json).toMatchObject({ code: 'limit_exceeded', error: 'limit_exceeded' })
      expect(r.json.message).toContain('3')
      expect((await placeOrder(t, w, { tif: 'ioc' })).json.status).toBe('ACKED')
    } finally {
      await t.close()
    }
  })

  it('position cap: a new position beyond the cap is refused, the existing one may grow', async () => {
    const t = await start({ tiers: { default: { maxPositions: 1 } } as never })
    try {
      const maker = wallet()
      const taker = wallet()
      await placeOrder(t, maker, { side: 'Sell', price: '10', size: '5' })
      await placeOrder(t, maker, { side: 'Sell', price: '10', size: '5', symbol: 'ETH-20261225-4000-C' })
      expect((await placeOrder(t, taker, { side: 'Buy', price: '10', size: '1', tif: 'ioc' })).json.status).toBe('ACKED')
      const grow = await placeOrder(t, taker, { side: 'Buy', price: '10', size: '1', tif: 'ioc' })
      expect(grow.json.status).toBe('ACKED')
      const other = await placeOrder(t, taker, { side: 'Buy', price: '10', size: '1', tif: 'ioc', symbol: 'ETH-20261225-4000-C' })
      expect(other.status).toBe(422)
      expect(other.json).toMatchObject({ code: 'limit_exceeded', error: 'limit_exceeded' })
      // The message states the cap (1), as the seed asks: as a number of its own, next to "position".
      expect(other.json.message).toMatch(/position/i)
      expect(other.json.message).toMatch(/(^|\D)1(\D|$)/)
    } finally {
      await t.close()
    }
  })
})

describe('helper sanity', () => {
  it('orderMessage uses the given nonce', () => {
    expect(orderMessage(wallet(), { nonce: 5n }).nonce).toBe(5n)
  })
})
