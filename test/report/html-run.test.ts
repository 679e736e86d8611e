/**
 * The run report opened in headless Chromium: its summary equals the JSON reporter's of the
 * same run, the filters narrow the cases, the keyboard reaches and opens them, the copy button
 * copies the curl line, a narrow screen needs no sideways scrolling, and a server response
 * carrying markup is shown as text.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runServerChecks } from '../../src/check/server/index.ts'
import { shippedContract } from '../../src/contract/index.ts'
import { createReporter, OUTCOMES, type ReporterName, type ReporterOptions, type RunSummary } from '../../src/report/index.ts'
import { runMain } from '../helpers/main.ts'
import { browserMissing, launch, outputDir, skipBrowser, type OpenBrowser } from './browser.ts'
import { HOSTILE, HOSTILE_CHECKS, startHostileServer, type HostileTarget } from './hostile-server.ts'

function render(name: ReporterName, s: RunSummary, opts: ReporterOptions = {}): string {
  const out = new PassThrough()
  let text = ''
  out.on('data', (d) => (text += d))
  const r = createReporter(name, out, { color: false, ...opts })
  for (const x of s.results) r.onResult(x)
  r.finish(s)
  return text
}

async function visibleItems(page: Page): Promise<{ id: string; outcome: string; level: string; rules: string }[]> {
  return page.$$eval('#case-list > li[data-item]:not([hidden])', (els) =>
    els.map((e) => ({ id: e.getAttribute('data-check') ?? '', outcome: e.getAttribute('data-outcome') ?? '', level: e.getAttribute('data-level') ?? '', rules: e.getAttribute('data-rule') ?? '' })),
  )
}

if (skipBrowser) {
  describe('HTML run report in headless Chromium', () => {
    it.skip(`skipped: ${browserMissing}`, () => {})
  })
} else {
  describe('HTML run report in headless Chromium', () => {
    let browser: OpenBrowser
    let target: HostileTarget
    const spec = shippedContract()

    beforeAll(async () => {
      browser = await launch()
      target = await startHostileServer()
    })
    afterAll(async () => {
      await target?.close()
      await browser?.close()
    })

    it('summary equals the JSON reporter of the same run; filters by outcome, level, rule and check; screenshot', async () => {
      const dir = outputDir('run-report')
      const { summary } = await runServerChecks({ target: target.url, clock: target.clock, symbols: target.symbols, only: HOSTILE_CHECKS, seed: 7 })
      const json = JSON.parse(render('json', summary)) as { counts: Record<string, number>; results: { id: string; outcome: string }[] }
      expect(json.counts.fail, 'the hostile server must fail a stated rule').toBeGreaterThan(0)
      expect(json.counts.warn, 'and depart from an assumed one').toBeGreaterThan(0)
      const file = join(dir, 'run.html')
      const started = performance.now()
      writeFileSync(file, render('html', summary, { html: { seed: 7, specVersion: spec.version, ...(spec.rules ? { rules: spec.rules } : {}) } }))
      const page = await browser.open(file)
      await page.waitForSelector('form.filters:not([hidden])')
      const renderMs = performance.now() - started

      for (const o of OUTCOMES) expect(await page.textContent(`#count-${o}`), o).toBe(String(json.counts[o]))
      expect(await page.textContent('#verdict')).toBe('FAILED')
      expect(await page.textContent('#meta-seed')).toBe('7')
      expect(await page.textContent('#meta-target')).toBe(summary.target)
      expect(await page.textContent('#meta-spec')).toBe(spec.version)
      expect((await visibleItems(page)).length).toBe(json.results.length)
      expect(await page.textContent('[data-shown]')).toBe(`Showing ${json.results.length} of ${json.results.length}`)

      // Outcome: only the failures.
      for (const label of ['passed', 'warnings', 'expected failures', 'skipped']) await page.getByRole('checkbox', { name: label, exact: true }).uncheck()
      let shown = await visibleItems(page)
      expect(shown.map((x) => x.id).sort()).toEqual(json.results.filter((r) => r.outcome === 'fail').map((r) => r.id).sort())
      await page.screenshot({ path: join(dir, 'run-report-failures.png'), fullPage: true })

      // Level: assumed only, every outcome.
      await page.getByRole('button', { name: 'Reset filters' }).click()
      await page.getByRole('checkbox', { name: 'stated', exact: true }).uncheck()
      shown = await visibleItems(page)
      expect(shown.length).toBeGreaterThan(0)
      expect(shown.every((x) => x.level === 'assumed')).toBe(true)

      // Rule: a rule picked in the matrix lists exactly the cases that name it.
      await page.getByRole('button', { name: 'Reset filters' }).click()
      await page.click('#matrix-stated a[data-value="ERR-12"]')
      expect(await page.inputValue('#filter-rule')).toBe('ERR-12')
      shown = await visibleItems(page)
      expect(shown.map((x) => x.id)).toEqual(summary.results.filter((r) => r.rules.includes('ERR-12')).map((r) => r.id))

      // Check: a case id prefix.
      await page.getByRole('button', { name: 'Reset filters' }).click()
      await page.fill('#filter-check', 'auth.chain-id')
      shown = await visibleItems(page)
      expect(shown.length).toBe(summary.results.filter((r) => r.id.startsWith('auth.chain-id')).length)
      expect(shown.length).toBeGreaterThan(1)

      await page.getByRole('button', { name: 'Reset filters' }).click()
      await expect.poll(() => page.textContent('[data-shown]')).toBe(`Showing ${json.results.length} of ${json.results.length}`)
      await page.evaluate('window.scrollTo(0, 0)')
      await page.screenshot({ path: join(dir, 'run-report.png') })
      expect(browser.network).toEqual([])
      expect(browser.errors).toEqual([])
      const size = readFileSync(file).length
      console.log(`run report: ${summary.results.length} cases, ${size} bytes, opened and wired in ${Math.round(renderMs)} ms`)
    })

    it('a hostile response body (<script>, an HTML comment, <img onerror>) is shown as text (oec check server --reporter html)', async () => {
      const dir = outputDir('run-report-hostile')
      const file = join(dir, 'hostile.html')
      const r = await runMain(['check', 'server', '--target', target.url, ...target.symbols.flatMap((s) => ['--symbol', s]), '--only', HOSTILE_CHECKS.join(','), '--reporter', 'html', '--out', file])
      expect(r.code, r.stderr).toBe(1)
      const html = readFileSync(file, 'utf8')
      expect(html).not.toContain('<!-- injected comment -->')
      expect(html).not.toContain('<script>window.__oecInjected')
      const page = await browser.open(file)
      expect(await page.evaluate('window.__oecInjected')).toBeUndefined()
      expect(await page.evaluate('document.scripts.length')).toBe(1)
      expect(await page.evaluate('document.images.length')).toBe(0)
      // Evaluated as text: the project compiles without the DOM library.
      const comments = await page.evaluate('(() => { const w = document.createTreeWalker(document, NodeFilter.SHOW_COMMENT); let n = 0; while (w.nextNode()) n++; return n })()')
      expect(comments).toBe(0)
      // The body's `</pre></details>` closed nothing: every case is still its own item, and the text reads as sent.
      const failing = page.locator('li[data-item][data-check="err.orderbook-missing"]')
      await expect(failing.count()).resolves.toBe(1)
      const response = await failing.locator('pre').nth(2).textContent()
      expect(response).toContain(JSON.stringify(HOSTILE).slice(1, -1))
      const warned = page.locator('li[data-item][data-check="ops.health"] .msg')
      expect(await warned.textContent()).toContain('<script>window.__oecInjected = 1</script><!-- injected comment -->')
      await page.screenshot({ path: join(dir, 'hostile.png'), fullPage: true })
      expect(browser.errors).toEqual([])
    })

    it('keyboard: Tab reaches the filters and the cases, Enter opens a case; the copy button copies the curl line', async () => {
      const dir = outputDir('run-report-keyboard')
      const file = join(dir, 'run.html')
      const { summary } = await runServerChecks({ target: target.url, clock: target.clock, symbols: target.symbols, only: ['ops.health', 'auth.approve-self'] })
      writeFileSync(file, render('html', summary))
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'])
      const page = await browser.open(file)
      await page.keyboard.press('Tab')
      expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Skip to content')
      // Tab through to the first case line; every stop on the way is a control a keyboard can use.
      let reached = false
      for (let i = 0; i < 60 && !reached; i++) {
        await page.keyboard.press('Tab')
        reached = (await page.evaluate('document.activeElement && document.activeElement.tagName')) === 'SUMMARY'
      }
      expect(reached).toBe(true)
      const item = await page.evaluate("document.activeElement.closest('li').getAttribute('data-check')")
      expect(item).toBe('ops.health') // warnings come before passes
      const opened = () => page.evaluate('document.activeElement.parentElement.open')
      expect(await opened()).toBe(false)
      await page.keyboard.press('Enter')
      expect(await opened()).toBe(true)
      const copy = page.locator('li[data-check="ops.health"] button[data-copy]')
      await copy.focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => copy.textContent()).toBe('Copied')
      const copied = await page.evaluate<string>('navigator.clipboard.readText()')
      expect(copied).toMatch(/^curl /)
      expect(copied).toBe(summary.results.find((r) => r.id === 'ops.health')!.details!.curl)
    })

    it('at a narrow width (360 px) nothing needs sideways scrolling', async () => {
      const dir = outputDir('run-report-narrow')
      const file = join(dir, 'run.html')
      const { summary } = await runServerChecks({ target: target.url, clock: target.clock, symbols: target.symbols, only: HOSTILE_CHECKS })
      writeFileSync(file, render('html', summary))
      const page = await browser.open(file, { width: 360, height: 740 })
      await page.waitForSelector('form.filters:not([hidden])')
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360)
      await page.screenshot({ path: join(dir, 'narrow.png'), fullPage: true })
    })

    it('oec check client --reporter html: the same figures as --reporter json', async () => {
      const dir = outputDir('client-report')
      const testee = ['node', '--import', 'tsx', 'test/check-client/testees/chain-id-1.mts']
      const only = 'place-order-valid/1,place-order-valid/2,domain-mismatch/1'
      const file = join(dir, 'client.html')
      const h = await runMain(['check', 'client', '--only', only, '--reporter', 'html', '--out', file, '--', ...testee])
      const j = await runMain(['check', 'client', '--only', only, '--reporter', 'json', '--', ...testee])
      expect(h.code, h.stderr).toBe(1)
      const json = JSON.parse(j.stdout) as { counts: Record<string, number> }
      const page = await browser.open(file)
      for (const o of OUTCOMES) expect(await page.textContent(`#count-${o}`), o).toBe(String(json.counts[o]))
      expect(await page.textContent('#meta-seed')).toBe('n/a')
      // A client case's reproduction is the JSON lines sent to the testee, with a copy button.
      const repro = page.locator('li[data-outcome="fail"] button[data-copy]').first()
      await expect(repro.isVisible()).resolves.toBe(true)
      await page.screenshot({ path: join(dir, 'client-report.png') })
    }, 90_000)
  })
}
