/** Matching: price-time priority, gtc/ioc/fok, routes, rejections, cancels, positions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, nonce, placeOrder, signed, start, wallet, type Started } from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start()
})
afterAll(() => s.close())

const SYM = 'ETH-20261225-4000-P'
const orders = async (w: { address: string }) =>
  (await call(s, 'GET', `/orders?wallet=${w.address}`)).json.orders as Record<string, string>[]

describe('matching', () => {
  it('price-time priority: the best price first, then the oldest', async () => {
    const m1 = wallet()
    const m2 = wallet()
    const m3 = wallet()
    const taker = wallet()
    await placeOrder(s, m1, { symbol: SYM, side: 'Sell', price: '5', size: '1' })
    await placeOrder(s, m2, { symbol: SYM, side: 'Sell', price: '4', size: '1' })
    await placeOrder(s, m3, { symbol: SYM, side: 'Sell', price: '4', size: '1' })
    const r = await placeOrder(s, taker, { symbol: SYM, side: 'Buy', price: '5', size: '2', tif: 'ioc' })
    expect(r.json.status).toBe('ACKED')
    expect((await orders(m2))[0]).toMatchObject({ status: 'FILLED', filled_size: '1' })
    expect((await orders(m3))[0]).toMatchObject({ status: 'FILLED', filled_size: '1' })
    expect((await orders(m1))[0]).toMatchObject({ status: 'OPEN', filled_size: '0' })
    expect((await orders(taker))[0]).toMatchObject({ status: 'FILLED', filled_size: '2' })
    // Clean the book for the other tests.
    await placeOrder(s, taker, { symbol: SYM, side: 'Buy', price: '5', size: '1', tif: 'ioc' })
  })

  it('gtc rests the remainder; ioc cancels it; fok fills entirely or is REJECTED', async () => {
    const maker = wallet()
    const taker = wallet()
    await placeOrder(s, maker, { symbol: SYM, side: 'Sell', price: '7', size: '1.5' })
    const fok = await placeOrder(s, taker, { symbol: SYM, side: 'Buy', price: '7', size: '2', tif: 'fok' })
    expect(fok.json.status).toBe('REJECTED')
    expect(fok.json.reason).toContain('fok')
    const ioc = await placeOrder(s, taker, { symbol: SYM, side: 'Buy', price: '7', size: '1', tif: 'ioc' })
    expect(ioc.json.status).toBe('ACKED')
    const gtc = await placeOrder(s, taker, { symbol: SYM, side: 'Buy', price: '7', size: '2', tif: 'gtc' })
    expect(gtc.json.status).toBe('ACKED')
    const mine = await orders(taker)
    expect(mine.map((o) => [o.tif, o.status, o.filled_size])).toEqual([
      ['fok', 'REJECTED', '0'],
      ['ioc', 'FILLED', '1'],
      ['gtc', 'OPEN', '0.5'],
    ])
    const book = (await call(s, 'GET', `/orderbook?symbol=${SYM}`)).json.result
    expect(book.bids[0]).toEqual({ price: '7', size: '1.5' })
    await call(
      s,
      'DELETE',
      '/order',
      await signed('CancelOrder', { wallet: taker.address, orderId: mine[2]!.order_id!, nonce: nonce() }, taker.key),
    )
  })

  it('an ioc that finds nothing is ACKED and canceled', async () => {
    const w = wallet()
    const r = await placeOrder(s, w, { symbol: 'SOL-20261225-200-C', side: 'Sell', price: '100000', tif: 'ioc' })
    expect(r.json.status).toBe('ACKED')
    expect((await orders(w))[0]!.status).toBe('CANCELED')
  })

  it('routes: rfq_only is REJECTED (no makers); book_only and best_execution use the book', async () => {
    const w = wallet()
    const rfq = await placeOrder(s, w, { route: 'rfq_only' })
    expect(rfq.json.status).toBe('REJECTED')
    expect(rfq.json.reason).toContain('rfq')
    expect((await placeOrder(s, w, { route: 'book_only', price: '1' })).json.status).toBe('ACKED')
  })

  it('zero size or price: REJECTED with a reason', async () => {
    const w = wallet()
    expect((await placeOrder(s, w, { size: '0' })).json).toMatchObject({ status: 'REJECTED' })
    expect((await placeOrder(s, w, { price: '0.000' })).json.reason).toContain('price')
  })

  it('cancel: only the wallet’s own open order; a canceled order cannot be canceled again', async () => {
    const w = wallet()
    const other = wallet()
    const id = (await placeOrder(s, w, { price: '1' })).json.order_id as string
    const foreign = await call(
      s,
      'DELETE',
      '/order',
      await signed('CancelOrder', { wallet: other.address, orderId: id, nonce: nonce() }, other.key),
    )
    expect(foreign.json.status).toBe('REJECTED')
    const n = nonce()
    const ok = await call(s, 'DELETE', '/order', await signed('CancelOrder', { wallet: w.address, orderId: id, nonce: n }, w.key))
    expect(ok.json).toMatchObject({ status: 'CANCELED', order_id: id })
    const twice = await call(s, 'DELETE', '/order', await signed('CancelOrder', { wallet: w.address, orderId: id, nonce: nonce() }, w.key))
    expect(twice.json.status).toBe('REJECTED')
    // The canceling nonce was consumed; the REJECTED one was not.
    const reuse = await call(s, 'DELETE', '/order', await signed('CancelOrder', { wallet: w.address, orderId: id, nonce: n }, w.key))
    expect(reuse.status).toBe(409)
  })

  it('DELETE /order with both order_id and client_id: 400 invalid_field', async () => {
    const w = wallet()
    const body = (await signed('CancelOrder', { wallet: w.address, orderId: '1', nonce: nonce() }, w.key)).replace('{', '{"client_id":"x",')
    const r = await call(s, 'DELETE', '/order', body)
    expect(r.status).toBe(400)
    expect(r.json.code).toBe('invalid_field')
  })
})
