/**
 * The diff page (`renderDiffHtml`, fed by `diffSpecs`) opened in headless Chromium: figures per
 * level equal the findings', findings are grouped by operation and by level with their rule id,
 * explanation and both sides' values, a filter narrows them, and spec values with markup stay text.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countBySeverity, DIFF_RULES, diffSpecs } from '../../src/diff/index.ts'
import { operationsOf, renderDiffHtml } from '../../src/diff/html.ts'
import { base, edited } from '../diff/helpers.ts'
import { describeInBrowser, outputDir } from './browser.ts'

const MARKUP = '<img src=x onerror="window.__oecInjected = 1"><!-- comment --><script>window.__oecInjected = 2</script>'

function findings() {
  const b = base()
  const h = edited((doc) => {
    delete doc.paths['/health']
    doc['x-service-error-codes'].splice(0, 1)
    doc.components.schemas.Side.enum.push(MARKUP)
    doc.components.schemas.Route.enum.pop()
  })
  return { b, h, list: diffSpecs(b, h, { today: '2026-01-01' }) }
}

describe('diff findings by operation', () => {
  it('a finding at an operation belongs to it; a shared schema change to every operation it names; the rest to its part of the spec', () => {
    const { list } = findings()
    // Found by where they are, not by rule id: src/diff's ids may be renamed without this page changing.
    const at = (pointer: string, severity = 'breaking') => list.find((f) => f.pointer === pointer && f.severity === severity)!
    expect(operationsOf(at('/paths/~1health/get'))).toEqual(['GET /health'])
    expect(operationsOf(at('/components/schemas/Route/enum'))).toEqual(['POST /bulk_order', 'POST /order', 'PUT /bulk_order'])
    expect(operationsOf(at('/x-service-error-codes/0'))).toEqual(['Error catalog'])
    expect(operationsOf(at('/info/version'))).toEqual(['Spec version'])
  })
})

describeInBrowser('HTML diff report in headless Chromium', (browser) => {
  it('figures per level, groups by operation and by level, rule id, explanation and both values; a filter; markup stays text; screenshot', async () => {
    const dir = outputDir('diff-report')
    const { b, h, list } = findings()
    const n = countBySeverity(list)
    expect(n.breaking).toBeGreaterThan(0)
    expect(n.warning).toBeGreaterThan(0)
    expect(n.info).toBeGreaterThan(0)
    const file = join(dir, 'diff.html')
    writeFileSync(
      file,
      renderDiffHtml(list, {
        base: { label: 'spec/openapi.yaml', version: b.version },
        head: { label: 'head.yaml <b>', version: h.version },
      }),
    )
    const page = await browser().open(file)
    await page.waitForSelector('form.filters:not([hidden])')
    for (const l of ['breaking', 'warning', 'info'] as const) expect(await page.textContent(`#count-${l}`)).toBe(String(n[l]))
    expect(await page.textContent('#verdict')).toBe('FAILS (--fail-on breaking)')
    expect(await page.textContent('#meta-head')).toBe(`head.yaml <b> (version ${h.version})`)

    // By operation: the shared Route enum change shows under each operation it reaches.
    const groups = await page.$$eval('[data-view="operation"] > section h3', (els) =>
      els.map((e) => e.firstChild?.textContent?.trim() ?? ''),
    )
    expect(groups).toEqual(expect.arrayContaining(['GET /health', 'POST /order', 'PUT /bulk_order', 'Error catalog', 'GET /orders']))
    const routeRemoved = list.find((f) => f.pointer === '/components/schemas/Route/enum' && f.severity === 'breaking')!
    const order = page.locator('[data-view="operation"] > section', { has: page.locator('h3', { hasText: /^POST \/order / }) })
    await expect(order.locator(`li[data-item][data-rule="${routeRemoved.id}"]`).count()).resolves.toBe(1)
    expect(await page.textContent('[data-shown]')).toBe(
      `Showing ${list.flatMap(operationsOf).length} of ${list.flatMap(operationsOf).length}`,
    )

    // By level: each finding once, under its level, with rule id, explanation and values.
    await page.getByRole('radio', { name: 'level' }).check()
    expect(await page.isVisible('[data-view="operation"]')).toBe(false)
    const items = page.locator('[data-view="level"] li[data-item]')
    expect(await items.count()).toBe(list.length)
    expect(await page.textContent('[data-shown]')).toBe(`Showing ${list.length} of ${list.length}`)
    const codeRemoved = list.find((f) => f.pointer === '/x-service-error-codes/0')!
    const removed = page.locator(`[data-view="level"] li[data-rule="${codeRemoved.id}"]`)
    expect(await removed.locator('code').first().textContent()).toBe(codeRemoved.id)
    expect(await removed.textContent()).toContain(DIFF_RULES[codeRemoved.id]!.description)
    expect(await removed.locator('.values pre').first().textContent()).toBe('invalid_field')
    expect(await removed.locator('.values pre').nth(1).textContent()).toBe('(absent)')

    // Filter: breaking only.
    for (const l of ['warning', 'info']) await page.getByRole('checkbox', { name: l, exact: true }).uncheck()
    const shown = await page.$$eval('[data-view="level"] li[data-item]:not([hidden])', (els) =>
      els.map((e) => e.getAttribute('data-severity')),
    )
    expect(shown.length).toBe(n.breaking)
    expect(new Set(shown)).toEqual(new Set(['breaking']))
    await page.screenshot({ path: join(dir, 'diff-breaking.png'), fullPage: true })
    await page.getByRole('button', { name: 'Reset filters' }).click()

    // A spec value carrying markup is text in the message and in the values.
    expect(await page.evaluate('window.__oecInjected')).toBeUndefined()
    expect(await page.evaluate('document.images.length')).toBe(0)
    expect(await page.evaluate('document.scripts.length')).toBe(1)
    const sideAdded = list.find((f) => f.pointer === '/components/schemas/Side/enum' && f.severity === 'warning')!
    const added = page.locator(`[data-view="level"] li[data-rule="${sideAdded.id}"]`)
    expect(await added.locator('.values pre').nth(1).textContent()).toBe(MARKUP)
    await page.screenshot({ path: join(dir, 'diff.png') })
    expect(browser().network).toEqual([])
    expect(browser().errors).toEqual([])
    console.log(`diff report: ${list.length} findings, ${readFileSync(file).length} bytes`)
  })
})
