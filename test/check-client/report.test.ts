import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createReporter, exitCodeFor, type CaseResult, type RunSummary } from '../../src/report/index.ts'

const KEY = '0x' + 'ab'.repeat(32)
const results: CaseResult[] = [
  { id: 'place-order-valid/1', title: 'Buy gtc', rules: ['PO-4'], level: 'stated', outcome: 'pass', durationMs: 3 },
  {
    id: 'string-format/2',
    title: 'price as a number',
    rules: ['PO-5', 'SIGFAIL-1'],
    level: 'stated',
    outcome: 'fail',
    message: 'body price: expected the string "100.0", got the JSON number 100',
    details: { request: `{"privateKey":"${KEY}","kind":"PlaceOrder"}`, expected: 'digest 0x12' },
    durationMs: 4,
  },
  {
    id: 'signature-encoding/3',
    title: 'v as 0/1',
    rules: ['SIG-9'],
    level: 'assumed',
    outcome: 'warn',
    message: 'refused v = 0',
    durationMs: 1,
  },
  { id: 'nonce/4', title: 'listed', rules: ['NONCE-1'], level: 'stated', outcome: 'xfail', message: 'expected failure', durationMs: 1 },
]
const summary: RunSummary = {
  suite: 'oec check client',
  target: 'my-signer',
  results,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1234,
}

function render(name: 'pretty' | 'json' | 'junit'): string {
  const out = new PassThrough()
  let text = ''
  out.on('data', (d) => (text += d))
  const r = createReporter(name, out, { color: false, total: results.length })
  for (const x of results) r.onResult(x)
  r.finish(summary)
  return text
}

describe('reporters', () => {
  it('exit code is 1 exactly when a result failed', () => {
    expect(exitCodeFor(results)).toBe(1)
    expect(exitCodeFor(results.filter((r) => r.outcome !== 'fail'))).toBe(0)
  })

  it('pretty: failure with case, rules and problem; a summary a newcomer can read; no private key', () => {
    const text = render('pretty')
    expect(text).toMatch(/FAIL string-format\/2 {2}price as a number {2}\[PO-5, SIGFAIL-1\]/)
    expect(text).toMatch(/problem: {2}body price: expected the string "100.0"/)
    expect(text).toMatch(/WARN signature-encoding\/3/)
    expect(text).toMatch(/4 cases in 1\.2 s: 1 passed, 1 failed, 1 warnings, 1 expected failures, 0 skipped/)
    expect(text).toMatch(/FAILED/)
    expect(text).toMatch(/failed {2}= the target breaks a rule the contract states/)
    expect(text).not.toContain(KEY)
    expect(text).toContain('<redacted>')
  })

  it('json: one document with counts and every result', () => {
    const doc = JSON.parse(render('json'))
    expect(doc.ok).toBe(false)
    expect(doc.counts).toEqual({ pass: 1, fail: 1, warn: 1, skip: 0, xfail: 1 })
    expect(doc.results.map((r: CaseResult) => r.id)).toEqual(results.map((r) => r.id))
    expect(JSON.stringify(doc)).not.toContain(KEY)
  })

  it('junit: XML with one testcase per result and the failure carrying its rules', () => {
    const xml = render('junit')
    expect(xml).toMatch(/^<\?xml/)
    expect(xml).toMatch(/<testsuite name="oec check client" [^>]*tests="4" failures="1"/)
    expect(xml).toMatch(/<testcase classname="string-format" name="string-format\/2 price as a number"/)
    expect(xml).toMatch(/<failure message="body price: expected the string &quot;100.0&quot;, got the JSON number 100 \[PO-5, SIGFAIL-1\]"/)
    expect((xml.match(/<testcase /g) ?? []).length).toBe(4)
    expect(xml).not.toContain(KEY)
  })
})
