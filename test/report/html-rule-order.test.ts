/**
 * The run report's rule matrix lists failing rules first, then warning ones, then the rest, each
 * group in catalog order: a reader finds what failed without scrolling past passing rules.
 */
import { expect, it } from 'vitest'
import { shippedContract } from '../../src/contract/index.ts'
import { renderRunHtml } from '../../src/report/html/run.ts'
import type { CaseResult, Outcome } from '../../src/report/index.ts'

it('failing rules come before warning and passing ones, catalog order within each', () => {
  const catalog = shippedContract().rules ?? []
  // One rule from each of four sections: rows are grouped by section, so within one section the
  // order is that of its rows and across sections that of the sections' first rows.
  const firstOfSection = new Map(catalog.filter((r) => r.level === 'stated').map((r) => [r.section, r] as const))
  const rules = [...firstOfSection.values()].slice(0, 4).sort((x, y) => catalog.indexOf(x) - catalog.indexOf(y))
  expect(rules).toHaveLength(4)
  const [a, b, c, d] = rules.map((r) => r.id) as [string, string, string, string]
  const result = (rule: string, outcome: Outcome): CaseResult => ({
    id: `x.${rule}`,
    title: rule,
    rules: [rule],
    level: 'stated',
    outcome,
    durationMs: 1,
  })
  const html = renderRunHtml(
    {
      suite: 'server',
      target: 'http://127.0.0.1:1',
      startedAt: '2026-11-28T00:00:00Z',
      durationMs: 4,
      results: [result(a, 'pass'), result(b, 'warn'), result(c, 'pass'), result(d, 'fail')],
    },
    { rules: catalog },
  )
  const at = (id: string) => html.indexOf(`id="rule-${id}"`)
  for (const id of [a, b, c, d]) expect(at(id), id).toBeGreaterThan(0)
  expect([d, b, a, c].map(at)).toEqual([...[d, b, a, c].map(at)].sort((x, y) => x - y))
})
