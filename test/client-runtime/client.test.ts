/**
 * The client runtime's builders, sender and results, run as the module they are
 * (src/client-runtime/client.ts) over its stand-in tables (tables.ts): a viem account signs, viem
 * recovers, and a scripted fetch answers. The generated client.ts carries the same text
 * (embed.test.ts); test/generate/client.test.ts runs that one against the reference server.
 */
import { keccak256, recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  build,
  buildPerp,
  caller,
  checkSignature,
  type FetchInit,
  type FetchResponse,
  monotonicNonces,
} from '../../src/client-runtime/client.ts'
import { runtimeTables } from '../../src/client-runtime/tables.ts'

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

function answer(status: number, text: string, headers: Record<string, string> = {}): FetchResponse {
  return { status, ok: status >= 200 && status < 300, headers: { get: (n) => headers[n] ?? null }, text: async () => text }
}

describe('checkSignature', () => {
  const r = '11'.repeat(32)
  const low = (N / 2n).toString(16).padStart(64, '0')
  const high = (N / 2n + 1n).toString(16).padStart(64, '0')
  it('rewrites v 0/1 as 27/28 and keeps 27/28', () => {
    expect(checkSignature(`0x${r}${low}00`)).toBe(`0x${r}${low}1b`)
    expect(checkSignature(`0x${r}${low}1c`)).toBe(`0x${r}${low}1c`)
  })
  it('refuses a high s, a bad v, a zero r and a short answer', () => {
    expect(() => checkSignature(`0x${r}${high}1b`)).toThrow(/high-s/)
    expect(() => checkSignature(`0x${r}${low}1d`)).toThrow(/v = 29/)
    expect(() => checkSignature(`0x${'00'.repeat(32)}${low}1b`)).toThrow(/out-of-range/)
    expect(() => checkSignature('0x1234')).toThrow(/65-byte/)
  })
})

describe('monotonicNonces', () => {
  it('is the clock in microseconds, one more per wallet when the clock stands still', () => {
    const nonces = monotonicNonces(() => 1_000)
    expect([nonces.next('0xA'), nonces.next('0xa'), nonces.next('0xb')]).toEqual([1_000_000n, 1_000_001n, 1_000_000n])
  })
})

describe('build', () => {
  it('picks the variant from the fields present, signs the typed data, and writes the body in struct order', async () => {
    const routed = await build(['PlaceRequest'], { size: '1.50', route: 'x', client_id: 2n ** 64n - 1n }, { signer: account, nonce: 7n })
    expect(routed.body).toBe(
      `{"wallet":"${account.address}","size":"1.50","route":"x","client_id":18446744073709551615,"nonce":7,"signature":"${routed.signature}"}`,
    )
    expect(await recoverTypedDataAddress({ ...routed.typedData, signature: routed.signature } as never)).toBe(account.address)
    const plain = await build(['PlaceRequest'], { size: '1', client_id: 1n }, { signer: account, nonce: 8n })
    expect(plain.typedData.types.Place!.map((f) => f.name)).not.toContain('route')
    expect(plain.body).not.toContain('route')
  })

  it('refuses a value of the wrong EIP-712 type and fields no variant takes', async () => {
    await expect(build(['PlaceRequest'], { size: 1.5, client_id: 1n }, { signer: account, nonce: 1n })).rejects.toThrow(
      /size must be a string/,
    )
    await expect(build(['PlaceRequest'], { size: '1', client_id: 1 }, { signer: account, nonce: 1n })).rejects.toThrow(
      /client_id must be a bigint/,
    )
    await expect(build(['PlaceRequest'], { size: '1', client_id: 1n, price: '2' }, { signer: account, nonce: 1n })).rejects.toThrow(
      /no signed body \(Place or PlaceWithoutRoute\) takes the fields size, client_id, price/,
    )
  })
})

describe('buildPerp', () => {
  it('hashes msgpack(action) ‖ nonce ‖ vault flag with the given keccak and signs the Agent', async () => {
    const plan = runtimeTables.plans.exchange.body.perp
    const signed = await buildPerp(plan, { action: { type: 'cancel', oid: 2n ** 60n } }, { signer: account, nonce: 5n, keccak256 })
    // fixmap(2) "type" "cancel" "oid" uint64, then the nonce as 8 bytes and no vault.
    const bytes = '82a474797065a663616e63656ca36f6964cf1000000000000000' + '0000000000000005' + '00'
    expect(signed.connectionId).toBe(keccak256(`0x${bytes}`))
    expect(signed.typedData.message).toEqual({ source: 'a', connectionId: signed.connectionId })
    expect(signed.body).toMatch(
      /^\{"action":\{"type":"cancel","oid":1152921504606846976\},"nonce":5,"signature":\{"r":"0x[0-9a-f]{64}","s":"0x[0-9a-f]{64}","v":2[78]\}\}$/,
    )
    await expect(buildPerp(plan, { action: { p: 1.5 } }, { signer: account, nonce: 5n, keccak256 })).rejects.toThrow(
      /^action\.p must be an integer/,
    )
  })
})

describe('caller', () => {
  it('fills the path, sends the query, retries a 429 after Retry-After and reads exact integers', async () => {
    const sent: [string, FetchInit][] = []
    const waits: number[] = []
    const script = [answer(429, '', { 'Retry-After': '2' }), answer(200, '{"id":18446744073709551615}', { 'X-RateLimit-Remaining': '9' })]
    const call = caller({
      baseUrl: 'http://venue',
      signer: account,
      fetch: async (url, init) => (sent.push([url, init]), script.shift()!),
      retry: { baseDelayMs: 10, sleep: async (ms) => void waits.push(ms) },
    })
    const result = await call('order', { id: 'a/b', limit: 3 })
    expect(sent.map(([url]) => url)).toEqual(['http://venue/orders/a%2Fb?limit=3', 'http://venue/orders/a%2Fb?limit=3'])
    expect(waits).toEqual([2010])
    expect(result.data).toEqual({ id: 18446744073709551615n })
    expect(result.rateLimit.remaining).toBe(9)
  })

  it('answers an error body as { error } with its code, and a missing path parameter as a TypeError', async () => {
    const call = caller({
      baseUrl: 'http://venue',
      signer: account,
      retry: false,
      fetch: async () => answer(400, '{"code":"INVALID_FIELD","message":"no"}'),
    })
    const result = await call('place', { size: '1', client_id: 1n })
    expect(result.error).toMatchObject({ status: 400, code: 'INVALID_FIELD', message: 'no' })
    expect(result.request.body).toContain('"size":"1"')
    await expect(call('order', {})).rejects.toThrow('path parameter id is missing')
  })
  it('sends the same bytes for an option given as undefined as for one left out, and honours one given', async () => {
    const run = async (options: {
      domain?: undefined | { name: string }
      isMainnet?: boolean | undefined
      perpDomain?: undefined | { name: string }
    }) => {
      const sent: string[] = []
      const call = caller({
        baseUrl: 'http://venue',
        signer: account,
        nonces: { next: () => 7n },
        keccak256,
        retry: false,
        fetch: async (_url, init) => (sent.push(init.body ?? ''), answer(200, '{}')),
        ...options,
      })
      const place = await call('place', { size: '1', client_id: 1n })
      const perp = await call('exchange', { action: { type: 'cancel', oid: 1n } })
      return { sent, place: place.request.typedData, perp: perp.request.typedData }
    }
    const left = await run({})
    const undef = await run({ domain: undefined, isMainnet: undefined, perpDomain: undefined })
    expect(undef).toEqual(left)
    expect(left.sent[0]).not.toContain('undefined')
    expect(left.perp.message.source).toBe('a')
    const given = await run({ domain: { name: 'other' }, isMainnet: false, perpDomain: { name: 'perp' } })
    expect(given.place.domain).toEqual({ name: 'other' })
    expect(given.perp.domain).toEqual({ name: 'perp' })
    expect(given.perp.message.source).toBe('b')
  })
})
