/**
 * The reference server driven by the perpetuals venue's own TypeScript SDK (@nktkas/hyperliquid,
 * which nobody here wrote), as its users drive the venue: the public ExchangeClient and
 * InfoClient over its HTTP transport pointed at the server, and its low-level signer with a
 * body posted by hand. A refusal must surface as the SDK's API error (ApiRequestError), never
 * as a transport failure.
 */
import { ApiRequestError, ExchangeClient, HttpRequestError, HttpTransport, InfoClient } from '@nktkas/hyperliquid'
import { signL1Action } from '@nktkas/hyperliquid/signing'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, giveState, nonce, placeOrder, post, signed, start, T0, wallet, type Started, type Wallet } from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start()
})
afterAll(() => s.close())

const transport = (server: { url: string }, isTestnet = false) => new HttpTransport({ apiUrl: server.url, isTestnet, timeout: 5_000 })
const client = (w: Wallet, server: { url: string } = s, extra: Record<string, unknown> = {}) =>
  new ExchangeClient({ transport: transport(server), wallet: privateKeyToAccount(w.key), ...extra })

/** A wallet with state on the server (DECISIONS: an unknown perp signer is refused). */
async function known(server: { url: string } = s): Promise<Wallet> {
  const w = wallet()
  await giveState(server, w)
  return w
}

/** The SDK user's way from a name to an asset index. */
async function assetOf(name: string): Promise<number> {
  const meta = await new InfoClient({ transport: transport(s) }).meta()
  const i = meta.universe.findIndex((u) => u.name === name)
  if (i < 0) throw new Error(`${name} is not in meta`)
  return i
}

const ETH = 'ETH-20261225-4000-C'
const limit = (tif: 'Gtc' | 'Ioc' | 'Alo') => ({ limit: { tif } })

async function ordersOf(w: { address: string }): Promise<Record<string, string>[]> {
  return (await call(s, 'GET', `/orders?wallet=${w.address}`)).json.orders
}

/** Runs `fn` and returns the ApiRequestError it must throw. */
async function apiError(fn: () => Promise<unknown>): Promise<ApiRequestError> {
  try {
    await fn()
  } catch (err) {
    if (err instanceof ApiRequestError) return err
    throw new Error(`expected the SDK's ApiRequestError, got ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`)
  }
  throw new Error('expected the SDK to raise ApiRequestError, it succeeded')
}

describe('InfoClient', () => {
  it('reads meta: one universe entry per listed instrument, in list order', async () => {
    const info = new InfoClient({ transport: transport(s) })
    const meta = await info.meta()
    expect(meta.universe.map((u) => u.name)).toEqual(s.config.instruments)
    for (const u of meta.universe) expect(Number.isInteger(u.szDecimals) && Number.isInteger(u.maxLeverage)).toBe(true)
    expect(await info.spotMeta()).toEqual({ universe: [], tokens: [] })
    expect(await info.perpDexs()).toEqual([null])
  })

  it('a read request the server does not answer is an HTTP 400, which the SDK reports as a transport error', async () => {
    const err = await new InfoClient({ transport: transport(s) })
      .clearinghouseState({ user: '0x0000000000000000000000000000000000000001' })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(HttpRequestError)
    expect((err as HttpRequestError).response?.status).toBe(400)
  })
})

describe('ExchangeClient against the reference server', () => {
  it('Gtc rests, Ioc fills against it, Alo rests when it would not cross', async () => {
    const a = await assetOf(ETH)
    const maker = await known()
    const taker = await known()
    const rest = await client(maker).order({ orders: [{ a, b: false, p: '77', s: '2', r: false, t: limit('Gtc') }], grouping: 'na' })
    expect(rest.status).toBe('ok')
    const oid = (rest.response.data.statuses[0] as { resting: { oid: number } }).resting.oid
    expect(oid).toBeGreaterThan(0)
    const fill = await client(taker).order({ orders: [{ a, b: true, p: '77', s: '0.5', r: false, t: limit('Ioc') }], grouping: 'na' })
    expect(fill.response.data.statuses[0]).toMatchObject({ filled: { totalSz: '0.5', avgPx: '77' } })
    const alo = await client(taker).order({ orders: [{ a, b: true, p: '76', s: '1', r: false, t: limit('Alo') }], grouping: 'na' })
    expect(alo.response.data.statuses[0]).toHaveProperty('resting')
    expect((await ordersOf(taker)).slice(-2).map((o) => [o.tif, o.status, o.filled_size])).toEqual([
      ['ioc', 'FILLED', '0.5'],
      ['gtc', 'OPEN', '0'],
    ])
  })

  it('an Alo order that would cross is an error status (the SDK raises), never a fill', async () => {
    const a = await assetOf(ETH)
    const maker = await known()
    const taker = await known()
    await client(maker).order({ orders: [{ a, b: false, p: '81', s: '1', r: false, t: limit('Gtc') }], grouping: 'na' })
    const err = await apiError(() =>
      client(taker).order({ orders: [{ a, b: true, p: '82', s: '1', r: false, t: limit('Alo') }], grouping: 'na' }),
    )
    expect(err.message).toContain('Post only order would have immediately matched')
    expect((await ordersOf(taker)).filter((o) => o.symbol === ETH)).toEqual([])
    expect((await ordersOf(maker)).at(-1)).toMatchObject({ status: 'OPEN', filled_size: '0' })
  })

  it('cancel by oid and cancel by cloid', async () => {
    const a = await assetOf(ETH)
    const w = await known()
    const c = client(w)
    const cloid = '0x0000000000000000000000000000abcd'
    const placed = await c.order({
      orders: [
        { a, b: true, p: '3', s: '1', r: false, t: limit('Gtc') },
        { a, b: true, p: '2', s: '1', r: false, t: limit('Gtc'), c: cloid },
      ],
      grouping: 'na',
    })
    const [first, second] = placed.response.data.statuses as { resting: { oid: number; cloid?: string } }[]
    expect(second!.resting.cloid).toBe(cloid)
    expect((await c.cancel({ cancels: [{ a, o: first!.resting.oid }] })).response.data.statuses).toEqual(['success'])
    expect((await c.cancelByCloid({ cancels: [{ asset: a, cloid }] })).response.data.statuses).toEqual(['success'])
    expect((await ordersOf(w)).slice(-2).map((o) => o.status)).toEqual(['CANCELED', 'CANCELED'])
    // Nothing left to cancel: an error status, which the SDK raises.
    const again = await apiError(() => c.cancelByCloid({ cancels: [{ asset: a, cloid }] }))
    expect(again.message).toContain('CANCELED')
  })

  it("an agent's order is booked to the wallet that approved it; vaultAddress picks among several", async () => {
    const a = await assetOf(ETH)
    const owner = wallet()
    const other = wallet()
    const agent = wallet()
    expect(
      (await post(s, '/approve-agent', await signed('ApproveAgent', { agent: agent.address, nonce: nonce() }, owner.key))).status,
    ).toBe(200)
    await client(agent).order({ orders: [{ a, b: true, p: '4', s: '1', r: false, t: limit('Gtc') }], grouping: 'na' })
    expect((await ordersOf(owner)).map((o) => [o.symbol, o.price, o.status])).toEqual([[ETH, '4', 'OPEN']])
    expect(await ordersOf(agent)).toEqual([])

    expect(
      (await post(s, '/approve-agent', await signed('ApproveAgent', { agent: agent.address, nonce: nonce() }, other.key))).status,
    ).toBe(200)
    const ambiguous = await apiError(() =>
      client(agent).order({ orders: [{ a, b: true, p: '5', s: '1', r: false, t: limit('Gtc') }], grouping: 'na' }),
    )
    expect(ambiguous.message).toContain('vaultAddress')
    await client(agent).order(
      { orders: [{ a, b: true, p: '6', s: '1', r: false, t: limit('Gtc') }], grouping: 'na' },
      { vaultAddress: other.address },
    )
    expect((await ordersOf(other)).map((o) => o.price)).toEqual(['6'])
    const viaDefault = client(agent, s, { defaultVaultAddress: owner.address })
    await viaDefault.order({ orders: [{ a, b: true, p: '7', s: '1', r: false, t: limit('Gtc') }], grouping: 'na' })
    expect((await ordersOf(owner)).map((o) => o.price)).toEqual(['4', '7'])
  })

  it('a vaultAddress the signer may not act for is refused with the stated message', async () => {
    const a = await assetOf(ETH)
    const stranger = await known()
    const victim = await known()
    const err = await apiError(() =>
      client(stranger).order(
        { orders: [{ a, b: true, p: '1', s: '1', r: false, t: limit('Gtc') }], grouping: 'na' },
        { vaultAddress: victim.address },
      ),
    )
    expect(err.message).toBe('Unauthorized: signer not authorized for wallet')
  })

  it('expiresAfter: in the past refused, in the future accepted (server time)', async () => {
    const a = await assetOf(ETH)
    const w = await known()
    const order = { orders: [{ a, b: true, p: '1', s: '1', r: false, t: limit('Gtc') }], grouping: 'na' as const }
    const err = await apiError(() => client(w).order(order, { expiresAfter: T0 - 1 }))
    expect(err.message).toContain('expired')
    expect((await client(w).order(order, { expiresAfter: s.clock.now() + 60_000 })).status).toBe('ok')
  })

  it('nonce reuse and an unknown signer surface as the SDK API error', async () => {
    const a = await assetOf(ETH)
    const w = await known()
    const fixed = Number(nonce()) + 1_700_000_000_000
    const pinned = client(w, s, { nonceManager: () => fixed })
    const order = { orders: [{ a, b: true, p: '1', s: '1', r: false, t: limit('Gtc') }], grouping: 'na' as const }
    expect((await pinned.order(order)).status).toBe('ok')
    const reused = await apiError(() => pinned.order(order))
    expect(reused.message).toContain(`${fixed} was already used`)
    const unknown = await apiError(() => client(wallet()).order(order))
    expect(unknown.message).toBe('Signature verification failed')
  })

  it('testnet: accepted by a testnet server, refused by a mainnet one', async () => {
    const t = await start({ isMainnet: false })
    try {
      const w = await known(t)
      await giveState(s, w)
      const order = { orders: [{ a: 0, b: true, p: '1', s: '1', r: false, t: limit('Gtc') }], grouping: 'na' as const }
      const testnetClient = (server: { url: string }) =>
        new ExchangeClient({ transport: transport(server, true), wallet: privateKeyToAccount(w.key) })
      expect((await testnetClient(t).order(order)).status).toBe('ok')
      const refused = await apiError(() => testnetClient(s).order(order))
      expect(refused.message).toBe('Signature verification failed')
      // And the other way round: a mainnet client on the testnet server.
      expect((await apiError(() => client(w, t).order(order))).message).toBe('Signature verification failed')
    } finally {
      await t.close()
    }
  })
})

describe("the SDK's low-level signer, body posted by hand", () => {
  /** JSON with bigints written as their digits, as the venue's wire carries them. */
  const wire = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `__big${x}__` : x)).replace(/"__big(\d+)__"/g, '$1')

  async function sendSigned(
    w: Wallet,
    action: Record<string, unknown>,
    n: bigint,
    extra: { vaultAddress?: `0x${string}`; expiresAfter?: number } = {},
  ) {
    const signature = await signL1Action({ wallet: privateKeyToAccount(w.key), action, nonce: Number(n), isTestnet: false, ...extra })
    return post(s, '/exchange', wire({ action, nonce: n, signature, ...extra }))
  }

  it('an order and its cancel are accepted', async () => {
    const w = await known()
    const n = nonce() + 1_800_000_000_000n
    const placed = await sendSigned(
      w,
      { type: 'order', orders: [{ a: 3, b: true, p: '1.5', s: '2', r: false, t: { limit: { tif: 'Gtc' } } }], grouping: 'na' },
      n,
    )
    expect(placed.json.status).toBe('ok')
    const oid = placed.json.response.data.statuses[0].resting.oid
    const canceled = await sendSigned(w, { type: 'cancel', cancels: [{ a: 3, o: oid }] }, n + 1n)
    expect(canceled.json).toEqual({ status: 'ok', response: { type: 'cancel', data: { statuses: ['success'] } } })
  })

  it('a cancel with o = 2^53+1, signed over the exact integer, is accepted and compared exactly', async () => {
    const w = await known()
    const o = 2n ** 53n + 1n
    const r = await sendSigned(w, { type: 'cancel', cancels: [{ a: 0, o }] }, nonce() + 1_800_000_000_000n)
    expect(r.status).toBe(200)
    expect(r.json.status).toBe('ok')
    // No such order: an error status naming the exact ID (a double would print ...992).
    expect(r.json.response.data.statuses[0].error).toContain('9007199254740993')
  })

  it('the same signed action resent with the nonce bumped is refused (the nonce is signed)', async () => {
    const w = await known()
    const n = nonce() + 1_800_000_000_000n
    const action = { type: 'order', orders: [{ a: 3, b: true, p: '1', s: '1', r: false, t: { limit: { tif: 'Gtc' } } }], grouping: 'na' }
    const signature = await signL1Action({ wallet: privateKeyToAccount(w.key), action, nonce: Number(n), isTestnet: false })
    expect((await post(s, '/exchange', wire({ action, nonce: n, signature }))).json.status).toBe('ok')
    const bumped = await post(s, '/exchange', wire({ action, nonce: n + 1n, signature }))
    expect(bumped.json).toEqual({ status: 'err', response: 'Signature verification failed' })
  })

  it('an options-domain order by the same key gives it state; its perp order then shows in GET /orders', async () => {
    const w = wallet()
    expect((await placeOrder(s, w, { symbol: ETH, side: 'Buy', price: '1', size: '1', tif: 'gtc' })).json.status).toBe('ACKED')
    const r = await sendSigned(
      w,
      { type: 'order', orders: [{ a: 3, b: false, p: '900', s: '1', r: false, t: { limit: { tif: 'Gtc' } } }], grouping: 'na' },
      nonce() + 1_800_000_000_000n,
    )
    expect(r.json.status).toBe('ok')
    expect((await ordersOf(w)).map((o) => o.side)).toEqual(['Buy', 'Sell'])
  })
})
