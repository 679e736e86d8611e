/**
 * The generated client.ts: its builders sign what the reference server and ethers verify, for
 * random orders (property test); behind examples/generated-client/driver.ts it passes
 * `oec check client --http` and the signing protocol with zero failures.
 */
import { Wallet, verifyTypedData } from 'ethers'
import fc from 'fast-check'
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createL1ActionHash } from '@nktkas/hyperliquid/signing'
import { keccak256 } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateFiles, writeGenerated } from '../../src/generate/index.ts'
import { canonicalize } from '../../src/server/canonical.ts'
import { startServer, type RunningServer } from '../../src/server/index.ts'
import { exactAt } from '../../src/server/perp/exact.ts'
import { parseBody, readUint64 } from '../../src/signing/body.ts'
import { perpActionHash } from '../../src/signing/perp.ts'
import { ROOT, runOec } from '../helpers/cli.ts'
import { contract, signing } from '../helpers/shipped.ts'
import { editedSpec, tempDir } from './helpers.ts'

// Inside the repository (git-ignored .tmp/), so the driver resolves viem from the repo's node_modules.
const DIR = join(ROOT, '.tmp', `generated-client-${process.pid}`)
const KEY = `0x${'4c'.repeat(32)}` as const
let gen: any

beforeAll(async () => {
  writeGenerated(join(DIR, 'generated'), await generateFiles())
  writeFileSync(join(DIR, 'package.json'), '{"type":"module"}\n')
  cpSync(join(ROOT, 'examples', 'generated-client', 'driver.ts'), join(DIR, 'driver.ts'))
  gen = await import(pathToFileURL(join(DIR, 'generated', 'client.ts')).href)
}, 60_000)
afterAll(() => rmSync(DIR, { recursive: true, force: true }))

const decimal = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }))
  .map(([i, f]) => (f === undefined ? String(i) : `${i}.${f}`))
const order = fc.record(
  {
    symbol: fc.constantFrom('BTC-20261225-100000-C', 'ETH-20270101-3500.5-P'),
    side: fc.constantFrom('Buy', 'Sell'),
    size: decimal,
    price: decimal,
    tif: fc.constantFrom('gtc', 'ioc', 'fok'),
    route: fc.constantFrom('best_execution', 'book_only', 'rfq_only'),
    client_id: fc.oneof(fc.constant(''), fc.string({ maxLength: 20 })),
  },
  { requiredKeys: ['symbol', 'side', 'size', 'price', 'tif', 'client_id'] },
)

describe('the generated builder signs what the server and ethers verify', () => {
  it('random orders: decimals as given, empty client_id, route present or omitted, nonces up to 2^64-1', async () => {
    const account = privateKeyToAccount(KEY)
    const ethersWallet = new Wallet(KEY)
    await fc.assert(
      fc.asyncProperty(order, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), async (o, nonce) => {
        const built = await gen.placeOrder(o, { signer: account, nonce })
        const parsed = parseBody(built.body)
        if (!parsed.ok) throw new Error(parsed.message)
        const value = parsed.value as Record<string, unknown>
        // The body carries the order's strings unchanged, the nonce's digits, and route only when given.
        for (const [k, v] of Object.entries(o)) expect(value[k]).toBe(v)
        expect('route' in value).toBe(o.route !== undefined)
        expect(built.body).toContain(`"nonce":${nonce}`)
        // The reference server's verifier, reading the body as the server does.
        const message = signing.messageFromBody('PlaceOrder', parsed)
        const verdict = signing.verifyOptions('PlaceOrder', message, value.signature as string)
        expect(verdict.ok && verdict.signer.toLowerCase()).toBe(account.address.toLowerCase())
        // ethers, with the struct the spec names for this variant and the message read back from the body.
        const spec = contract.typedData.messages[o.route === undefined ? 'PlaceOrderWithoutRoute' : 'PlaceOrder']!
        const types = { PlaceOrder: spec.fields.map((f) => ({ name: f.name, type: f.type })) }
        const domain = contract.typedData.domains.options!
        const recovered = verifyTypedData(domain, types, message, value.signature as string)
        expect(recovered.toLowerCase()).toBe(ethersWallet.address.toLowerCase())
      }),
      { numRuns: 40 },
    )
  }, 120_000)

  it('refuses at run time what the types refuse at compile time (a number price, a number nonce, an unknown field)', async () => {
    const signer = privateKeyToAccount(KEY)
    const o = { symbol: 'BTC-20261225-100000-C', side: 'Buy', size: '1', price: '100', tif: 'gtc', route: 'book_only', client_id: '' }
    await expect(gen.placeOrder({ ...o, price: 100 }, { signer, nonce: 1n })).rejects.toThrow(/price must be a string/)
    await expect(gen.placeOrder(o, { signer, nonce: 1 })).rejects.toThrow(/nonce must be a bigint/)
    await expect(gen.placeOrder({ ...o, clientId: 'x' }, { signer, nonce: 1n })).rejects.toThrow(/no signed body/)
    // A signer that answers with a high-s twin is refused before anything is sent.
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const highS = async (td: any) => {
      const sig = await signer.signTypedData(td)
      const s = N - BigInt(`0x${sig.slice(66, 130)}`)
      return `${sig.slice(0, 66)}${s.toString(16).padStart(64, '0')}${sig.slice(130) === '1b' ? '1c' : '1b'}`
    }
    // A plain function has no address: the wallet comes with the order.
    await expect(gen.placeOrder(o, { signer: highS, nonce: 1n })).rejects.toThrow(/wallet must be a string/)
    await expect(gen.placeOrder({ ...o, wallet: signer.address }, { signer: highS, nonce: 1n })).rejects.toThrow(/high-s/)
  })

  it('parseJson keeps integers past 2^53 exact', () => {
    expect(gen.parseJson('{"n":18446744073709551615,"s":"18446744073709551615","m":[9007199254740993,1.5,-3]}')).toEqual({
      n: 18446744073709551615n,
      s: '18446744073709551615',
      m: [9007199254740993n, 1.5, -3],
    })
  })
})

describe('createClient: results, retries and rate-limit headers', () => {
  const order = { symbol: 'BTC-20261225-100000-C', side: 'Buy', size: '1', price: '100', tif: 'gtc', route: 'book_only', client_id: '' }
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
  const scripted = (answers: Response[]) => {
    const bodies: string[] = []
    return { bodies, fetch: async (_url: string, init: { body: string }) => (bodies.push(init.body), answers.shift()!) }
  }

  it('waits Retry-After plus a backoff that grows on consecutive 429s, resending the same bytes; retry: false sends once', async () => {
    const limited = () =>
      answer(429, { code: 'rate_limit_exceeded', message: 'slow down' }, { 'Retry-After': '2', 'X-RateLimit-Remaining': '0' })
    const waits: number[] = []
    const s = scripted([
      limited(),
      limited(),
      limited(),
      answer(
        200,
        { status: 'ACKED', order_id: '7' },
        { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': '1800000000' },
      ),
    ])
    const client = gen.createClient({
      baseUrl: 'http://127.0.0.1:1',
      signer: privateKeyToAccount(KEY),
      fetch: s.fetch,
      retry: { sleep: async (ms: number) => void waits.push(ms) },
    })
    const r = await client.placeOrder(order)
    expect(r.data).toEqual({ status: 'ACKED', order_id: '7' })
    expect(r.rateLimit).toEqual({ limit: 60, remaining: 59, reset: 1800000000, retryAfter: null })
    expect(new Set(s.bodies).size).toBe(1)
    expect(waits.every((w) => w >= 2000)).toBe(true)
    expect(waits[1]! - waits[0]!).toBeGreaterThan(0)
    expect(waits[2]! - waits[1]!).toBeGreaterThan(waits[1]! - waits[0]!)

    const once = scripted([limited(), limited()])
    const r2 = await gen
      .createClient({ baseUrl: 'http://x', signer: privateKeyToAccount(KEY), fetch: once.fetch, retry: false })
      .placeOrder(order)
    expect(once.bodies).toHaveLength(1)
    expect(r2.error).toMatchObject({ status: 429, code: 'rate_limit_exceeded' })
    expect(r2.rateLimit).toMatchObject({ remaining: 0, retryAfter: 2 })
  })

  it('REJECTED is data, an unknown code is an error with its code, and nonces increase per wallet', async () => {
    const s = scripted([
      answer(200, { status: 'REJECTED', reason: 'error: price band' }),
      answer(422, { code: 'order_entry_paused', message: 'later' }),
    ])
    const client = gen.createClient({ baseUrl: 'http://x', signer: privateKeyToAccount(KEY), fetch: s.fetch })
    const rejected = await client.placeOrder(order)
    expect(rejected.error).toBeUndefined()
    expect(rejected.data.status).toBe('REJECTED')
    const unknown = await client.placeOrder(order)
    expect(unknown.error).toMatchObject({ status: 422, code: 'order_entry_paused', message: 'later' })
    expect(unknown.request.nonce).toBeGreaterThan(rejected.request.nonce)
  })
})

/** What the reference server reads from a perp body: the action exactly (integers as bigints) in the spec's key order. */
function serverReadsPerp(text: string) {
  const parsed = parseBody(text)
  if (!parsed.ok) throw new Error(parsed.message)
  const v = parsed.value as Record<string, any>
  const exact = exactAt(parsed, '/action', v.action)
  if (!exact.ok) throw new Error(exact.message)
  const schema = (contract.doc as any).components.schemas.PerpRequest.properties.action
  const nonce = readUint64(parsed, '/nonce')
  if (!nonce.ok) throw new Error(nonce.message)
  const expires = v.expiresAfter === undefined || v.expiresAfter === null ? null : readUint64(parsed, '/expiresAfter')
  if (expires !== null && !expires.ok) throw new Error(expires.message)
  return {
    input: {
      action: canonicalize(contract, schema, exact.value),
      nonce: nonce.value,
      vaultAddress: v.vaultAddress ?? null,
      expiresAfter: expires === null ? null : expires.value,
      isMainnet: true,
    },
    signature: v.signature,
  }
}

/** Integers as the venue SDK takes them: numbers below 2^32 (it writes bigints as uint64, numbers in their smallest form). */
const forSdk = (v: unknown): unknown =>
  typeof v === 'bigint'
    ? v < 2n ** 32n
      ? Number(v)
      : v
    : Array.isArray(v)
      ? v.map(forSdk)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, forSdk(x)]))
        : v

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })
/** An integer field: a number while exact, else a bigint (up to 2^64-1). */
const wideInt = fc.oneof(
  fc.constantFrom(0, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32),
  fc.nat(),
  u64.filter((n) => n > 2n ** 53n),
)
const cloid = fc.stringMatching(/^0x[0-9a-f]{32}$/)
/** The keys of an object in a random order: the client must hash in the spec's order whatever the caller's. */
const shuffled = <T extends object>(arb: fc.Arbitrary<T>) =>
  arb.chain((o) =>
    fc
      .shuffledSubarray(Object.keys(o), { minLength: Object.keys(o).length })
      .map((keys) => Object.fromEntries(keys.map((k) => [k, (o as any)[k]])) as T),
  )
const perpOrder = shuffled(
  fc.record(
    {
      a: wideInt,
      b: fc.boolean(),
      p: decimal,
      s: decimal,
      r: fc.boolean(),
      t: fc.constantFrom('Gtc', 'Ioc', 'Alo').map((tif) => ({ limit: { tif } })),
      c: cloid,
    },
    { requiredKeys: ['a', 'b', 'p', 's', 'r', 't'] },
  ),
)
const perpAction = fc.oneof(
  shuffled(
    fc.record({ type: fc.constant('order'), orders: fc.array(perpOrder, { minLength: 1, maxLength: 3 }), grouping: fc.constant('na') }),
  ),
  shuffled(
    fc.record({
      type: fc.constant('cancel'),
      cancels: fc.array(shuffled(fc.record({ a: wideInt, o: wideInt })), { minLength: 1, maxLength: 3 }),
    }),
  ),
  shuffled(
    fc.record({
      type: fc.constant('cancelByCloid'),
      cancels: fc.array(shuffled(fc.record({ asset: wideInt, cloid })), { minLength: 1, maxLength: 3 }),
    }),
  ),
)

describe('the generated perp builder signs what the reference server verifies', () => {
  it('random actions (integers past 2^53, any key order), nonces up to 2^64-1, vaultAddress and expiresAfter optional', async () => {
    const account = privateKeyToAccount(KEY)
    const vault = fc.option(fc.stringMatching(/^0x[0-9a-fA-F]{40}$/), { nil: undefined })
    const expires = fc.option(u64, { nil: undefined })
    await fc.assert(
      fc.asyncProperty(perpAction, u64, vault, expires, async (action, nonce, vaultAddress, expiresAfter) => {
        const input = { action, ...(vaultAddress ? { vaultAddress } : {}), ...(expiresAfter !== undefined ? { expiresAfter } : {}) }
        const built = await gen.perpExchange(input, { signer: account, nonce, keccak256 })
        const read = serverReadsPerp(built.body)
        // The digits of every integer survive into the body, and the hash is the reference implementation's.
        expect(read.input.nonce).toBe(nonce)
        expect(built.connectionId).toBe(perpActionHash(read.input as any))
        // And the venue SDK's, an independent msgpack and keccak (it takes integers past 32 bits as bigints).
        const sdkAction = forSdk(read.input.action)
        const sdkArgs = { action: sdkAction, nonce, vaultAddress, ...(expiresAfter !== undefined ? { expiresAfter } : {}) }
        expect(built.connectionId).toBe(createL1ActionHash(sdkArgs as never))
        const verdict = signing.recoverPerpSigner(read.input as any, read.signature)
        expect(verdict.ok && verdict.signer.toLowerCase()).toBe(account.address.toLowerCase())
      }),
      { numRuns: 60 },
    )
  }, 120_000)

  it('refuses a rounded integer, a float and a missing keccak256 before signing', async () => {
    const signer = privateKeyToAccount(KEY)
    const order = { a: 0, b: true, p: '1', s: '1', r: false, t: { limit: { tif: 'Gtc' } } }
    const at = (o: object) => ({ action: { type: 'order', orders: [o], grouping: 'na' } })
    await expect(gen.perpExchange(at({ ...order, a: 2 ** 60 }), { signer, nonce: 1n, keccak256 })).rejects.toThrow(/never a rounded number/)
    await expect(gen.perpExchange(at({ ...order, a: 1.5 }), { signer, nonce: 1n, keccak256 })).rejects.toThrow(/action\.orders\[0\]\.a/)
    await expect(gen.perpExchange(at(order), { signer, nonce: 1n })).rejects.toThrow(/keccak256/)
  })
})

describe('createClient covers the spec', () => {
  it('has one method per operation of the spec, with the method and path the spec gives it', () => {
    const client = gen.createClient({ baseUrl: 'http://127.0.0.1:1', signer: privateKeyToAccount(KEY) })
    const ids = contract.operations.map((op) => op.operationId).sort()
    expect(Object.keys(client).sort()).toEqual(ids)
    for (const op of contract.operations) {
      expect(typeof client[op.operationId]).toBe('function')
      expect(gen.operationPlans[op.operationId]).toMatchObject({ method: op.method, path: op.path })
    }
    // Every signed body schema the spec marks (field by field) is reachable from some method's plan.
    const signedSchemas = Object.entries((contract.doc as any).components.schemas)
      .filter(([, s]: [string, any]) => s['x-eip712-signed'] && !s['x-eip712-signed'].derived)
      .map(([name]) => name)
    expect(Object.keys(gen.signedBodies).sort()).toEqual(signedSchemas.sort())
  })
})

describe('createClient against the reference server (127.0.0.1)', () => {
  let server: RunningServer
  const owner = privateKeyToAccount(generatePrivateKey())
  const agent = privateKeyToAccount(generatePrivateKey())
  const symbol = 'BTC-20261225-100000-C'
  const base = { symbol, side: 'Buy', price: '100', tif: 'gtc', route: 'book_only' } as const
  let client: any
  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, config: { log: false } })
    client = gen.createClient({ baseUrl: server.url, signer: owner, keccak256, retry: false })
  })
  afterAll(() => server?.close())

  it('a batch with a good and a bad item answers per item, in order, each item signed with its own nonce', async () => {
    const r = await client.placeOrders({
      orders: [
        { ...base, size: '1', client_id: 'good' },
        { ...base, size: '0', client_id: 'bad' },
      ],
    })
    expect(r.error).toBeUndefined()
    expect(r.data.results.map((x: any) => x.status)).toEqual(['ACKED', 'REJECTED'])
    expect(r.data.results[1].reason).toEqual(expect.any(String))
    expect(r.request.items).toHaveLength(2)
    expect(r.request.items[1].nonce).toBeGreaterThan(r.request.items[0].nonce)
    expect(r.rateLimit.remaining).toEqual(expect.any(Number))
  })

  it('GET /orders returns what was placed; GET /orderbook, /health and POST /info answer through the same client', async () => {
    const orders = await client.listOrders({ wallet: owner.address })
    expect(orders.error).toBeUndefined()
    const mine = orders.data.orders.map((o: any) => [o.client_id, o.status, o.size])
    expect(mine).toEqual(
      expect.arrayContaining([
        ['good', 'OPEN', '1'],
        ['bad', 'REJECTED', '0'],
      ]),
    )
    const open = await client.listOrders({ wallet: owner.address, status: 'OPEN' })
    expect(open.data.orders.map((o: any) => o.client_id)).toEqual(['good'])
    const book = await client.getOrderbook({ symbol })
    expect(book.data.result.bids).toEqual(expect.arrayContaining([expect.objectContaining({ price: '100' })]))
    const missing = await client.getOrderbook({ symbol: 'NOPE-20261225-1-C' })
    expect(missing.data.error).toEqual({ code: 13020, message: 'not_found' })
    expect((await client.getHealth()).data).toEqual({ status: 'ok' })
    const meta = await client.perpInfo({ type: 'meta' })
    expect(meta.data.universe.map((u: any) => u.name)).toContain(symbol)
    const bad = await client.listOrders({})
    expect(bad.error).toMatchObject({ status: 400, code: 'invalid_field' })
  })

  it('replaces and cancels in bulk, by order ID and by client ID', async () => {
    const placed = await client.placeOrders({ orders: ['r1', 'c1', 'c2'].map((client_id) => ({ ...base, size: '1', client_id })) })
    const [r1, c1] = placed.data.results
    const replaced = await client.replaceOrders({
      replacements: [{ cancel: { order_id: r1.order_id }, order: { ...base, size: '2', client_id: 'r2' } }],
    })
    expect(replaced.data.results[0].cancel.status).toBe('CANCELED')
    expect(replaced.data.results[0].order.status).toBe('ACKED')
    const byId = await client.cancelOrders({ cancels: [{ order_id: c1.order_id }, { order_id: '999999' }] })
    expect(byId.data.results.map((x: any) => x.status)).toEqual(['CANCELED', 'REJECTED'])
    const byCloid = await client.cancelOrdersByClientId({ cancels: [{ client_id: 'c2' }] })
    expect(byCloid.data.results.map((x: any) => x.status)).toEqual(['CANCELED'])
  })

  it('a perp order signed by the generated client is accepted, for the wallet and, after approve-agent, by its agent', async () => {
    const order = { a: 0, b: true, p: '90', s: '1', r: false, t: { limit: { tif: 'Gtc' } } }
    const placed = await client.perpExchange({ action: { type: 'order', orders: [order], grouping: 'na' } })
    expect(placed.data).toMatchObject({ status: 'ok', response: { type: 'order' } })
    const oid = placed.data.response.data.statuses[0].resting.oid
    expect(placed.rateLimit.limit).toEqual(expect.any(Number))
    // An order ID past 2^53 is hashed and sent exactly: the server verifies the signature and finds nothing to cancel.
    const far = await client.perpExchange({
      action: {
        type: 'cancel',
        cancels: [
          { a: 0, o: 2n ** 64n - 1n },
          { a: 0, o: oid },
        ],
      },
    })
    expect(far.data.status).toBe('ok')
    expect(far.data.response.data.statuses[0]).toHaveProperty('error')
    expect(far.data.response.data.statuses[1]).toBe('success')

    expect((await client.approveAgent({ agent: agent.address })).error).toBeUndefined()
    const agentClient = gen.createClient({ baseUrl: server.url, signer: agent, keccak256, retry: false })
    const asAgent = await agentClient.perpExchange({
      action: { type: 'order', orders: [{ ...order, c: `0x${'ab'.repeat(16)}` }], grouping: 'na' },
      vaultAddress: owner.address,
    })
    expect(asAgent.data.response.data.statuses[0].resting.oid).toEqual(expect.any(Number))
    // Without vaultAddress an agent of exactly one wallet trades for that wallet.
    const implicit = await agentClient.perpExchange({ action: { type: 'order', orders: [{ ...order, p: '80' }], grouping: 'na' } })
    expect(implicit.data.response.data.statuses[0].resting.oid).toEqual(expect.any(Number))
    const owned = await client.listOrders({ wallet: owner.address, status: 'OPEN' })
    expect(owned.data.orders.map((o: any) => o.price)).toContain('80')
    const agents = await client.listAuthorizedAgents({ wallet: owner.address })
    expect(agents.data.agents.map((x: any) => x.agent.toLowerCase())).toEqual([agent.address.toLowerCase()])
    const cancel = await agentClient.perpExchange({
      action: { type: 'cancelByCloid', cancels: [{ asset: 0, cloid: `0x${'ab'.repeat(16)}` }] },
      vaultAddress: owner.address,
    })
    expect(cancel.data.response.data.statuses).toEqual(['success'])
    // The testnet source signs another Agent: the server (mainnet) recovers someone else and refuses it.
    const testnet = gen.createClient({ baseUrl: server.url, signer: owner, keccak256, isMainnet: false, retry: false })
    const refused = await testnet.perpExchange({ action: { type: 'order', orders: [order], grouping: 'na' } })
    expect(refused.data.status).toBe('err')
  })
})

describe('the generated client behind examples/generated-client/driver.ts', () => {
  const driver = () => ['node', '--import', 'tsx', join(DIR, 'driver.ts')]

  it('passes oec check client --http with zero failures', async () => {
    const r = await runOec(['check', 'client', '--http', '--reporter', 'json', '--', ...driver()], { timeoutMs: 170_000 })
    expect(r.code, r.stderr + r.stdout.slice(0, 3000)).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.counts.fail + doc.counts.warn).toBe(0)
    expect(doc.counts.pass).toBeGreaterThan(0)
  }, 180_000)

  it('passes the signing protocol (options families) with zero failures', async () => {
    const families = 'place-order-valid,cancel,agent-approval,domain-mismatch,nonce,signature-encoding,string-format,struct-mismatch'
    const r = await runOec(['check', 'client', '--reporter', 'json', '--only', families, '--', ...driver(), '--jsonl'], {
      timeoutMs: 170_000,
    })
    expect(r.code, r.stderr + r.stdout.slice(0, 3000)).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.counts.fail + doc.counts.warn).toBe(0)
    expect(doc.counts.pass).toBeGreaterThan(300)
  }, 180_000)
})

mkdirSync(DIR, { recursive: true })

describe('path parameters (a spec with `{name}` in a path)', () => {
  const edits: [string, string][] = [
    [
      '  /orderbook:\n',
      `  /orders/{order_id}:
    get:
      operationId: getOrderById
      parameters:
        - name: order_id
          in: path
          required: true
          schema:
            type: string
        - $ref: "#/components/parameters/WalletQuery"
      responses:
        "200":
          description: The order.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/OrderList"
  /orderbook:
`,
    ],
  ]
  const t = tempDir('path-params')
  afterAll(() => t.cleanup())

  it('a GET fills {name} from the input (encoded) and sends the rest as the query', async () => {
    const dir = join(DIR, 'path-params')
    writeGenerated(dir, await generateFiles({ spec: editedSpec(t.dir, 'spec.yaml', edits) }))
    const edited = await import(pathToFileURL(join(dir, 'client.ts')).href)
    const urls: string[] = []
    const fetch = async (url: string) => (urls.push(url), new Response('{"orders":[]}', { status: 200 }))
    const client = edited.createClient({ baseUrl: 'http://x', signer: privateKeyToAccount(KEY), fetch })
    const r = await client.getOrderById({ order_id: 'a/17', wallet: '0xabc' })
    expect(r.error).toBeUndefined()
    expect(urls).toEqual(['http://x/orders/a%2F17?wallet=0xabc'])
    await expect(client.getOrderById({ wallet: '0xabc' })).rejects.toThrow(/path parameter order_id is missing/)
  })

  it('refuses a path parameter of an operation with a body that the body does not carry', async () => {
    const path = editedSpec(t.dir, 'refused.yaml', [
      [
        '  /approve-agent:\n    post:\n',
        '  /approve-agent/{slot}:\n    post:\n      parameters:\n        - name: slot\n          in: path\n          required: true\n          schema:\n            type: string\n',
      ],
    ])
    await expect(generateFiles({ spec: path })).rejects.toThrow(
      /path parameter \{slot\} of an operation with a body must also be a body property/,
    )
  })
})
