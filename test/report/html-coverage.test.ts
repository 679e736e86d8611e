/**
 * The coverage page opened in headless Chromium: its figures equal `oec coverage --format json`
 * for the same catalog, the stated rules without a check come first, a filter narrows the table,
 * and rule texts (spec values) with markup stay text.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { DEFAULT_RULES_PATH } from '../../src/contract/rules.ts'
import { runMain } from '../helpers/main.ts'
import { describeInBrowser, outputDir } from './browser.ts'

// Two rules no check names (one stated, one assumed), one of them carrying markup in its text.
const EXTRA = `
  - id: ZZHTML-1
    section: Report test <b>section</b>
    level: stated
    text: "A rule no check covers: <script>window.__oecInjected = 1</script><!-- comment --><img src=x onerror=\\"window.__oecInjected = 2\\">"
  - id: ZZHTML-2
    section: Report test
    level: assumed
    text: An assumed rule no check covers.
`

interface CoverageDoc {
  ok: boolean
  rules: { id: string; level: string; advice?: boolean; checks: string[] }[]
  uncoveredStated: string[]
  uncoveredAssumed: string[]
}

describeInBrowser('HTML coverage report in headless Chromium', (browser) => {
  it('figures equal the JSON output; uncovered stated rules on top; a filter; markup in a rule stays text; screenshot', async () => {
    const dir = outputDir('coverage-report')
    const rules = join(dir, 'rules.yaml')
    writeFileSync(rules, readFileSync(DEFAULT_RULES_PATH, 'utf8') + EXTRA)
    const file = join(dir, 'coverage.html')
    const h = await runMain(['coverage', '--rules', rules, '--reporter', 'html', '--out', file])
    const j = await runMain(['coverage', '--rules', rules, '--format', 'json'])
    expect(h.code, h.stderr).toBe(1)
    expect(h.stdout).toBe('')
    const json = JSON.parse(j.stdout) as CoverageDoc
    expect(json.uncoveredStated).toContain('ZZHTML-1')

    const started = performance.now()
    const page = await browser().open(file)
    await page.waitForSelector('form.filters:not([hidden])')
    const renderMs = performance.now() - started
    const stated = json.rules.filter((r) => r.level === 'stated' && !r.advice)
    const assumed = json.rules.filter((r) => r.level === 'assumed' && !r.advice)
    expect(await page.textContent('#count-uncovered-stated')).toBe(String(json.uncoveredStated.length))
    expect(await page.textContent('#count-stated-covered')).toBe(String(stated.length - json.uncoveredStated.length))
    expect(await page.textContent('#count-assumed-covered')).toBe(String(assumed.length - json.uncoveredAssumed.length))
    expect(await page.textContent('#count-advice')).toBe(String(json.rules.filter((r) => r.advice).length))
    expect(await page.textContent('#verdict')).toBe('GAPS')

    const rows = await page.$$eval('#coverage-rows > tr', (els) =>
      els.map((e) => ({ id: e.querySelector('th')?.textContent ?? '', status: e.getAttribute('data-status') })),
    )
    expect(rows.length).toBe(json.rules.length)
    expect(rows.slice(0, json.uncoveredStated.length).map((r) => r.id)).toEqual(json.uncoveredStated)
    expect(rows.slice(json.uncoveredStated.length, json.uncoveredStated.length + json.uncoveredAssumed.length).map((r) => r.id)).toEqual(
      json.uncoveredAssumed,
    )
    // Each row's check count per source is the JSON's.
    const sig1 = await page.$$eval('#rule-SIG-1 td.num', (els) => els.map((e) => Number(e.textContent)))
    const sig1Json = json.rules.find((r) => r.id === 'SIG-1')! as unknown as { count: Record<string, number> }
    expect(sig1).toEqual([sig1Json.count.vectors, sig1Json.count.server, sig1Json.count.lint, sig1Json.count.client])

    // Markup in a rule's text and section is text.
    expect(await page.evaluate('window.__oecInjected')).toBeUndefined()
    expect(await page.evaluate('document.images.length')).toBe(0)
    expect(await page.textContent('#rule-ZZHTML-1 td.text')).toBe(
      'A rule no check covers: <script>window.__oecInjected = 1</script><!-- comment --><img src=x onerror="window.__oecInjected = 2">',
    )
    expect(await page.textContent('#rule-ZZHTML-1')).toContain('Report test <b>section</b>')

    // Filter: only the gaps, then a search.
    for (const label of ['covered', 'advice (nothing on the wire)'])
      await page.getByRole('checkbox', { name: label, exact: true }).uncheck()
    const gaps = await page.$$eval('#coverage-rows > tr:not([hidden])', (els) => els.map((e) => e.querySelector('th')?.textContent ?? ''))
    expect(gaps).toEqual([...json.uncoveredStated, ...json.uncoveredAssumed])
    await page.screenshot({ path: join(dir, 'coverage-gaps.png') })
    await page.getByRole('button', { name: 'Reset filters' }).click()
    await page.fill('#filter-rule', 'NONCE-')
    const nonce = await page.$$eval('#coverage-rows > tr:not([hidden])', (els) => els.map((e) => e.querySelector('th')?.textContent ?? ''))
    expect(nonce.sort()).toEqual(
      json.rules
        .filter((r) => r.id.startsWith('NONCE-'))
        .map((r) => r.id)
        .sort(),
    )
    await page.fill('#filter-rule', '')
    await page.screenshot({ path: join(dir, 'coverage.png') })
    expect(browser().network).toEqual([])
    expect(browser().errors).toEqual([])
    console.log(
      `coverage report: ${json.rules.length} rules, ${readFileSync(file).length} bytes, opened and wired in ${Math.round(renderMs)} ms`,
    )
  })
})
