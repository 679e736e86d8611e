/** Concurrency: same-nonce races, a limit under concurrent load, nothing lost. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, post, signedOrder, start, wallet, type Started } from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start()
})
afterAll(() => s.close())

describe('concurrency', () => {
  it('N concurrent requests with one nonce: at most one succeeds, the rest get 409', async () => {
    for (let round = 0; round < 3; round++) {
      const w = wallet()
      const bodies = await Promise.all(Array.from({ length: 20 }, (_, i) => signedOrder(w, { nonce: 42n, clientId: `r${i}`, tif: 'ioc' })))
      const results = await Promise.all(bodies.map((b) => post(s, '/order', b)))
      expect(results.filter((r) => r.status === 200 && r.json.status === 'ACKED')).toHaveLength(1)
      expect(results.filter((r) => r.status === 409)).toHaveLength(19)
    }
  })

  it('N concurrent orders against a limit of L: exactly L succeed; every ACKED order is listed', async () => {
    const w = wallet()
    const L = 60
    const bodies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => signedOrder(w, { clientId: `c${i}`, price: String(1 + (i % 7)) })),
    )
    const results = await Promise.all(bodies.map((b) => post(s, '/order', b)))
    const acked = results.filter((r) => r.status === 200 && r.json.status === 'ACKED')
    expect(acked).toHaveLength(L)
    expect(results.filter((r) => r.status === 429)).toHaveLength(100 - L)
    const listed = (await call(s, 'GET', `/orders?wallet=${w.address}`)).json.orders as { order_id: string }[]
    expect(new Set(listed.map((o) => o.order_id))).toEqual(new Set(acked.map((r) => r.json.order_id)))
  })

  it('concurrent batches: the limit holds across them', async () => {
    const w = wallet()
    const batch = async (k: number, tag: string) =>
      `{"orders":[${(await Promise.all(Array.from({ length: k }, (_, i) => signedOrder(w, { clientId: `${tag}${i}`, tif: 'ioc' })))).join(',')}]}`
    const bodies = await Promise.all(Array.from({ length: 8 }, (_, i) => batch(10, `b${i}-`)))
    const results = await Promise.all(bodies.map((b) => post(s, '/bulk_order', b)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(6)
    expect(results.filter((r) => r.status === 429)).toHaveLength(2)
  })
})
