import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { bodyDifferences, clientCases, runClientCheck, type ClientRunOptions } from '../../src/check/client/index.ts'
import type { CaseResult } from '../../src/report/index.ts'
import { loadVectorCases } from '../../src/vectors/index.ts'
import { runOec } from '../helpers/cli.ts'

const tmp = mkdtempSync(join(tmpdir(), 'oec-client-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const testee = (name: string) => ['node', '--import', 'tsx', `test/check-client/testees/${name}.mts`]
const cases = loadVectorCases()
const idOf = (family: string, re: RegExp) => {
  const c = cases.find((x) => x.family === family && re.test(x.case.comment))
  if (!c) throw new Error(`no ${family} case matching ${re}`)
  return c.id
}

async function run(name: string, only: string[], extra: Partial<ClientRunOptions> = {}) {
  const r = await runClientCheck({ command: testee(name), only, timeoutMs: 5000, ...extra })
  const byId = new Map(r.summary.results.map((x) => [x.id, x]))
  return { results: r.summary.results, get: (id: string) => byId.get(id) as CaseResult }
}

describe('oec check client: the toolkit checking itself', () => {
  it('passes every case against `oec sign --jsonl`', async () => {
    const r = await runOec(['check', 'client', '--reporter', 'json', '--', 'oec', 'sign', '--jsonl'], { timeoutMs: 120_000 })
    expect(r.code, r.stderr + r.stdout.slice(0, 2000)).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.ok).toBe(true)
    expect(doc.counts.fail + doc.counts.warn).toBe(0)
    expect(doc.counts.pass).toBeGreaterThan(300)
  }, 150_000)
})

describe('oec check client catches deliberately wrong testees, naming the case and the rule', () => {
  const valid1 = 'place-order-valid/1'
  const omitted = idOf('place-order-valid', /^Buy gtc route omitted/)
  const big = idOf('place-order-valid', /^nonce 2\^53\+1 \(the first/)
  const highS = idOf('signature-encoding', /v = 27: high-s twin \(/)
  const canonical = idOf('signature-encoding', /v = 27: canonical/)

  it.concurrent('number prices', async () => {
    const r = await run('number-prices', [valid1, omitted])
    const f = r.get(valid1)
    expect(f.outcome).toBe('fail')
    expect(f.rules).toContain('PO-4')
    expect(f.message).toMatch(/body price: expected the string "100.0", got the JSON number 100.0/)
  }, 90_000)

  it.concurrent('always includes route', async () => {
    const r = await run('always-route', [valid1, omitted])
    expect(r.get(valid1).outcome).toBe('pass')
    const f = r.get(omitted)
    expect(f.outcome).toBe('fail')
    expect(f.rules).toEqual(expect.arrayContaining(['PO-6', 'SIG-2']))
    expect(f.message).toMatch(/body route: the string "best_execution" is present although the message was signed without route/)
  }, 90_000)

  it.concurrent('signs with chainId 1 (via the CLI, JUnit report)', async () => {
    const out = join(tmp, 'chain.xml')
    const r = await runOec(
      ['check', 'client', '--reporter', 'junit', '--out', out, '--only', `${valid1},${canonical}`, '--', ...testee('chain-id-1')],
      { timeoutMs: 90_000 },
    )
    expect(r.code, r.stderr).toBe(1)
    const xml = readFileSync(out, 'utf8')
    expect(xml).toMatch(/<testcase classname="place-order-valid" name="place-order-valid\/1 /)
    expect(xml).toMatch(/<failure message="sign: digest 0x[0-9a-f]{64}, expected 0x[0-9a-f]{64}.*\[[^\]]*DOM-3[^\]]*\]"/)
    expect(xml).toMatch(/verify: digest 0x[0-9a-f]{64}, expected/)
  }, 90_000)

  it.concurrent('loses nonce precision (JSON.parse)', async () => {
    const r = await run('nonce-precision', [valid1, big])
    expect(r.get(valid1).outcome).toBe('pass')
    const f = r.get(big)
    expect(f.outcome).toBe('fail')
    expect(f.rules).toEqual(expect.arrayContaining(['NONCE-1', 'WIRE-2']))
    expect(f.message).toMatch(/body nonce: expected the JSON number 9007199254740993, got the JSON number 9007199254740992/)
  }, 90_000)

  it.concurrent('accepts high-s', async () => {
    const r = await run('accepts-high-s', [canonical, highS])
    expect(r.get(canonical).outcome).toBe('pass')
    const f = r.get(highS)
    expect(f.outcome).toBe('fail') // accepting what must be refused fails even though SIG-10 is assumed
    expect(f.rules).toContain('SIG-10')
    expect(f.message).toMatch(/verify: accepted .* but a correct verifier refuses this signature/)
  }, 90_000)

  it.concurrent('hangs: every case fails, the run ends, the testee is killed', async () => {
    const t = Date.now()
    const r = await run('hangs', [valid1, omitted, big], { timeoutMs: 300, startupMs: 500 })
    expect(r.results.map((x) => x.outcome)).toEqual(['fail', 'fail', 'fail'])
    expect(r.get(valid1).message).toMatch(/no answer within 300 ms/)
    expect(r.get(big).message).toMatch(/the testee stopped answering/)
    expect(Date.now() - t).toBeLessThan(30_000)
  }, 60_000)
})

describe('oec check client survives misbehaving testees', () => {
  const unicode = idOf('place-order-valid', /^non-ASCII client_id/)
  const plain = 'place-order-valid/1'

  it.concurrent('a crash fails the case that crashed it; the testee is restarted for the rest', async () => {
    const r = await run('crashes', [plain, unicode, 'place-order-valid/2'])
    expect(r.get(unicode).outcome).toBe('fail')
    expect(r.get(unicode).message).toMatch(/the testee exited \(code 3\)/)
    expect(r.get(plain).outcome).toBe('pass')
    expect(r.get('place-order-valid/2').outcome).toBe('pass')
  }, 90_000)

  it.concurrent('garbage on stdout fails the case it replaces', async () => {
    const r = await run('garbage', [plain, 'place-order-valid/2'])
    for (const x of r.results) {
      expect(x.outcome).toBe('fail')
      expect(x.message).toMatch(/verify: unparseable answer line: verifying\.\.\. done/)
    }
  }, 90_000)

  it.concurrent('answers out of order are failures of the case answered early', async () => {
    const r = await run('out-of-order', [plain])
    expect(r.get(plain).outcome).toBe('fail')
    expect(r.get(plain).message).toMatch(/answered out of order: the answer to place-order-valid\/1#sign was due first/)
  }, 90_000)

  it.concurrent('a command that does not exist fails every case with one clear message', async () => {
    const r = await runClientCheck({ command: ['/nonexistent/signer-binary'], only: [plain], timeoutMs: 1000 })
    expect(r.summary.results[0]!.outcome).toBe('fail')
    expect(r.summary.results[0]!.message).toMatch(/cannot start the testee/)
  }, 30_000)

  it.concurrent('bad usage exits 2 with one line', async () => {
    const r = await runOec(['check', 'client', '--fix', '--', 'x'], { timeoutMs: 60_000 })
    expect(r.code).toBe(2)
    expect(r.stderr.trim()).toBe('oec: check client: --fix needs --expected-failures FILE')
    expect(clientCases(undefined, ['no-such-family'])).toEqual([])
  }, 90_000)
})

describe('body comparison by meaning', () => {
  const body = '{"wallet":"0xAb","size":"1.50","nonce":9007199254740993,"signature":"0xAA"}'
  const wallet = '0x00000000000000000000000000000000000000aB'
  const addressed = body.replace('"0xAb"', JSON.stringify(wallet))
  it('ignores key order, whitespace, escaping and the case of address fields', () => {
    expect(
      bodyDifferences(
        addressed,
        ` { "nonce" : 9007199254740993, "size":"1\\u002e50", "signature":"0xAA", "wallet":"${wallet.toLowerCase()}" }`,
        { addresses: ['wallet'] },
      ),
    ).toEqual([])
  })
  it('compares every other string exactly, hex-looking ones included', () => {
    expect(
      bodyDifferences(addressed, `{"nonce":9007199254740993,"size":"1.50","signature":"0xaa","wallet":"${wallet}"}`, {
        addresses: ['wallet'],
      }),
    ).toEqual(['signature: expected the string "0xAA", got the string "0xaa"'])
    const cloid = '{"client_id":"0xAB","wallet":"0x00000000000000000000000000000000000000aB"}'
    expect(
      bodyDifferences(cloid, '{"client_id":"0xab","wallet":"0x00000000000000000000000000000000000000AB"}', { addresses: ['wallet'] }),
    ).toEqual(['client_id: expected the string "0xAB", got the string "0xab"'])
  })
  it('names every difference', () => {
    expect(bodyDifferences(body, '{"wallet":"0xAb","size":1.5,"nonce":9007199254740992,"signature":"0xAA","route":"book_only"}')).toEqual([
      'route: the string "book_only" is present although the message was signed without route',
      'size: expected the string "1.50", got the JSON number 1.5',
      'nonce: expected the JSON number 9007199254740993, got the JSON number 9007199254740992',
    ])
    expect(bodyDifferences(body, '{"wallet":"0xAb","size":"1.5","nonce":"9007199254740993","signature":"0xAA"}')).toEqual([
      'size: expected the string "1.50", got the string "1.5"',
      'nonce: expected the JSON number 9007199254740993, got the string "9007199254740993"',
    ])
    expect(bodyDifferences(body, 'not json')[0]).toMatch(/not JSON/)
  })
})
