import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runClientHttpCheck } from '../../src/check/client/http/runner.ts'
import { clientCases } from '../../src/check/client/runner.ts'
import { backoffCheck, grows } from '../../src/check/client/http/checks/backoff.ts'
import { retryAfterCheck } from '../../src/check/client/http/checks/retry-after.ts'
import type { CheckInput } from '../../src/check/client/http/checks/model.ts'
import type { RecordedExchange } from '../../src/check/client/http/scenario-server.ts'
import { CLIENT_CHECKS } from '../../src/check/client/http/checks/index.ts'
import { scenarios } from '../../src/check/client/http/scenarios.ts'
import { buildCoverage } from '../../src/coverage/index.ts'
import { runOec } from '../helpers/cli.ts'
import { contract } from '../helpers/shipped.ts'
import { createReporter, REPORTER_NAMES } from '../../src/report/index.ts'
import { Writable } from 'node:stream'

const TS_CLIENT = ['node', '--import', 'tsx', 'examples/typescript/client.ts']
// The Debian modules (python3-pycryptodome, python3-ecdsa) are installed for the system interpreter.
const PY_CLIENT = ['/usr/bin/python3', 'examples/python/client.py']
const faulty = (fault: string) => ['node', '--import', 'tsx', 'test/check-client/http-testees/faulty.mts', fault]

describe('the reference clients in examples/ pass --http and the signing protocol', () => {
  for (const [name, command] of [
    ['TypeScript (viem)', TS_CLIENT],
    ['Python (Debian packages only)', PY_CLIENT],
  ] as const) {
    it.concurrent(`${name}: every scenario over --http`, async () => {
      const r = await runOec(['check', 'client', '--http', '--reporter', 'json', '--', ...command], { timeoutMs: 170_000 })
      const doc = JSON.parse(r.stdout || '{}')
      const bad = (doc.results ?? []).filter((x: { outcome: string }) => x.outcome !== 'pass')
      expect(r.code, r.stderr + JSON.stringify(bad, null, 1).slice(0, 4000)).toBe(0)
      expect(doc.counts.fail + doc.counts.warn).toBe(0)
      const ran = new Set(doc.results.map((x: { id: string }) => x.id.split('/')[0]))
      expect([...ran].sort()).toEqual(
        scenarios('')
          .map((s) => s.id)
          .sort(),
      )
    }, 180_000)

    it.concurrent(`${name}: the whole signing protocol, perp-agent included`, async () => {
      // A generous --timeout: pure-Python secp256k1 on a loaded 2-core box is slow, and speed is not what this shows.
      const r = await runOec(['check', 'client', '--reporter', 'json', '--timeout', '30000', '--', ...command, '--jsonl'], {
        timeoutMs: 170_000,
      })
      const doc = JSON.parse(r.stdout || '{}')
      const bad = (doc.results ?? []).filter((x: { outcome: string }) => x.outcome !== 'pass')
      expect(r.code, r.stderr + JSON.stringify(bad.slice(0, 5), null, 1).slice(0, 4000)).toBe(0)
      expect(doc.counts.fail + doc.counts.warn + doc.counts.skip).toBe(0)
      // Every vector family ran, the perp actions too (not left out by an --only or --skip).
      const families = new Set(doc.results.map((x: { id: string }) => x.id.split('/')[0]))
      expect([...families].sort()).toEqual([...new Set(clientCases().map((c) => c.id.split('/')[0]))].sort())
      expect(families).toContain('perp-agent')
    }, 180_000)
  }
})

describe('each faulty client is caught by the rule it breaks', () => {
  const cases: { fault: string; scenario: string; check: string; rule: string; message: RegExp }[] = [
    {
      fault: 'ignores-retry-after',
      scenario: 'rate-limited',
      check: 'retry-after',
      rule: 'RL-10',
      message: /Retry-After: 2, the next request came [01]\.\d+ s later/,
    },
    { fault: 'constant-backoff', scenario: 'consecutive-429', check: 'backoff', rule: 'RL-10', message: /do not grow/ },
    {
      fault: 'crashes-on-unknown-code',
      scenario: 'unknown-code',
      check: 'unknown-code',
      rule: 'ERR-14',
      message: /the client exited \(code 1\)/,
    },
    {
      fault: 'rejected-as-accepted',
      scenario: 'rejected',
      check: 'order-status',
      rule: 'ERR-11',
      message: /reported order_status "ACKED", but the result's status was "REJECTED"/,
    },
    {
      fault: 'reuses-nonce',
      scenario: 'route-less',
      check: 'nonce-reuse',
      rule: 'NONCE-2',
      message: /nonce 77 again, after t1's request with it was accepted/,
    },
    {
      fault: 'rewrites-statuses',
      scenario: 'unknown-code',
      check: 'answer',
      rule: 'ERR-6',
      message: /reported http_status 400 code "error", but the last answer was 422 order_entry_paused/,
    },
  ]
  for (const c of cases) {
    it.concurrent(`${c.fault}: ${c.scenario}/${c.check} [${c.rule}]`, async () => {
      const run = await runClientHttpCheck({ command: faulty(c.fault), only: [c.scenario], timeoutMs: 20_000 })
      const failed = run.results.filter((r) => r.outcome === 'fail')
      const hit = failed.find((r) => r.id === `${c.scenario}/${c.check}`)
      expect(hit, JSON.stringify(run.results, null, 1).slice(0, 3000)).toBeDefined()
      expect(hit!.rules).toContain(c.rule)
      expect(hit!.message).toMatch(c.message)
      // The report shows the scenario's request timeline, with the offending line marked.
      expect(hit!.details?.timeline).toMatch(/-> (POST|DELETE) \/order nonce \d+/)
      expect(hit!.details?.timeline).toContain('<-- expected')
    }, 90_000)
  }

  it.concurrent("every reporter carries the failing scenario's request timeline", async () => {
    const run = await runClientHttpCheck({ command: faulty('rejected-as-accepted'), only: ['rejected'] })
    for (const name of REPORTER_NAMES) {
      let text = ''
      const out = new Writable({
        write(chunk, _enc, cb) {
          text += String(chunk)
          cb()
        },
      })
      const reporter = createReporter(name, out, { color: false })
      for (const r of run.results) reporter.onResult(r)
      reporter.finish(run)
      // The HTML page escapes the arrow.
      expect(text, name).toMatch(/t1 {2}-(>|&gt;) POST \/order nonce \d+/)
      expect(text, name).toMatch(/\[scripted: rejected\]/)
      expect(text, name).toContain('-- expected order_status')
    }
  }, 90_000)

  it.concurrent('the same client without a fault passes those scenarios', async () => {
    const run = await runClientHttpCheck({
      command: faulty('none'),
      only: ['rate-limited', 'consecutive-429', 'unknown-code', 'rejected', 'route-less'],
    })
    expect(run.results.filter((r) => r.outcome !== 'pass')).toEqual([])
  }, 90_000)
})

describe('a client program that cannot start, or exits before its first answer: one line, exit 2', () => {
  for (const [what, command] of [
    ['no such program', ['/nonexistent/oec-client']],
    ['exits at once', ['node', '-e', 'process.stderr.write("missing config\\n"); process.exit(3)']],
  ] as const) {
    it.concurrent(what, async () => {
      const r = await runOec(['check', 'client', '--http', '--', ...command], { timeoutMs: 60_000 })
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      const lines = r.stderr.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^oec: check client --http: .*(ENOENT|exited \(code 3\); stderr: missing config)/)
    }, 70_000)
  }
})

describe('timing checks judge gaps, not wall-clock thresholds', () => {
  const scenario = scenarios('X')[1]!
  const session = { tasks: [], exitProblem: null, startFailure: null }
  // Four 429s answered at `answers`, each followed by a request at `requests`.
  function exchanges(answers: number[], requests: number[]): RecordedExchange[] {
    const ex = (at: number, answeredAt: number, status: number): RecordedExchange => ({
      task: 't1',
      at,
      method: 'POST',
      path: '/order',
      body: '{}',
      wallet: '0xabc',
      nonce: '1',
      hasRoute: true,
      scripted: status === 429 ? { kind: 'rate-limited', retryAfter: 1 } : null,
      answeredAt,
      status,
      headers: status === 429 ? { 'retry-after': '1' } : {},
      response: '{}',
    })
    return [...answers.map((a, i) => ex(i === 0 ? a - 1 : requests[i - 1]!, a, 429)), ex(requests.at(-1)!, requests.at(-1)! + 1, 200)]
  }
  const input = (e: RecordedExchange[]): CheckInput => ({ scenario, session, exchanges: e, contract })

  it('constant waits of exactly Retry-After fail the backoff check and pass the Retry-After check', () => {
    const e = exchanges([0, 1002, 2004, 3006], [1001, 2003, 3005, 4007])
    expect(backoffCheck.judge(input(e)).ok).toBe(false)
    expect(retryAfterCheck.judge(input(e)).ok).toBe(true)
  })

  it('growing waits pass; a wait shorter than Retry-After by more than 50 ms fails', () => {
    expect(backoffCheck.judge(input(exchanges([0, 1300, 2900, 5000], [1250, 2800, 4900, 8000]))).ok).toBe(true)
    const early = exchanges([0, 1300, 2900, 5000], [940, 2800, 4900, 8000])
    const v = retryAfterCheck.judge(input(early))
    expect(v.ok).toBe(false)
    expect(v.ok ? '' : v.message).toMatch(/next request came 0\.940 s later/)
  })

  it('a growing series with one wait delayed by load still grows; constant waits with noise do not', () => {
    expect(grows([1389, 1409, 1809, 2627])).toBe(true)
    expect(grows([1000, 1180, 1010, 1090])).toBe(false)
    expect(grows([1250, 1500])).toBe(true)
    expect(grows([1000, 1040])).toBe(false)
  })

  it('giving up after one retry leaves nothing to compare', () => {
    expect(backoffCheck.judge(input(exchanges([0], [1500]))).ok).toBe(true)
  })
})

describe('oec coverage shows the client rules covered by the client behaviour checks', () => {
  it('the rules a client must follow on the wire are checked rules, not advice', async () => {
    const report = await buildCoverage({ serverCatalog: async () => [] })
    for (const id of ['RL-10', 'ERR-6', 'ERR-11', 'ERR-14', 'VER-2', 'NONCE-2', 'NONCE-3', 'ROUTE-3']) {
      const row = report.rows.find((r) => r.rule.id === id)!
      expect(row.rule.advice, id).toBeUndefined()
      expect(row.count.client, id).toBeGreaterThan(0)
    }
    expect(report.unknownRefs.filter((u) => u.by.startsWith('client/'))).toEqual([])
  }, 60_000)
})

describe('docs/check-client.md lists every scenario and check of --http', () => {
  it('names each scenario id and each check with its rules', () => {
    const doc = readFileSync('docs/check-client.md', 'utf8')
    for (const s of scenarios('')) expect(doc, s.id).toContain(`| \`${s.id}\` |`)
    for (const c of CLIENT_CHECKS) expect(doc, c.name).toContain(`| \`${c.name}\` | ${c.rules.join(', ')} |`)
  })
})
