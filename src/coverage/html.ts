/**
 * The HTML page of `oec coverage`: the rule × check matrix as one table, the stated rules no
 * check covers on top (they fail the command), then the assumed gaps, then the rest in catalog
 * order. It lives beside the matrix it shows and builds on the report page kit below it
 * (src/report/html/page.ts), so the arrow runs coverage → report, never back.
 */
import { coverageExitCode, type CheckSource, type CoverageReport, type CoverageRow } from './index.ts'
import { checkboxes, esc, filterForm, page, search, token } from '../report/html/page.ts'

export interface CoverageReportMeta {
  /** Where the rules came from, shown in the header. */
  readonly rulesFile?: string
  readonly vectorsDir?: string
}

type Status = 'uncovered' | 'uncovered-assumed' | 'covered' | 'advice'
const STATUS_LABEL: Readonly<Record<Status, string>> = {
  uncovered: 'UNCOVERED (stated)',
  'uncovered-assumed': 'uncovered (assumed)',
  covered: 'covered',
  advice: 'advice (nothing on the wire)',
}
const SOURCES: readonly CheckSource[] = ['vectors', 'server', 'lint', 'client']

function statusOf(row: CoverageRow): Status {
  if (row.rule.advice) return 'advice'
  if (row.checks.length > 0) return 'covered'
  return row.rule.level === 'stated' ? 'uncovered' : 'uncovered-assumed'
}

const RANK: Readonly<Record<Status, number>> = { uncovered: 0, 'uncovered-assumed': 1, covered: 2, advice: 3 }

function row(r: CoverageRow, i: number): string {
  const status = statusOf(r)
  const checks = r.checks.length
    ? `<details><summary>${r.checks.length} check${r.checks.length === 1 ? '' : 's'}</summary><ul class="rules">${r.checks
        .map((c) => `<li><code>${esc(c.source)}:${esc(c.id)}</code> <span class="muted">${esc(c.title)}</span></li>`)
        .join('')}</ul></details>`
    : '<span class="muted">none</span>'
  return `<tr data-item data-status="${status}" data-level="${r.rule.level}" data-rule="${esc(`${r.rule.id} ${r.rule.section} ${r.rule.text}`)}" id="rule-${esc(token(r.rule.id))}"${status === 'uncovered' ? ' class="gap"' : ''} data-index="${i}"><th scope="row">${esc(r.rule.id)}</th><td><span class="badge ${r.rule.level}">${r.rule.level}</span></td><td>${esc(status === 'covered' ? r.status : STATUS_LABEL[status])}</td>${SOURCES.map(
    (s) => `<td class="num${r.count[s] === 0 ? ' zero' : ''}">${r.count[s]}</td>`,
  ).join('')}<td>${esc(r.rule.section)}</td><td class="text">${esc(r.rule.text)}</td><td>${checks}</td></tr>`
}

export function renderCoverageHtml(report: CoverageReport, meta: CoverageReportMeta = {}): string {
  const ordered = report.rows.map((r, i) => ({ r, i })).sort((a, b) => RANK[statusOf(a.r)] - RANK[statusOf(b.r)] || a.i - b.i)
  const stated = report.rows.filter((x) => x.rule.level === 'stated' && !x.rule.advice)
  const assumed = report.rows.filter((x) => x.rule.level === 'assumed' && !x.rule.advice)
  const ok = coverageExitCode(report) === 0
  const bar = [
    ['uncovered-stated', 'stated rules without a check', report.uncoveredStated.length, report.uncoveredStated.length ? 'fail' : 'pass'],
    ['stated-covered', `of ${stated.length} stated rules covered`, stated.length - report.uncoveredStated.length, 'pass'],
    ['assumed-covered', `of ${assumed.length} assumed rules covered`, assumed.length - report.uncoveredAssumed.length, 'pass'],
    ['advice', 'advice rules', report.advice.length, 'skip'],
    ['unknown', 'unknown rule ids named by checks', report.unknownRefs.length, report.unknownRefs.length ? 'fail' : 'skip'],
  ] as const
  const facts: [string, string][] = [
    [
      'checks',
      `${report.sources.vectors} vector cases, ${report.sources.server} server checks${report.serverCatalog === 'absent' ? ' (server catalog not found)' : ''}, ${report.sources.lint} spec (lint) checks, ${report.sources.client} client behaviour checks`,
    ],
    ...(meta.rulesFile ? ([['rules', meta.rulesFile]] as [string, string][]) : []),
    ...(meta.vectorsDir ? ([['vectors', meta.vectorsDir]] as [string, string][]) : []),
  ]
  const unknown = report.unknownRefs.length
    ? `<h3>Unknown rule ids</h3><ul>${report.unknownRefs.map((u) => `<li><code>${esc(u.id)}</code> named by <code>${esc(u.by)}</code></li>`).join('')}</ul>`
    : ''
  const filters = filterForm(
    'coverage-rows',
    'Filter the rules',
    checkboxes(
      'Status',
      'status',
      (Object.keys(STATUS_LABEL) as Status[]).map((s) => ({ value: s, label: STATUS_LABEL[s] })),
    ) +
      checkboxes('Level', 'level', [
        { value: 'stated', label: 'stated' },
        { value: 'assumed', label: 'assumed' },
      ]) +
      search('Rule id, section or text', 'rule', 'filter-rule', 'e.g. SIG-'),
  )
  const body = `<header><h1>oec coverage: rules × checks</h1></header>
<main id="main">
<section aria-labelledby="summary-h"><h2 id="summary-h">Summary <span class="verdict ${ok ? 'ok' : 'bad'}" id="verdict">${ok ? 'every stated rule has a check' : 'GAPS'}</span></h2>
<ul class="bar">${bar.map(([id, label, n, cls]) => `<li class="${cls}"><span class="n" id="count-${id}">${n}</span>${esc(label)}</li>`).join('')}</ul>
<dl class="meta">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>${unknown}</section>
<section aria-labelledby="matrix-h"><h2 id="matrix-h">Rules (${report.rows.length})</h2>
<p class="muted">Stated rules without a check first (they fail <code>oec coverage</code>), then assumed ones without a check, then the rest in catalog order. Counts are checks per source: vector cases (replayed by both runners), server checks, spec (lint) checks, client behaviour checks (<code>oec check client --http</code>).</p>
${filters}
<div class="table-wrap"><table class="matrix" id="coverage-table"><thead><tr><th scope="col">Rule</th><th scope="col">Level</th><th scope="col">Status</th>${SOURCES.map((s) => `<th scope="col" class="num">${s}</th>`).join('')}<th scope="col">Section</th><th scope="col" class="text">Text</th><th scope="col">Checks</th></tr></thead>
<tbody id="coverage-rows">${ordered.map(({ r, i }) => row(r, i)).join('\n')}</tbody></table></div></section>
</main>`
  return page(`oec coverage: ${ok ? 'covered' : `${report.uncoveredStated.length} stated rule(s) uncovered`}`, body)
}
