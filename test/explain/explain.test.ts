/**
 * `oec explain` against requests signed by an independent client (viem, typed data from the
 * seed's table): every mistake alone and every pair of mistakes on different axes is named, a
 * valid request verifies, an unexplainable one is `unknown` within the time bound, and bad input
 * is one line with exit 2.
 */
import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { shippedContract } from '../../src/contract/load.ts'
import { explainRequest, decimalSpellings, doubleNonces, parseCurl } from '../../src/explain/index.ts'
import { runMain } from '../helpers/main.ts'
import {
  account,
  approveAgent,
  KEY,
  MISTAKES,
  OPTIONS_DOMAIN,
  OTHER_KEY,
  PERP_DOMAIN,
  perpOrder,
  placeOrder,
  V_RAW,
} from './independent.ts'

const contract = shippedContract()
const ids = (body: string, opts = {}): string[] => explainRequest(contract, body, opts).causes.map((c) => c.id)

describe('oec explain: single mistakes', () => {
  it('a valid request is verified and names its signer', async () => {
    const e = explainRequest(contract, await placeOrder())
    expect(e).toMatchObject({ verified: true, signer: account.address, causes: [], operationId: 'placeOrder' })
  })

  it('v written as 0/1 verifies, with a note', async () => {
    const e = explainRequest(contract, await placeOrder([V_RAW]))
    expect(e.verified).toBe(true)
    expect(e.notes.join(' ')).toMatch(/v is written as [01]/)
  })

  for (const m of MISTAKES) {
    it(`${m.name} → ${m.cause}`, async () => {
      const e = explainRequest(contract, await placeOrder([m]))
      expect(e.verified).toBe(false)
      expect(e.causes.map((c) => c.id)).toContain(m.cause)
      expect(e.causes.map((c) => c.id)).not.toContain('unknown')
      expect(e.signer).toBe(account.address)
    })
  }

  it('says what was signed and what the service signs, in words', async () => {
    const e = explainRequest(contract, await placeOrder([MISTAKES.find((m) => m.name === 'chainId 1')!]))
    expect(e.causes).toEqual([
      expect.objectContaining({
        id: 'chain_id',
        signed: 'chainId 1',
        sent: 'chainId 999',
        text: 'you signed chainId 1; the service signs 999',
      }),
    ])
  })
})

describe('oec explain: two mistakes at a time', () => {
  const pairs: [(typeof MISTAKES)[number], (typeof MISTAKES)[number]][] = []
  for (let i = 0; i < MISTAKES.length; i++)
    for (let j = i + 1; j < MISTAKES.length; j++) if (MISTAKES[i]!.axis !== MISTAKES[j]!.axis) pairs.push([MISTAKES[i]!, MISTAKES[j]!])
  // The perp domain already changes name and chain ID: paired with another chain or name it is three mistakes.
  const two = pairs.filter(
    ([a, b]) =>
      !(a.axis === 'domain' && ['chain', 'name', 'version', 'vc'].includes(b.axis)) &&
      !(b.axis === 'domain' && ['chain', 'name', 'version', 'vc'].includes(a.axis)),
  )

  it(`names both causes of each of ${two.length} pairs`, { timeout: 600_000 }, async () => {
    const misses: string[] = []
    for (const [a, b] of two) {
      // A wide budget: this test is about the search space; the time bound has its own test.
      const got = ids(await placeOrder([a, b]), { budget: { maxMs: 20_000 } })
      if (!got.includes(a.cause) || !got.includes(b.cause) || got.includes('unknown'))
        misses.push(`${a.name} + ${b.name}: ${got.join(', ')}`)
    }
    expect(misses).toEqual([])
  })

  it('v as 0/1 does not hide another mistake', async () => {
    expect(ids(await placeOrder([V_RAW, MISTAKES[0]!]))).toEqual(['chain_id'])
  })
})

describe('oec explain: other signers, agents, perps', () => {
  it('a signature by a key the user names as known is other_signer', async () => {
    const other = privateKeyToAccount(OTHER_KEY)
    const body = await placeOrder([], { key: OTHER_KEY })
    expect(ids(body, { known: [other.address] })).toEqual(['other_signer'])
    // Named as the signer (an approved agent), the same request verifies.
    expect(explainRequest(contract, body, { signer: other.address })).toMatchObject({ verified: true, signer: other.address })
  })

  it('approve-agent: the owner named with --signer; a chain ID mistake found for the right message', async () => {
    const agent = privateKeyToAccount(OTHER_KEY).address
    const ok = await approveAgent(agent, 5n)
    expect(explainRequest(contract, ok, { signer: account.address })).toMatchObject({ verified: true, operationId: 'approveAgent' })
    const bad = await approveAgent(agent, 5n, { domain: { ...OPTIONS_DOMAIN, chainId: 1 } })
    expect(ids(bad, { signer: account.address, path: '/approve-agent', method: 'POST' })).toEqual(['chain_id'])
    // Signed by the agent itself: the agent is in the body, so it is recognised.
    const selfSigned = await approveAgent(agent, 6n, { key: OTHER_KEY })
    expect(ids(selfSigned, { signer: account.address, path: '/approve-agent' })).toEqual(['other_signer'])
  })

  it('a perp action signed with the options domain, and with chain ID 999', async () => {
    const nonce = 1_763_900_000_000n
    expect(explainRequest(contract, await perpOrder(PERP_DOMAIN, nonce), { signer: account.address })).toMatchObject({
      verified: true,
      operationId: 'perpExchange',
    })
    expect(ids(await perpOrder(OPTIONS_DOMAIN, nonce), { signer: account.address })).toEqual(
      expect.arrayContaining(['domain_name', 'chain_id']),
    )
    expect(ids(await perpOrder({ ...PERP_DOMAIN, chainId: 999 }, nonce), { signer: account.address })).toEqual(['chain_id'])
  })
})

describe('oec explain: body shapes', () => {
  it('a batch is explained item by item', async () => {
    const good = await placeOrder()
    const bad = await placeOrder([MISTAKES[0]!])
    const e = explainRequest(contract, `{"orders":[${good},${bad}]}`, { path: '/bulk_order', method: 'POST' })
    expect(e.operationId).toBe('placeOrders')
    expect(e.causes.map((c) => [c.id, c.item])).toEqual([['chain_id', 1]])
  })

  it('DELETE /order: the oneOf branch the body fits (cancel by client id), guessed from the keys', async () => {
    const sign = (chainId: number) =>
      account.signTypedData({
        domain: { ...OPTIONS_DOMAIN, chainId } as never,
        types: {
          CancelOrderByClientId: [
            { name: 'wallet', type: 'address' },
            { name: 'clientId', type: 'string' },
            { name: 'nonce', type: 'uint64' },
          ],
        },
        primaryType: 'CancelOrderByClientId',
        message: { wallet: account.address, clientId: 'c-1', nonce: 9n },
      })
    const body = async (chainId: number) =>
      `{"wallet":"${account.address}","client_id":"c-1","nonce":9,"signature":"${await sign(chainId)}"}`
    expect(explainRequest(contract, await body(999))).toMatchObject({ verified: true, operationId: 'cancelOrder' })
    expect(ids(await body(1337))).toEqual(['chain_id'])
  })

  it('clientId in the body instead of client_id is field_name', async () => {
    const body = (await placeOrder()).replace('"client_id"', '"clientId"')
    expect(ids(body, { path: '/order', method: 'POST' })).toEqual(['field_name'])
  })

  it('a nonce sent as a JSON string is named', async () => {
    const body = (await placeOrder([], { nonce: 77n })).replace('"nonce":77', '"nonce":"77"')
    expect(ids(body, { path: '/order', method: 'POST' })).toEqual(['nonce'])
  })
})

describe('oec explain: bounded', () => {
  it('an unexplainable request is unknown within the time bound', async () => {
    // A symbol changed after signing: no axis of the search touches the symbol.
    const body = (await placeOrder()).replace('BTC-20261225-100000-C', 'ETH-20261225-4000-C')
    const started = performance.now()
    const e = explainRequest(contract, body)
    const ms = performance.now() - started
    expect(e.causes.map((c) => c.id)).toEqual(['unknown'])
    expect(e.verified).toBe(false)
    expect(ms).toBeLessThan(3000)
  })
})

describe('oec explain: bounded when the space is larger than the budget', () => {
  it('a nonce near 2^63 makes the space large: unknown, at the budget', async () => {
    const body = (await placeOrder([], { nonce: (1n << 63n) + 12345n })).replace('BTC-20261225-100000-C', 'ETH-20261225-4000-C')
    const started = performance.now()
    const e = explainRequest(contract, body, { budget: { maxMs: 1000 } })
    const ms = performance.now() - started
    expect(e.causes.map((c) => c.id)).toEqual(['unknown'])
    expect(e.causes[0]!.text).toMatch(/budget ran out/)
    expect(ms).toBeGreaterThan(900)
    expect(ms).toBeLessThan(2000)
  })
})

describe('oec explain: pure parts', () => {
  it('decimal spellings keep the value and never repeat the input', () => {
    const s = decimalSpellings('100.5')
    expect(s).toEqual(expect.arrayContaining(['100.50', '1.005e+2', '1.005e2', '1.005E+2', '100.500']))
    expect(s).not.toContain('100.5')
    expect(decimalSpellings('2')).toEqual(expect.arrayContaining(['2.0', '2e0', '2.00']))
    expect(decimalSpellings('abc')).toEqual([])
  })

  it('double nonces are exactly the integers that round to the same double', () => {
    const sent = BigInt(JSON.stringify(Number(1_763_900_000_123_456_789n)))
    const all = doubleNonces(sent)
    expect(all).toContain(1_763_900_000_123_456_789n)
    for (const n of all) expect(Number(n) === Number(sent) || BigInt(Number(sent)) === n).toBe(true)
    expect(doubleNonces(12345n)).toEqual([])
  })

  it('curl command lines: body, method and path', () => {
    const c = parseCurl(`curl -X DELETE 'http://h:1/order' -H 'content-type: application/json' --data-binary '{"a":"b c"}'`, () => '')
    expect(c).toEqual({ method: 'DELETE', path: '/order', body: '{"a":"b c"}' })
    expect(parseCurl(`curl http://h/order -d@body.json`, (p) => `file:${p}`)).toEqual({
      method: 'POST',
      path: '/order',
      body: 'file:body.json',
    })
    expect(parseCurl(`curl $'http://h/order' --data-raw $'{"x":"it\\'s"}'`, () => '')).toMatchObject({ body: `{"x":"it's"}` })
  })
})

describe('oec explain: the command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oec-explain-'))

  it('a file: text names the cause and the fix; exit 1', async () => {
    const file = join(dir, 'chain.json')
    writeFileSync(file, await placeOrder([MISTAKES[0]!]))
    const r = await runMain(['explain', file])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('chain_id: you signed chainId 1; the service signs 999')
  })

  it('stdin with --format json; a valid request exits 0', async () => {
    const r = await runMain(['explain', '-', '--format', 'json'], await placeOrder())
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, signer: account.address, causes: [] })
  })

  it('--curl: the body of a curl command line', async () => {
    const body = await placeOrder([MISTAKES.find((m) => m.name === 'price sent as a number')!])
    const r = await runMain([
      'explain',
      '--format',
      'json',
      '--curl',
      `curl -X POST http://localhost:8080/order -H 'content-type: application/json' --data '${body}'`,
    ])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout).causes.map((c: { id: string }) => c.id)).toEqual(['number_field'])
  })

  it('bad input is one line, exit 2: not JSON, unknown operation, no signature', async () => {
    const body = JSON.parse(await placeOrder()) as Record<string, unknown>
    delete body.signature
    for (const [input, pattern] of [
      ['{not json', /not JSON/],
      ['{"hello":"world","x":1}', /unknown operation/],
      [JSON.stringify(body), /no signature/],
    ] as const) {
      const r = await runMain(['explain', '-'], input)
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).toMatch(pattern)
    }
    const r = await runMain(['explain', '--path', '/nowhere', '-'], await placeOrder())
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^oec: unknown operation/)
  })

  it('an approve-agent body without --signer asks for the owner', async () => {
    const r = await runMain(['explain', '-'], await approveAgent(privateKeyToAccount(OTHER_KEY).address, 1n, { key: KEY }))
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--signer/)
  })
})
