/** `oec sign` through the real binary: the JSON-lines protocol, one-shot mode and flags. */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import fc from 'fast-check'
import { parse as losslessParse } from 'lossless-json'
import { hashTypedData, type TypedDataDefinition } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  addressOf,
  exactDomain,
  parseBody,
  perpActionHash,
  type Hex,
  type OptionsKind,
  type OptionsMessage,
} from '../../src/signing/index.ts'
import { digestOf, messageFromBody, typedDataFor, verifyOptions } from '../helpers/shipped.ts'
import { OEC, ROOT, runOec } from '../helpers/cli.ts'
import { keyArb, kindMessageArb } from './arbitraries.ts'

// Each run starts the whole CLI; on a loaded 2-core box that can take seconds, so be generous.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })
const T = { timeoutMs: 120_000 }

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as Hex
const ADDRESS = addressOf(KEY)

/** JSON text of a request whose bigint nonce is written as a JSON integer. */
function line(req: Record<string, unknown>): string {
  return JSON.stringify(req, (_k, v: unknown) => (typeof v === 'bigint' ? `@@${v}@@` : v)).replace(/"@@(\d+)@@"/g, '$1')
}

function answers(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

/** One long-lived `oec sign --jsonl` shared by the protocol tests (as a client testee would use it). */
class SignSession {
  private readonly child = spawn(process.execPath, [OEC, 'sign', '--jsonl'], { cwd: ROOT, env: { ...process.env, OEC_DEBUG: '' } })
  private readonly lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]()
  stderr = ''
  constructor() {
    this.child.stderr.on('data', (d) => (this.stderr += d))
  }
  /** Writes the lines (pipelined) and reads one answer per non-blank line. */
  async ask(lines: readonly string[]): Promise<string[]> {
    this.child.stdin.write(lines.map((l) => `${l}\n`).join(''))
    const out: string[] = []
    for (const l of lines) {
      if (l.trim() === '') continue
      const next = await this.lines.next()
      if (next.done) throw new Error(`oec sign --jsonl ended early: ${this.stderr}`)
      out.push(next.value)
    }
    return out
  }
  async close(): Promise<number | null> {
    this.child.stdin.end()
    return new Promise((resolve) => this.child.on('close', resolve))
  }
}

const FLAG_ARGS = [
  'sign',
  '--kind',
  'PlaceOrder',
  '--key-env',
  'OEC_TEST_SIGN_KEY',
  '--symbol',
  'ETH-20261231-4000-C',
  '--side',
  'Sell',
  '--size',
  '2.50',
  '--price',
  '0.1',
  '--tif',
  'fok',
  '--client-id',
  '',
  '--nonce',
  '18446744073709551615',
]
const PURE_JS_REQS = fc
  .sample(kindMessageArb, { numRuns: 10, seed: 7 })
  .map(({ kind, message }, i) => ({ id: i, op: 'sign', kind, privateKey: KEY, message }))

let session: SignSession
/** Independent binary runs, started together up front so their start-up costs overlap. */
let runs: Record<
  'pureJs' | 'oneOk' | 'oneBad' | 'flags' | 'flagsJson' | 'flagsUnknown' | 'address' | 'addressNoKey',
  Promise<Awaited<ReturnType<typeof runOec>>>
>
beforeAll(() => {
  session = new SignSession()
  process.env.OEC_PURE_JS = '1'
  const pureJs = runOec(['sign', '--jsonl'], { ...T, input: PURE_JS_REQS.map(line).join('\n') })
  delete process.env.OEC_PURE_JS
  process.env.OEC_TEST_SIGN_KEY = KEY
  runs = {
    pureJs,
    oneOk: runOec(['sign'], {
      ...T,
      input: line({ op: 'sign', kind: 'ApproveAgent', privateKey: KEY, message: { agent: ADDRESS, nonce: 3n } }),
    }),
    oneBad: runOec(['sign'], {
      ...T,
      input: line({ op: 'sign', kind: 'ApproveAgent', privateKey: KEY.slice(0, 64), message: { agent: ADDRESS, nonce: 3n } }),
    }),
    flags: runOec(FLAG_ARGS, T),
    flagsJson: runOec([...FLAG_ARGS, '--route', 'book_only', '--chain-id', '1', '--json'], T),
    flagsUnknown: runOec([...FLAG_ARGS, '--colour', 'red'], T),
    address: runOec(['sign', '--address', '--key-env', 'OEC_TEST_SIGN_KEY'], T),
    addressNoKey: runOec(['sign', '--address', '--key-env', 'OEC_TEST_NO_SUCH_KEY'], T),
  }
  delete process.env.OEC_TEST_SIGN_KEY
})
afterAll(async () => {
  expect(await session.close()).toBe(0)
})

describe('oec sign --jsonl', () => {
  it('round trips: every sign answer verifies to the key address; bodies re-parse to the signed fields', async () => {
    const samples = fc.sample(fc.tuple(kindMessageArb, keyArb), { numRuns: 40, seed: 42 })
    const signReqs = samples.map(([{ kind, message }, key], i) => ({ id: i, op: 'sign', kind, privateKey: key, message }))
    const out = (await session.ask(signReqs.map(line))).map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(out.map((a) => a.id)).toEqual(signReqs.map((r) => r.id))
    for (const [i, a] of out.entries()) {
      const [{ kind, message }, key] = samples[i]!
      expect(a.error).toBeUndefined()
      expect(a.digest).toBe(digestOf(kind, message))
      const parsed = parseBody(a.body as string)
      if (!parsed.ok) throw new Error(parsed.message)
      expect(messageFromBody(kind, parsed)).toEqual(message)
      expect(verifyOptions(kind, message, a.signature as string)).toMatchObject({ ok: true, signer: addressOf(key) })
    }
    // The same answers through `op: verify` of the binary.
    const verifyReqs = out.map((a, i) => ({
      id: `v${i}`,
      op: 'verify',
      kind: samples[i]![0].kind,
      message: samples[i]![0].message,
      signature: a.signature,
    }))
    const vout = (await session.ask(verifyReqs.map(line))).map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(vout.map((a) => a.id)).toEqual(verifyReqs.map((r) => r.id))
    vout.forEach((a, i) => expect((a.signer as string).toLowerCase()).toBe(addressOf(samples[i]![1]).toLowerCase()))
  })

  it('bad lines get a one-line error and the stream goes on', async () => {
    const good = { op: 'sign', kind: 'ApproveAgent', privateKey: KEY, message: { agent: ADDRESS, nonce: 7n } }
    const order = {
      wallet: ADDRESS,
      symbol: 'BTC-20261231-100000-C',
      side: 'Buy',
      size: '1',
      price: '100',
      tif: 'gtc',
      route: 'book_only',
      clientId: 'x',
      nonce: 1n,
    }
    const bad: [string, RegExp][] = [
      [line({ id: 1, ...good, privateKey: `0x${'zz'.repeat(32)}` }), /privateKey is not 0x-prefixed hex/],
      [line({ id: 2, ...good, privateKey: KEY.slice(0, 64) }), /privateKey must be 32 bytes/],
      [line({ id: 3, ...good, message: { agent: ADDRESS, nonce: 1n << 64n } }), /nonce must be in 0\.\.18446744073709551615/],
      [
        line({ id: 4, op: 'sign', kind: 'PlaceOrder', privateKey: KEY, message: order }).replace('"price":"100"', '"price":100'),
        /price must be a string/,
      ],
      [line({ id: 5, ...good, kind: 'CancelEverything' }), /unknown kind "CancelEverything"/],
      ['{"id":6,"op":"sign",', /invalid JSON/],
      [line({ id: 7, ...good, message: { agent: ADDRESS, nonce: '7' } }), /nonce must be an integer/],
      [line({ id: 8, ...good, op: 'mint' }), /unknown op/],
      ['[1,2]', /must be a JSON object/],
    ]
    const input = bad.flatMap(([l], i) => [l, '', line({ id: `ok${i}`, ...good })])
    const raw = await session.ask(input)
    const out = raw.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(out).toHaveLength(bad.length * 2)
    bad.forEach(([, re], i) => {
      const err = out[2 * i]!
      expect(err.error).toMatch(re)
      if (i !== 5 && i !== 8) expect(err.id).toBe(i + 1)
      expect(out[2 * i + 1]).toMatchObject({ id: `ok${i}` })
      expect(out[2 * i + 1]!.signature).toMatch(/^0x[0-9a-f]{130}$/)
    })
    expect(raw.join('\n') + session.stderr).not.toContain(KEY.slice(2))
  })

  it('domain replaces the default whole; nonce and integer ids keep every digit; Agent answers', async () => {
    const message = { agent: ADDRESS, nonce: (1n << 64n) - 1n }
    const domain = { name: 'Service', version: '1', chainId: 999 }
    const action = {
      type: 'order',
      orders: [{ a: 0, b: true, p: '30000', s: '0.1', r: false, t: { limit: { tif: 'Gtc' } } }],
      grouping: 'na',
    }
    const input = [
      line({ id: 12345678901234567890n, op: 'sign', kind: 'RevokeAgent', privateKey: KEY, domain, message }),
      line({
        id: 'p',
        op: 'sign',
        kind: 'Agent',
        privateKey: KEY,
        message: {
          action,
          nonce: 1234567890n,
          vaultAddress: '0x1234567890123456789012345678901234567890',
          expiresAfter: 1234567890n,
          isMainnet: true,
        },
      }),
      line({
        id: 'p-float',
        op: 'sign',
        kind: 'Agent',
        privateKey: KEY,
        message: { action: { type: 'x', px: 1.5 }, nonce: 1n, isMainnet: true },
      }),
    ]
    const [first, perp, float] = await session.ask(input)
    const a = losslessParse(first!) as Record<string, unknown>
    expect(String(a.id)).toBe('12345678901234567890')
    const typed = typedDataFor('RevokeAgent', message, exactDomain(domain))
    expect(a.digest).toBe(hashTypedData(typed as unknown as TypedDataDefinition))
    expect(a.body).toContain('"nonce":18446744073709551615')
    const p = JSON.parse(perp!) as Record<string, unknown>
    expect(p.connectionId).toBe(
      perpActionHash({ action, nonce: 1234567890n, vaultAddress: '0x1234567890123456789012345678901234567890', expiresAfter: 1234567890n }),
    )
    expect(Object.keys(p)).toEqual(['id', 'connectionId', 'digest', 'signature', 'r', 's', 'v'])
    expect(JSON.parse(float!)).toMatchObject({ id: 'p-float', error: expect.stringMatching(/action\.px: 1\.5 is not an integer/) })
  })

  it('answers interactively: each answer arrives before the next request is written', async () => {
    // ask() writes one request and waits for its answer before the next is written.
    for (let i = 0; i < 3; i++) {
      const [a] = await session.ask([
        line({ id: `i${i}`, op: 'sign', kind: 'ApproveAgent', privateKey: KEY, message: { agent: ADDRESS, nonce: BigInt(i) } }),
      ])
      expect(JSON.parse(a!)).toMatchObject({ id: `i${i}` })
    }
  })

  it('the pure-JS fallback serves the same answers', async () => {
    const native = await session.ask(PURE_JS_REQS.map(line))
    const js = await runs.pureJs
    expect(answers(js.stdout)).toHaveLength(10)
    expect(js.stdout).toBe(native.map((l) => `${l}\n`).join(''))
  })
})

describe('oec sign (one request, flags)', () => {
  it('one JSON document on stdin gets one answer; bad input exits 2 with one line', async () => {
    const [ok, bad] = await Promise.all([runs.oneOk, runs.oneBad])
    expect(ok.code).toBe(0)
    expect(Object.keys(JSON.parse(ok.stdout))).toEqual(['digest', 'signature', 'body'])
    expect(bad.code).toBe(2)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
    expect(bad.stderr).toMatch(/privateKey must be 32 bytes/)
  })

  it('flags print the exact body, signed by the key in --key-env, and never the key', async () => {
    {
      const [r, json, unknown] = await Promise.all([runs.flags, runs.flagsJson, runs.flagsUnknown])
      expect(r.code).toBe(0)
      expect(r.stdout + r.stderr).not.toContain(KEY.slice(2))
      const parsed = parseBody(r.stdout.trim())
      if (!parsed.ok) throw new Error(parsed.message)
      const message = messageFromBody('PlaceOrder' as OptionsKind, parsed)
      expect(message).toEqual({
        wallet: ADDRESS,
        symbol: 'ETH-20261231-4000-C',
        side: 'Sell',
        size: '2.50',
        price: '0.1',
        tif: 'fok',
        clientId: '',
        nonce: 18446744073709551615n,
      } satisfies OptionsMessage)
      const sig = (parsed.value as Record<string, string>).signature!
      expect(verifyOptions('PlaceOrder', message, sig)).toMatchObject({ ok: true, signer: ADDRESS })
      const full = JSON.parse(json.stdout) as { digest: string; body: string }
      expect(full.body).toContain('"route":"book_only"')
      expect(full.digest).toBe(digestOf('PlaceOrder', { ...message, route: 'book_only' }, { chainId: 1 }))
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toMatch(/PlaceOrder has no field --colour/)
    }
  })

  it("--address prints the key's checksummed address and nothing else; no key is exit 2", async () => {
    const [r, none] = await Promise.all([runs.address, runs.addressNoKey])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`${ADDRESS}\n`)
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/^oec: sign: environment variable OEC_TEST_NO_SUCH_KEY \(--key-env\) holds no private key\n$/)
  })
})
