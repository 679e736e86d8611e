/**
 * The contract is a value: a release-candidate spec that renames the options domain and adds a
 * signed field to PlaceOrder is served, signed and checked as that spec says, in-process and
 * through the real binary. Orders signed for the shipped spec are refused by it.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadContract, type FullContract } from '../../src/contract/index.ts'
import { startServer, type RunningServer } from '../../src/server/index.ts'
import { addressOf, signingFor } from '../../src/signing/index.ts'
import { ROOT, runOec, startServe } from '../helpers/cli.ts'
import { signing as shipped } from '../helpers/shipped.ts'

const DOMAIN = 'AcmeOptions'

interface Report {
  counts: { pass: number; fail: number; warn: number; skip: number; xfail: number }
}

/** The shipped spec with the options domain renamed and a `memo` field signed in both PlaceOrder structs. */
export function editedSpecText(): string {
  let s = readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8')
  const swap = (from: string, to: string, count: number) => {
    const parts = s.split(from)
    expect(parts.length - 1, `"${from.trim()}" occurs ${count} times in the shipped spec`).toBe(count)
    s = parts.join(to)
  }
  swap('      name: Service\n', `      name: ${DOMAIN}\n`, 1)
  swap('        - { name: tif, type: string }\n', '        - { name: tif, type: string }\n        - { name: memo, type: string }\n', 2)
  swap(
    '      required: [wallet, symbol, side, size, price, tif, client_id, nonce, signature]\n',
    '      required: [wallet, symbol, side, size, price, tif, memo, client_id, nonce, signature]\n',
    1,
  )
  const route =
    '        route:\n          $ref: "#/components/schemas/Route"\n          description: When omitted the server treats it as `best_execution`; send it.\n'
  swap(route, `        memo:\n          type: string\n${route}`, 1)
  return s
}

const KEY = `0x${'11'.repeat(32)}` as const
const WALLET = addressOf(KEY)
let nonce = 1_000n

function message(withMemo: boolean): Record<string, string | bigint> {
  return {
    wallet: WALLET,
    symbol: 'BTC-20261225-100000-C',
    side: 'Buy',
    size: '1',
    price: '100',
    tif: 'gtc',
    ...(withMemo ? { memo: 'release candidate' } : {}),
    route: 'book_only',
    clientId: `c${nonce}`,
    nonce: nonce++,
  }
}

async function post(url: string, body: string): Promise<{ status: number; json: { status?: string; code?: string } }> {
  const r = await fetch(`${url}/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return { status: r.status, json: (await r.json()) as { status?: string; code?: string } }
}

let dir: string
let specPath: string
let edited: FullContract

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'oec-edited-'))
  specPath = join(dir, 'openapi.yaml')
  writeFileSync(specPath, editedSpecText())
  copyFileSync(join(ROOT, 'spec/rules.yaml'), join(dir, 'rules.yaml'))
  edited = loadContract(specPath) as FullContract
})

/** What a server of the edited spec must do with orders signed for either spec. */
async function expectServesEdited(url: string): Promise<void> {
  const mine = await signingFor(edited).buildRequest('PlaceOrder', message(true), KEY)
  expect(mine.body).toContain('"memo":"release candidate"')
  const accepted = await post(url, mine.body)
  expect(accepted).toMatchObject({ status: 200, json: { status: 'ACKED' } })

  // Signed for the shipped spec: another domain name and no memo in the struct.
  const old = await shipped.buildRequest('PlaceOrder', message(false), KEY)
  const refusedOld = await post(url, old.body.replace('"route"', '"memo":"release candidate","route"'))
  expect([401, 403]).toContain(refusedOld.status)
  // The same field values signed under the shipped domain name but the edited struct: the domain decides.
  const wrongDomain = await signingFor(edited).buildRequest('PlaceOrder', message(true), KEY, { name: 'Service' })
  expect([401, 403]).toContain((await post(url, wrongDomain.body)).status)
}

describe('a spec other than the shipped one', () => {
  it('compiles into a contract with the renamed domain and the new field', () => {
    expect(edited.typedData.domains.options?.name).toBe(DOMAIN)
    expect(
      signingFor(edited)
        .kindFields('PlaceOrder')
        .map((f) => f.name),
    ).toContain('memo')
    expect(shipped.kindFields('PlaceOrder').map((f) => f.name)).not.toContain('memo')
  })

  describe('startServer({ spec }) in-process', () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await startServer({ spec: specPath })
    })
    afterAll(() => server?.close())
    it('accepts orders signed for the edited spec and refuses orders signed for the shipped one', async () => {
      expect(server.config.domainName).toBe(DOMAIN)
      await expectServesEdited(server.url)
    })
  })

  describe('oec serve --spec, through the real binary', { timeout: 120_000 }, () => {
    let child: ChildProcess | undefined
    let url = ''
    beforeAll(async () => {
      const s = startServe(['--spec', specPath, '--port', '0'])
      child = s.child
      url = (await s.ready).url
    })
    afterAll(() => {
      child?.kill('SIGKILL')
    })
    it('serves the edited contract', async () => {
      await expectServesEdited(url)
    })
    it('oec check server --spec edited.yaml --target passes against it', async () => {
      const r = await runOec(
        [
          'check',
          'server',
          '--spec',
          specPath,
          '--target',
          url,
          '--symbol',
          'BTC-20261225-100000-C',
          '--symbol',
          'ETH-20261225-4000-C',
          '--reporter',
          'json',
        ],
        { timeoutMs: 110_000 },
      )
      // A wait for a fresh rate-limit window announces itself on stderr; nothing else may be there.
      expect(r.stderr.replace(/^oec check server: waiting for the rate-limit window until .*\n/gm, '')).toBe('')
      const report = JSON.parse(r.stdout) as Report
      expect(report.counts.fail).toBe(0)
      expect(report.counts.pass).toBeGreaterThan(300)
      expect(r.code).toBe(0)
    })
    it('the same run against the shipped spec fails on the renamed domain (the preflight says so first)', async () => {
      const args = ['check', 'server', '--target', url, '--symbol', 'BTC-20261225-100000-C', '--only', 'auth', '--reporter', 'json']
      const r = await runOec(args, { timeoutMs: 60_000 })
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/refuses a well-formed signed order .*Pass its spec with --spec/)
      const anyway = await runOec([...args, '--no-preflight'], { timeoutMs: 60_000 })
      expect(anyway.code).toBe(1)
    })
  })

  it('oec check server --spec edited.yaml against the embedded server passes, with the suite the shipped spec gets', async () => {
    const r = await runOec(['check', 'server', '--spec', specPath, '--reporter', 'json'], { timeoutMs: 60_000 })
    const base = await runOec(['check', 'server', '--reporter', 'json'], { timeoutMs: 60_000 })
    const counts = (t: string) => (JSON.parse(t) as Report).counts
    const total = (c: Report['counts']) => c.pass + c.fail + c.warn + c.skip + c.xfail
    expect(r.code).toBe(0)
    expect(counts(r.stdout)).toMatchObject({ fail: 0, warn: 0 })
    expect(total(counts(r.stdout))).toBe(total(counts(base.stdout)))
  })

  it("oec coverage --spec reads that spec's rules, vectors and checks", async () => {
    const r = await runOec(['coverage', '--spec', specPath, '--format', 'json'], { timeoutMs: 60_000 })
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout) as { rules: { id: string }[] }
    expect(json.rules.length).toBeGreaterThan(100)
  })

  it("oec check client --spec replays that spec's vectors; a signer of the shipped spec fails them", async () => {
    const ok = await runOec(
      [
        'check',
        'client',
        '--spec',
        specPath,
        '--reporter',
        'json',
        '--',
        process.execPath,
        join(ROOT, 'bin/oec.js'),
        'sign',
        '--jsonl',
        '--spec',
        specPath,
      ],
      { timeoutMs: 60_000 },
    )
    expect(ok.code).toBe(0)
    const stale = await runOec(
      [
        'check',
        'client',
        '--spec',
        specPath,
        '--only',
        'place-order-valid',
        '--reporter',
        'json',
        '--',
        process.execPath,
        join(ROOT, 'bin/oec.js'),
        'sign',
        '--jsonl',
      ],
      { timeoutMs: 60_000 },
    )
    expect(stale.code).toBe(1)
  })
})
