/**
 * Memory mode keeps the newest `retain` finished orders: GET /orders lists open orders always,
 * the newest finished ones, and says how far back it sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, placeOrder, start, wallet, type Started } from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start({ retain: 2 })
})
afterAll(() => s.close())

describe('--retain', () => {
  it('forgets the oldest finished orders beyond retain, keeps open ones, and says so in history', async () => {
    const w = wallet()
    const resting = (await placeOrder(s, w, { clientId: 'open', price: '1', tif: 'gtc' })).json.order_id
    const finished: string[] = []
    for (let i = 0; i < 4; i++)
      finished.push(
        (await placeOrder(s, w, { clientId: `ioc${i}`, price: '1', side: 'Sell', tif: 'ioc', symbol: 'ETH-20261225-4000-C' })).json
          .order_id,
      )
    const r = (await call(s, 'GET', `/orders?wallet=${w.address}`)).json as {
      orders: { order_id: string; status: string }[]
      history: unknown
    }
    expect(r.orders.map((o) => o.order_id)).toEqual([resting, finished[2], finished[3]])
    expect(r.orders[0]!.status).toBe('OPEN')
    expect(r.history).toEqual({ complete: false, retain: 2, forgotten_through: finished[1] })
  })
})
