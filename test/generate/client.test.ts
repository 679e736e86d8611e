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
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateFiles, writeGenerated } from '../../src/generate/index.ts'
import { parseBody } from '../../src/signing/body.ts'
import { ROOT, runOec } from '../helpers/cli.ts'
import { contract, signing } from '../helpers/shipped.ts'

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
