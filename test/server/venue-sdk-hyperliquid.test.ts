/**
 * The reference server driven by a second venue SDK from npm (`hyperliquid`, which nobody here
 * wrote), through its high-level client exactly as its users drive the venue: `new
 * Hyperliquid({privateKey})`, its asset map initialised from POST /info, `exchange.placeOrder`,
 * `exchange.cancelOrder`, `custom.marketOpen`, `info.getUserOpenOrders`. Nothing is seeded by
 * hand: the SDK builds its own name → asset index map from the server's answers.
 *
 * The SDK has its host built in (no base URL option) and sends through axios, so the test gives
 * axios (the SDK's own HTTP library, the only seam it has) an adapter that sends the SDK's
 * requests for the venue's host to `oec serve` on loopback with axios's own HTTP adapter, and
 * records them. Nothing leaves 127.0.0.1: a request for any other host or path is refused here
 * and recorded as a failure.
 */
import axios, { type AxiosAdapter } from 'axios'
import { Hyperliquid } from 'hyperliquid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, giveState, nonce, post, signed, start, wallet, type Started, type Wallet } from './helpers.ts'

const VENUE = 'https://api.hyperliquid.xyz'

let s: Started
/** Every request the SDK made: `/info <type>` or `/exchange <action type>`. */
const seen: string[] = []
const strays: string[] = []
const defaultAdapter = axios.defaults.adapter

beforeAll(async () => {
  s = await start()
  const http = axios.getAdapter('http')
  const toServer: AxiosAdapter = async (config) => {
    const path = config.url ?? ''
    if (config.baseURL !== VENUE || config.method !== 'post' || (path !== '/info' && path !== '/exchange')) {
      strays.push(`${config.method} ${config.baseURL ?? ''}${path}`)
      throw new Error(`the test sends only the venue's POST /info and /exchange to the server, not ${path}`)
    }
    const body = JSON.parse(String(config.data)) as { type?: string; action?: { type?: string } }
    seen.push(`${path} ${path === '/info' ? body.type : body.action?.type}`)
    return http({ ...config, baseURL: s.url })
  }
  // The SDK builds its axios instances in its constructor, from these defaults.
  axios.defaults.adapter = toServer
})

afterAll(async () => {
  if (defaultAdapter === undefined) delete axios.defaults.adapter
  else axios.defaults.adapter = defaultAdapter
  await s.close()
})

/** The SDK's client for a key, as its README sets it up (no WebSocket: the venue's socket is not served here). */
async function sdk(w: Wallet): Promise<Hyperliquid> {
  const client = new Hyperliquid({ privateKey: w.key, enableWs: false, disableAssetMapRefresh: true })
  await client.connect()
  return client
}

/** A wallet with state (its first options order): the server refuses a perp signer it has never seen. */
async function known(): Promise<Wallet> {
  const w = wallet()
  await giveState(s, w)
  return w
}

async function ordersOf(w: { address: string }): Promise<Record<string, string>[]> {
  return (await call(s, 'GET', `/orders?wallet=${w.address}`)).json.orders
}

/** The SDK's first order fires a `setReferrer` action in the background; wait for it, so none is in flight at the end. */
async function referrerSent(): Promise<void> {
  for (let i = 0; i < 100 && !seen.includes('/exchange setReferrer'); i++) await new Promise((r) => setTimeout(r, 20))
}

const limit = (tif: 'Gtc' | 'Ioc' | 'Alo') => ({ limit: { tif } })

describe('the `hyperliquid` SDK against oec serve, unchanged', () => {
  it('initialises its asset map from POST /info (no seeding): every listed instrument is a perp asset at its list index', async () => {
    const client = await sdk(await known())
    const { perp, spot } = await client.symbolConversion.getAllAssets()
    expect(perp).toEqual(s.config.instruments.map((name) => `${name}-PERP`))
    expect(spot).toEqual([])
    for (const [i, name] of s.config.instruments.entries()) expect(await client.symbolConversion.getAssetIndex(`${name}-PERP`)).toBe(i)
    expect(seen).toContain('/info metaAndAssetCtxs')
    expect(seen).toContain('/info spotMetaAndAssetCtxs')
  })

  it('places a Gtc order, lists it through info.getUserOpenOrders, and cancels it by oid', async () => {
    const w = await known()
    const client = await sdk(w)
    const coin = `${s.config.instruments.at(-1)}-PERP`
    const placed = await client.exchange.placeOrder({
      coin,
      is_buy: true,
      sz: 2,
      limit_px: '3.5',
      order_type: limit('Gtc'),
      reduce_only: false,
    })
    await referrerSent()
    expect(placed.status).toBe('ok')
    const oid = placed.response.data.statuses[0].resting.oid as number
    expect(oid).toBeGreaterThan(0)
    expect((await ordersOf(w)).at(-1)).toMatchObject({
      symbol: s.config.instruments.at(-1),
      side: 'Buy',
      size: '2',
      price: '3.5',
      status: 'OPEN',
    })
    // The SDK converts the venue's answer for its users: names to its -PERP names, sides to words, decimals to numbers.
    const open = (await client.info.getUserOpenOrders(w.address)) as unknown as Record<string, unknown>[]
    expect(open.find((o) => o.oid === oid)).toMatchObject({ coin, side: 'buy', limitPx: 3.5, sz: 2 })
    const canceled = await client.exchange.cancelOrder({ coin, o: oid })
    expect(canceled.status).toBe('ok')
    expect(canceled.response.data.statuses).toEqual(['success'])
    expect((await ordersOf(w)).at(-1)?.status).toBe('CANCELED')
    expect(((await client.info.getUserOpenOrders(w.address)) as unknown as { oid: number }[]).map((o) => o.oid)).not.toContain(oid)
  })

  it("an agent's order (the SDK run with the agent key) is booked to the wallet that approved it", async () => {
    const owner = wallet()
    const agent = wallet()
    const approval = await post(s, '/approve-agent', await signed('ApproveAgent', { agent: agent.address, nonce: nonce() }, owner.key))
    expect(approval.status).toBe(200)
    const client = await sdk(agent)
    const coin = `${s.config.instruments[1]}-PERP`
    const placed = await client.exchange.placeOrder({
      coin,
      is_buy: true,
      sz: '1',
      limit_px: '2',
      order_type: limit('Gtc'),
      reduce_only: false,
    })
    expect(placed.response.data.statuses[0]).toHaveProperty('resting')
    expect((await ordersOf(owner)).map((o) => [o.symbol, o.price, o.status])).toEqual([[s.config.instruments[1], '2', 'OPEN']])
    expect(await ordersOf(agent)).toEqual([])
  })

  it("a refused order comes back in the venue's shapes: an error status for a crossing Alo, an err envelope for an unknown signer", async () => {
    const maker = await known()
    const taker = await known()
    const coin = `${s.config.instruments.at(-1)}-PERP`
    await (await sdk(maker)).exchange.placeOrder({ coin, is_buy: false, sz: 1, limit_px: 91, order_type: limit('Gtc'), reduce_only: false })
    const before = (await ordersOf(taker)).length
    const alo = await (await sdk(taker)).exchange.placeOrder({
      coin,
      is_buy: true,
      sz: 1,
      limit_px: 92,
      order_type: limit('Alo'),
      reduce_only: false,
    })
    expect(alo.status).toBe('ok')
    expect(alo.response.data.statuses[0].error).toContain('Post only order would have immediately matched')
    expect(await ordersOf(taker)).toHaveLength(before)
    const stranger = await (await sdk(wallet())).exchange.placeOrder({
      coin,
      is_buy: true,
      sz: 1,
      limit_px: 1,
      order_type: limit('Gtc'),
      reduce_only: false,
    })
    expect(stranger).toEqual({ status: 'err', response: 'Signature verification failed' })
  })

  it('custom.marketOpen prices from POST /info allMids and fills against the book', async () => {
    const symbol = s.config.instruments.at(-2)!
    const coin = `${symbol}-PERP`
    const maker = await known()
    const makerClient = await sdk(maker)
    await makerClient.exchange.placeOrder({ coin, is_buy: true, sz: 1, limit_px: 40, order_type: limit('Gtc'), reduce_only: false })
    await makerClient.exchange.placeOrder({ coin, is_buy: false, sz: 1, limit_px: 44, order_type: limit('Gtc'), reduce_only: false })
    const taker = await known()
    const bought = await (await sdk(taker)).custom.marketOpen(coin, true, 1)
    expect(seen).toContain('/info allMids')
    expect(bought.response.data.statuses[0]?.filled).toMatchObject({ totalSz: '1', avgPx: '44' })
    expect((await ordersOf(taker)).at(-1)).toMatchObject({ symbol, tif: 'ioc', status: 'FILLED', filled_size: '1' })
  })

  it('sent nothing anywhere but the two venue endpoints', () => {
    expect(strays).toEqual([])
  })
})
