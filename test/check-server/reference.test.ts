/**
 * The correct reference server passes the whole suite (slow checks included) with no failure;
 * the real binary's embedded run exits 0 with a readable summary; arguments and an unreachable
 * target exit 2 with one line; the json/junit reporters and expected-failure lists work.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runServerChecks, serverCheckCatalog } from '../../src/check/server/index.ts'
import { SimulatedClock, startServer, type RunningServer } from '../../src/server/index.ts'
import type { CaseResult } from '../../src/report/model.ts'
import { runOec } from '../helpers/cli.ts'

const tmp = mkdtempSync(join(tmpdir(), 'oec-check-server-'))

describe('the correct reference server', () => {
  let server: RunningServer
  let clock: SimulatedClock
  let results: CaseResult[]
  beforeAll(async () => {
    clock = new SimulatedClock(Date.UTC(2026, 5, 1, 9, 30, 0))
    server = await startServer({ deps: { clock } })
    const run = await runServerChecks({ target: server.url, clock, symbols: server.config.instruments })
    results = run.summary.results
  }, 60_000)
  afterAll(() => server.close())

  it('passes every check, slow ones included, with no failure', () => {
    const failed = results.filter((r) => r.outcome === 'fail')
    expect(failed.map((r) => `${r.id}: ${r.message}`)).toEqual([])
    expect(results.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(250)
  })

  it('runs every check of the catalog (none skipped, the slow ones too)', () => {
    const ran = new Set(results.map((r) => r.id.split('/')[0]))
    const catalog = serverCheckCatalog()
    expect(catalog.filter((c) => c.slow).length).toBeGreaterThanOrEqual(2)
    for (const c of catalog) expect(ran.has(c.id), c.id).toBe(true)
    expect(results.filter((r) => r.outcome === 'skip')).toEqual([])
  })

  it('gives every result a rule id from spec/rules.yaml and a level', () => {
    const rules = new Set([...readFileSync(new URL('../../spec/rules.yaml', import.meta.url), 'utf8').matchAll(/- id: (\S+)/g)].map((m) => m[1]))
    for (const r of results) {
      expect(r.rules.length, r.id).toBeGreaterThan(0)
      for (const id of r.rules) expect(rules.has(id), `${r.id} names unknown rule ${id}`).toBe(true)
      expect(['stated', 'assumed']).toContain(r.level)
    }
    for (const c of serverCheckCatalog()) for (const id of c.rules) expect(rules.has(id), `${c.id} names unknown rule ${id}`).toBe(true)
  })

  it('has stable, unique case ids', () => {
    const ids = results.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe('oec check server (the real binary)', () => {
  it('with no arguments runs the embedded server and exits 0 with a summary a newcomer can read', async () => {
    const r = await runOec(['check', 'server'], { timeoutMs: 60_000 })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/oec check server against embedded reference server \(http:\/\/127\.0\.0\.1:\d+\): PASSED/)
    expect(r.stdout).toMatch(/\d+ cases in [\d.]+ s: \d+ passed, 0 failed/)
    expect(r.stdout).toMatch(/failed {2}= the target breaks a rule the contract states/)
  }, 60_000)

  it('exits 2 with one line for an unreachable target', async () => {
    const r = await runOec(['check', 'server', '--target', 'http://127.0.0.1:9', '--symbol', 'BTC-20261225-100000-C'])
    expect(r.code).toBe(2)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(/^oec: cannot reach http:\/\/127\.0\.0\.1:9/)
  })

  it('exits 2 with one line for bad arguments', async () => {
    for (const args of [
      ['--target', 'not a url', '--symbol', 'X'],
      ['--target', 'http://127.0.0.1:9'],
      ['--seed', 'abc'],
      ['--reporter', 'xml'],
      ['--only', 'no.such.check'],
    ]) {
      const r = await runOec(['check', 'server', ...args])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('(add --help')).length, r.stderr).toBe(1)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
  })

  it('writes json and junit reports, and --list prints the catalog', async () => {
    const json = join(tmp, 'r.json')
    const r1 = await runOec(['check', 'server', '--only', 'err,route', '--reporter', 'json', '--out', json])
    expect(r1.code).toBe(0)
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { ok: boolean; results: CaseResult[] }
    expect(doc.ok).toBe(true)
    expect(doc.results.map((r) => r.id)).toContain('err.orderbook-missing')
    const r2 = await runOec(['check', 'server', '--only', 'err.head', '--reporter', 'junit'])
    expect(r2.code).toBe(0)
    expect(r2.stdout).toMatch(/<testsuites?[\s>]/)
    expect(r2.stdout).toContain('err.head')
    const r3 = await runOec(['check', 'server', '--list'])
    expect(r3.code).toBe(0)
    for (const c of serverCheckCatalog()) expect(r3.stdout).toContain(c.id)
  }, 60_000)

  it('fails the run on a stale expected-failure entry and --fix rewrites the list', async () => {
    const list = join(tmp, 'xfail.txt')
    writeFileSync(list, '# known gaps\nerr.head  # pretend it fails\n')
    const r = await runOec(['check', 'server', '--only', 'err.head', '--expected-failures', list])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/now passes/)
    const fixed = await runOec(['check', 'server', '--only', 'err.head', '--expected-failures', list, '--fix'])
    expect(fixed.code).toBe(0)
    expect(readFileSync(list, 'utf8')).not.toContain('err.head')
  }, 60_000)
})

describe('a failure is reproducible with its curl command', () => {
  it('prints a curl command that replays the failing request byte for byte', async () => {
    const { BROKEN_SERVERS } = await import('./broken-servers.ts')
    const broken = BROKEN_SERVERS.find((b) => b.caughtBy === 'auth.chain-id')!
    const t = await broken.start()
    try {
      const { summary } = await runServerChecks({ target: t.url, clock: t.clock, symbols: t.symbols, only: ['auth.chain-id/chain-1'] })
      const f = summary.results.find((r) => r.outcome === 'fail')!
      expect(f.details?.curl).toMatch(/^curl -sS -i -X POST -H 'content-type: application\/json' --data-binary '\{"wallet":/)
      expect(f.details?.request).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/order\n/)
      expect(f.details?.response).toMatch(/^HTTP 200/)
      let hasCurl = true
      try {
        execFileSync('curl', ['--version'])
      } catch {
        hasCurl = false
      }
      if (hasCurl) {
        // The replay hits the same nonce again, so the broken server now refuses it as reused:
        // proof that the exact signed body reached it.
        const out = execFileSync('sh', ['-c', f.details!.curl!], { encoding: 'utf8' })
        expect(out).toMatch(/^HTTP\/1\.1 409/)
        expect(out).toContain('nonce_reused')
      }
    } finally {
      await t.close()
    }
  })
})
