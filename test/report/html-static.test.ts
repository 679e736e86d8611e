/**
 * The HTML pages as text, without a browser (these run everywhere): the summary is in the
 * markup itself (readable with JavaScript off), values from responses and specs are escaped,
 * nothing points at the network, and a private key never reaches the page.
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { loadRules } from '../../src/contract/rules.ts'
import { createReporter, type CaseResult, type RunSummary } from '../../src/report/index.ts'
import { esc, renderRunHtml } from '../../src/report/html/index.ts'

const HOSTILE = '<script>alert(1)</script><!-- c --><img src=x onerror=alert(2)>"\'&'
const KEY = '0x' + 'cd'.repeat(32)
const results: CaseResult[] = [
  { id: 'ops.health', title: 'GET /health', rules: ['EP-11'], level: 'assumed', outcome: 'warn', message: `got ${HOSTILE}`, details: { response: `HTTP 200\n\n{"status":"${HOSTILE}"}`, curl: "curl -sS 'http://x/health'" }, durationMs: 1 },
  { id: 'err.orderbook-missing', title: 'missing book', rules: ['ERR-12', 'NOPE-1'], level: 'stated', outcome: 'fail', message: 'bad', details: { request: `{"privateKey":"${KEY}"}`, expected: 'HTTP 200' }, durationMs: 2 },
  { id: 'auth.chain-id/chain-1', title: 'chain 1', rules: ['DOM-3'], level: 'stated', outcome: 'pass', durationMs: 3 },
  { id: 'nonce.x', title: 'listed', rules: ['NONCE-2'], level: 'stated', outcome: 'xfail', durationMs: 1 },
  { id: 'rl.reset', title: 'slow', rules: ['RL-1'], level: 'stated', outcome: 'skip', message: 'needs --slow', durationMs: 0 },
]
const summary: RunSummary = { suite: 'oec check server', target: `http://127.0.0.1:1/${HOSTILE}`, results, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1500 }

function reporterHtml(): string {
  const out = new PassThrough()
  let text = ''
  out.on('data', (d) => (text += d))
  const r = createReporter('html', out, { html: { seed: 42, specVersion: '1.0.0', rules: loadRules() } })
  r.finish(summary)
  return text
}

describe('HTML run report markup', () => {
  it('escapes text and attribute values', () => {
    expect(esc(HOSTILE)).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- c --&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;')
  })

  it('carries the summary in the markup: counts, verdict, target, seed, versions', () => {
    const html = reporterHtml()
    for (const [o, n] of Object.entries({ pass: 1, fail: 1, warn: 1, xfail: 1, skip: 1 })) expect(html).toContain(`id="count-${o}">${n}<`)
    expect(html).toContain('id="verdict">FAILED<')
    expect(html).toContain('id="meta-seed">42<')
    expect(html).toContain('id="meta-spec">1.0.0<')
    expect(html).toMatch(/id="meta-toolkit">oec \d+\.\d+\.\d+</)
    expect(html).toContain('id="meta-duration">1.5 s<')
    // Every case is in the page, failures open.
    expect(html.match(/<li data-item /g)).toHaveLength(results.length)
    expect(html).toMatch(/data-check="err.orderbook-missing"><details open>/)
  })

  it('no value from a response or a spec becomes markup; one script, ours, allowed by hash', () => {
    const html = reporterHtml()
    expect(html).not.toContain('<script>alert(1)')
    expect(html).not.toContain('<!-- c -->')
    expect(html).not.toContain('<img')
    expect(html.match(/<script>/g)).toHaveLength(1)
    expect(html.match(/<!--/g)).toBeNull()
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- c --&gt;')
    expect(html).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;;.*script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/)
    // Rule texts from the catalog are escaped too (SVC-1 has `<underlying>` in it).
    const rich = renderRunHtml({ ...summary, results: [{ ...results[2]!, outcome: 'fail', rules: ['SVC-1'] }] }, { rules: loadRules() })
    expect(rich).toContain('&lt;underlying&gt;')
  })

  it('refers to nothing outside the file', () => {
    const html = reporterHtml()
    expect(html).not.toMatch(/\b(?:src|href)="(?!#)/)
    expect(html).not.toMatch(/url\(|@import|<link|<iframe|<object/)
  })

  it('a private key in a request never reaches the page; a rule missing from the catalog still shows', () => {
    const html = reporterHtml()
    expect(html).not.toContain('cd'.repeat(32))
    expect(html).toContain('&lt;redacted&gt;')
    expect(html).toContain('NOPE-1')
    expect(html).toContain('Not in the rule catalog')
  })
})
