/** POST /exchange: perp orders signed as Agent{source, connectionId} under the perp domain. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addressOf } from '../../src/signing/index.ts'
import {
  call,
  giveState,
  nonce,
  perpOrderAction,
  placeOrder,
  post,
  signed,
  signedPerp,
  start,
  wallet,
  type PerpOrder,
  type Started,
} from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start()
})
afterAll(() => s.close())

// Asset index 3 is the fourth instrument of the shipped list: ETH-20261225-4000-C.
const order = (over: Partial<PerpOrder> = {}): PerpOrder => ({
  a: 3,
  b: true,
  p: '1',
  s: '1',
  r: false,
  t: { limit: { tif: 'Gtc' } },
  ...over,
})

describe('perp orders', () => {
  it('a perp order signed by the toolkit signer is accepted, rests on the shared book, listed by GET /orders', async () => {
    const w = wallet()
    await giveState(s, w)
    const r = await post(s, '/exchange', await signedPerp(perpOrderAction([order({ c: '0x' + '1'.repeat(32) })]), w.key))
    expect(r.status).toBe(200)
    expect(r.json.status).toBe('ok')
    expect(r.json.response.type).toBe('order')
    const [st] = r.json.response.data.statuses
    expect(typeof st.resting.oid).toBe('number')
    expect(r.headers.get('x-ratelimit-limit')).toBe('60')
    const listed = (await call(s, 'GET', `/orders?wallet=${w.address}`)).json.orders
    expect(listed.at(-1)).toMatchObject({
      symbol: 'ETH-20261225-4000-C',
      side: 'Buy',
      price: '1',
      size: '1',
      tif: 'gtc',
      status: 'OPEN',
      client_id: '0x' + '1'.repeat(32),
    })
    // The options book shows it.
    const book = (await call(s, 'GET', '/orderbook?symbol=ETH-20261225-4000-C')).json.result
    expect(book.bids[0]).toEqual({ price: '1', size: '1' })
    // Cancel it with a perp cancel action.
    const cancel = await post(s, '/exchange', await signedPerp({ type: 'cancel', cancels: [{ a: 3, o: st.resting.oid }] }, w.key))
    expect(cancel.json.response).toEqual({ type: 'cancel', data: { statuses: ['success'] } })
    expect(cancel.headers.get('x-ratelimit-limit')).toBe('120')
  })

  it('an order signed with the venue SDK (published known answer, python SDK signing_test) is accepted', async () => {
    // hyperliquid-python-sdk tests/signing_test.py: key 0x0123…0123, nonce 0, mainnet, this exact action.
    const key = '0x0123456789012345678901234567890123456789012345678901234567890123' as const
    await giveState(s, { key, address: addressOf(key) })
    const body =
      '{"action":{"type":"order","orders":[{"a":1,"b":true,"p":"100","s":"100","r":false,"t":{"limit":{"tif":"Gtc"}}}],"grouping":"na"},"nonce":0,' +
      '"signature":{"r":"0xd65369825a9df5d80099e513cce430311d7d26ddf477f5b3a33d2806b100d78e","s":"0x2b54116ff64054968aa237c20ca9ff68000f977c93289157748a3162b6ea940e","v":28}}'
    const r = await post(s, '/exchange', body)
    expect(r.status).toBe(200)
    expect(r.json.response.data.statuses[0].resting).toBeDefined()
    const listed = (await call(s, 'GET', `/orders?wallet=${addressOf(key)}`)).json.orders.at(-1)
    expect(listed).toMatchObject({ symbol: 'BTC-20261225-100000-P', side: 'Buy', price: '100', size: '100', status: 'OPEN' })
  })

  it('fills against options orders; Ioc and Alo map to ioc and a book-only gtc', async () => {
    const maker = wallet()
    const taker = wallet()
    await giveState(s, taker)
    await placeOrder(s, maker, { symbol: 'ETH-20261225-4000-C', side: 'Sell', price: '50', size: '2' })
    const r = await post(
      s,
      '/exchange',
      await signedPerp(
        perpOrderAction([
          order({ p: '50', s: '1.5', t: { limit: { tif: 'Ioc' } } }),
          order({ b: false, p: '900', s: '1', t: { limit: { tif: 'Alo' } } }),
        ]),
        taker.key,
      ),
    )
    const [filled, resting] = r.json.response.data.statuses
    expect(filled.filled).toMatchObject({ totalSz: '1.5', avgPx: '50' })
    expect(resting.resting).toBeDefined()
    const mine = (await call(s, 'GET', `/orders?wallet=${taker.address}`)).json.orders.slice(-2)
    expect(mine.map((o: Record<string, string>) => [o.tif, o.route, o.status])).toEqual([
      ['ioc', 'best_execution', 'FILLED'],
      ['gtc', 'book_only', 'OPEN'],
    ])
  })

  it('an unknown asset index is an error status, not a failure of the request', async () => {
    const w = wallet()
    await giveState(s, w)
    const r = await post(s, '/exchange', await signedPerp(perpOrderAction([order({ a: 999 })]), w.key))
    expect(r.json.response.data.statuses[0].error).toContain('999')
  })

  it('an agent places perp orders for its owner via vaultAddress; a non-approved one is refused', async () => {
    const owner = wallet()
    const agent = wallet()
    await post(s, '/approve-agent', await signed('ApproveAgent', { agent: agent.address, nonce: nonce() }, owner.key))
    const ok = await post(s, '/exchange', await signedPerp(perpOrderAction([order()]), agent.key, { vaultAddress: owner.address }))
    expect(ok.json.status).toBe('ok')
    expect((await call(s, 'GET', `/orders?wallet=${owner.address}`)).json.orders).toHaveLength(1)
    const stranger = wallet()
    await giveState(s, stranger)
    const refused = await post(s, '/exchange', await signedPerp(perpOrderAction([order()]), stranger.key, { vaultAddress: owner.address }))
    expect(refused.status).toBe(200)
    expect(refused.json).toEqual({ status: 'err', response: 'Unauthorized: signer not authorized for wallet' })
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60')
  })

  it('shares the nonce namespace with options orders', async () => {
    const w = wallet()
    await giveState(s, w)
    const n = nonce()
    expect((await placeOrder(s, w, { nonce: n })).json.status).toBe('ACKED')
    const r = await post(s, '/exchange', await signedPerp(perpOrderAction([order()]), w.key, { nonce: n }))
    expect(r.status).toBe(200)
    expect(r.json.status).toBe('err')
    expect(r.json.response).toContain(`${n} was already used`)
  })

  it('an expired request (expiresAfter in the past) is an err envelope', async () => {
    const w = wallet()
    await giveState(s, w)
    const r = await post(s, '/exchange', await signedPerp(perpOrderAction([order()]), w.key, { expiresAfter: 1000n }))
    expect(r.json.status).toBe('err')
    const ok = await post(
      s,
      '/exchange',
      await signedPerp(perpOrderAction([order()]), w.key, { expiresAfter: BigInt(s.clock.now() + 60_000) }),
    )
    expect(ok.json.status).toBe('ok')
    // The venue's Python SDK sends both optional fields as null when unset.
    const nulls = (await signedPerp(perpOrderAction([order()]), w.key)).replace(/\}$/, ',"vaultAddress":null,"expiresAfter":null}')
    expect((await post(s, '/exchange', nulls)).json.status).toBe('ok')
  })
})

describe('perp refusals', () => {
  // The venue's envelope: its SDKs raise their API error on HTTP 200 {status: "err"}, not on an HTTP error.
  const refusedWith401 = async (body: string) => {
    const r = await post(s, '/exchange', body)
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ status: 'err', response: 'Signature verification failed' })
  }

  it('a signer the server has never seen is refused', async () => {
    await refusedWith401(await signedPerp(perpOrderAction([order()]), wallet().key))
  })

  it('signed under chainId 999 (the options chain) is refused', async () => {
    const w = wallet()
    await giveState(s, w)
    await refusedWith401(await signedPerp(perpOrderAction([order()]), w.key, { domain: { chainId: 999 } }))
  })

  it('signed under the options domain (Service, 999) is refused', async () => {
    const w = wallet()
    await giveState(s, w)
    await refusedWith401(await signedPerp(perpOrderAction([order()]), w.key, { domain: { name: 'Service', chainId: 999 } }))
  })

  it('testnet source "b" on a mainnet server is refused; a testnet server accepts it', async () => {
    const w = wallet()
    await giveState(s, w)
    const body = await signedPerp(perpOrderAction([order()]), w.key, { isMainnet: false })
    await refusedWith401(body)
    const t = await start({ isMainnet: false })
    try {
      await giveState(t, w)
      expect((await post(t, '/exchange', body)).json.status).toBe('ok')
    } finally {
      await t.close()
    }
  })

  it('an action signed over re-ordered keys is refused; JSON key order on the wire does not matter', async () => {
    const w = wallet()
    await giveState(s, w)
    const reordered = { orders: [{ b: true, a: 3, p: '1', s: '1', r: false, t: { limit: { tif: 'Gtc' } } }], type: 'order', grouping: 'na' }
    await refusedWith401(await signedPerp(reordered, w.key))
    const canonicalSentReordered = (await signedPerp(perpOrderAction([order()]), w.key))
      .replace('"type":"order","orders":', '"orders":')
      .replace(',"grouping":"na"}', ',"type":"order","grouping":"na"}')
    expect(canonicalSentReordered).toContain('"orders":[{"a":3')
    expect((await post(s, '/exchange', canonicalSentReordered)).json.status).toBe('ok')
  })

  it('an action changed after signing, an unsigned vault address: refused, consuming nothing', async () => {
    const w = wallet()
    await giveState(s, w)
    const good = await signedPerp(perpOrderAction([order()]), w.key)
    await refusedWith401(good.replace('"p":"1"', '"p":"2"'))
    const victim = wallet()
    const withVault = JSON.stringify({ ...JSON.parse(good), vaultAddress: victim.address }).replace(
      /"nonce":\d+/,
      `"nonce":${/"nonce":(\d+)/.exec(good)![1]}`,
    )
    const r = await post(s, '/exchange', withVault)
    expect(r.json.status).toBe('err')
    // The untouched request is still accepted: the refusals consumed nothing.
    expect((await post(s, '/exchange', good)).json.status).toBe('ok')
  })

  it('a malformed perp body: an err envelope naming the field; only a body that is not JSON keeps the HTTP error', async () => {
    const w = wallet()
    const good = await signedPerp(perpOrderAction([order()]), w.key)
    const r = await post(s, '/exchange', good.replace('"p":"1"', '"p":1'))
    expect(r.status).toBe(200)
    expect(r.json.status).toBe('err')
    expect(r.json.response).toContain('action.orders[0].p')
    const t = await post(s, '/exchange', good.replace('"Gtc"', '"gtc"'))
    expect(t.json.response).toContain('tif')
    const fractional = await post(s, '/exchange', good.replace('"a":3', '"a":3.5'))
    expect(fractional.json.status).toBe('err')
    const exponent = await post(s, '/exchange', good.replace('"a":3', '"a":3e0'))
    expect(exponent.json.response).toContain('action.orders[0].a')
    const duplicate = await post(s, '/exchange', good.replace('"type":"order"', '"type":"order","type":"order"'))
    expect(duplicate.status).toBe(200)
    expect(duplicate.json.status).toBe('err')
    const notJson = await post(s, '/exchange', good.slice(0, -1))
    expect(notJson.status).toBe(400)
    expect(notJson.json.code).toBe('invalid_json')
  })

  it('an action type the server does not execute: an err envelope naming the supported types', async () => {
    const w = wallet()
    await giveState(s, w)
    const r = await post(s, '/exchange', await signedPerp({ type: 'scheduleCancel', time: 1 }, w.key))
    expect(r.status).toBe(200)
    expect(r.json.status).toBe('err')
    for (const t of ['order', 'cancel', 'cancelByCloid']) expect(r.json.response).toContain(t)
  })
})

describe('perp account resolution', () => {
  it('an approved agent that also trades options for itself books perp orders to its owner, or to itself with vaultAddress = itself', async () => {
    const owner = wallet()
    const agent = wallet()
    await post(s, '/approve-agent', await signed('ApproveAgent', { agent: agent.address, nonce: nonce() }, owner.key))
    await giveState(s, agent)
    expect((await post(s, '/exchange', await signedPerp(perpOrderAction([order({ p: '3' })]), agent.key))).json.status).toBe('ok')
    expect(
      (await post(s, '/exchange', await signedPerp(perpOrderAction([order({ p: '5' })]), agent.key, { vaultAddress: agent.address }))).json
        .status,
    ).toBe('ok')
    const prices = async (w: { address: string }) =>
      ((await call(s, 'GET', `/orders?wallet=${w.address}`)).json.orders as { symbol: string; price: string }[])
        .filter((o) => o.symbol === 'ETH-20261225-4000-C')
        .map((o) => o.price)
    expect(await prices(owner)).toEqual(['3'])
    expect(await prices(agent)).toEqual(['5'])
  })

  it('an agent whose approval was revoked acts for nobody else: its order is its own', async () => {
    const owner = wallet()
    const agent = wallet()
    await post(s, '/approve-agent', await signed('ApproveAgent', { agent: agent.address, nonce: nonce() }, owner.key))
    await post(s, '/revoke-agent', await signed('RevokeAgent', { agent: agent.address, nonce: nonce() }, owner.key))
    expect((await post(s, '/exchange', await signedPerp(perpOrderAction([order()]), agent.key))).json.status).toBe('ok')
    expect((await call(s, 'GET', `/orders?wallet=${owner.address}`)).json.orders).toEqual([])
    expect((await call(s, 'GET', `/orders?wallet=${agent.address}`)).json.orders).toHaveLength(1)
  })
})

describe('POST /info', () => {
  it('meta lists the instruments in order; other types and other dexes are 400 invalid_field', async () => {
    const meta = await post(s, '/info', '{"type":"meta"}')
    expect(meta.json.universe.map((u: { name: string }) => u.name)).toEqual(s.config.instruments)
    expect((await post(s, '/info', '{"type":"meta","dex":""}')).status).toBe(200)
    for (const body of [
      '{"type":"clearinghouseState","user":"0x0000000000000000000000000000000000000001"}',
      '{"type":"meta","dex":"xyz"}',
      '{}',
      '{"type":"meta","user":"0x0"}',
      '{"type":"openOrders"}',
      '{"type":"l2Book"}',
    ]) {
      const r = await post(s, '/info', body)
      expect(r.status, body).toBe(400)
      expect(r.json.code, body).toBe('invalid_field')
    }
  })

  it("answers contexts, mids, levels and an account's resting orders from the server's state", async () => {
    // The last instrument: the other tests of this file trade the first ones on this shared server.
    const second = s.config.instruments.at(-1)!
    const first = s.config.instruments.at(-2)!
    const maker = wallet()
    expect((await placeOrder(s, maker, { symbol: second, side: 'Buy', price: '10', size: '2', clientId: 'plain-id' })).json.status).toBe(
      'ACKED',
    )
    expect((await placeOrder(s, maker, { symbol: second, side: 'Sell', price: '13', size: '1.5' })).json.status).toBe('ACKED')
    const [meta, ctxs] = (await post(s, '/info', '{"type":"metaAndAssetCtxs"}')).json
    expect(meta.universe.map((u: { name: string }) => u.name)).toEqual(s.config.instruments)
    const ctx = ctxs[s.config.instruments.indexOf(second)]
    expect(ctx).toMatchObject({ midPx: '11.5', markPx: '11.5', impactPxs: ['10', '13'] })
    expect((await post(s, '/info', '{"type":"spotMetaAndAssetCtxs"}')).json).toEqual([{ universe: [], tokens: [] }, []])
    const mids = (await post(s, '/info', '{"type":"allMids"}')).json
    expect(mids[second]).toBe('11.5')
    expect(first in mids).toBe(false)
    const book = (await post(s, '/info', JSON.stringify({ type: 'l2Book', coin: second }))).json
    // Best levels first (other tests of this file rest buys at 1 in every instrument).
    expect([book.levels[0][0], book.levels[1][0]]).toEqual([
      { px: '10', sz: '2', n: 1 },
      { px: '13', sz: '1.5', n: 1 },
    ])
    expect((await post(s, '/info', '{"type":"l2Book","coin":"NOPE"}')).json).toBeNull()
    const open = (await post(s, '/info', JSON.stringify({ type: 'openOrders', user: maker.address }))).json
    expect(open.map((o: Record<string, unknown>) => [o.coin, o.side, o.limitPx, o.sz, o.origSz])).toEqual([
      [second, 'A', '13', '1.5', '1.5'],
      [second, 'B', '10', '2', '2'],
    ])
    // An options client_id that is not a venue cloid is not shown as one.
    expect(open.every((o: Record<string, unknown>) => !('cloid' in o))).toBe(true)
    const frontend = (await post(s, '/info', JSON.stringify({ type: 'frontendOpenOrders', user: maker.address }))).json
    expect(frontend[0]).toMatchObject({ oid: open[0].oid, orderType: 'Limit', reduceOnly: false })
    expect((await post(s, '/info', JSON.stringify({ type: 'userAbstraction', user: maker.address }))).json).toBe('default')
  })
})
