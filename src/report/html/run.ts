/**
 * The HTML report of a conformance run (`oec check server|client --reporter html`): a summary
 * bar, the rule × outcome matrix by section (stated and assumed apart), then every case with
 * what was sent, what came back, what was expected, its rules and a reproduction to copy.
 */
import type { Rule } from '../../contract/rules.ts'
import { countOutcomes, exitCodeFor, OUTCOMES, type CaseResult, type Level, type Outcome, type RunSummary } from '../model.ts'
import { block, checkboxes, copyBlock, esc, filterForm, page, ruleSelect, search, token, toolkitVersion } from './page.ts'

export interface RunReportMeta {
  /** The rule catalog the results name (texts, sections, levels). */
  readonly rules: readonly Rule[]
  readonly seed?: number | undefined
  /** info.version of the spec the run checked against. */
  readonly specVersion?: string | undefined
  readonly toolkitVersion?: string | undefined
}

const OUTCOME_LABEL: Readonly<Record<Outcome, string>> = {
  pass: 'passed',
  fail: 'failed',
  warn: 'warnings',
  xfail: 'expected failures',
  skip: 'skipped',
}
const BADGE: Readonly<Record<Outcome, string>> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', xfail: 'XFAIL', skip: 'SKIP' }
// The order a reader triages in: what breaks the contract first.
const TRIAGE: readonly Outcome[] = ['fail', 'warn', 'xfail', 'skip', 'pass']
const LEVELS: readonly Level[] = ['stated', 'assumed']

/** The check a case belongs to: a server case id up to its first '/', a client case's vector family. */
export function checkOf(id: string): string {
  const slash = id.indexOf('/')
  return slash < 0 ? id : id.slice(0, slash)
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

function summaryBar(s: RunSummary, meta: RunReportMeta): string {
  const c = countOutcomes(s.results)
  const ok = exitCodeFor(s.results) === 0
  const counts = (['pass', 'fail', 'warn', 'xfail', 'skip'] as const)
    .map((o) => `<li class="${o}"><span class="n" id="count-${o}">${c[o]}</span>${esc(OUTCOME_LABEL[o])}</li>`)
    .join('')
  const facts: [string, string][] = [
    ['target', s.target],
    ['seed', meta.seed === undefined ? 'n/a' : String(meta.seed)],
    ['duration', duration(s.durationMs)],
    ['started', s.startedAt],
    ['cases', String(s.results.length)],
    ['toolkit', `oec ${meta.toolkitVersion ?? toolkitVersion()}`],
    ['spec', meta.specVersion ?? 'n/a'],
  ]
  return `<section aria-labelledby="summary-h"><h2 id="summary-h">Summary <span class="verdict ${ok ? 'ok' : 'bad'}" id="verdict">${ok ? 'PASSED' : 'FAILED'}</span></h2>
<ul class="bar" aria-label="Cases by outcome">${counts}</ul>
<dl class="meta">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd id="meta-${esc(k)}">${esc(v)}</dd>`).join('')}</dl>
<p class="muted">failed = the target breaks a rule the contract states (exit code 1); warning = it differs where the contract is silent and the toolkit assumed a choice; expected failure = listed in --expected-failures and still failing.</p></section>`
}

interface MatrixRow {
  readonly rule: Rule
  readonly counts: Record<Outcome, number>
}

function matrix(results: readonly CaseResult[], byId: ReadonlyMap<string, Rule>): string {
  const rows = new Map<string, MatrixRow>()
  for (const r of results) {
    for (const id of new Set(r.rules)) {
      let row = rows.get(id)
      if (!row) {
        // A rule a check names but the catalog lacks still gets a row, so no result is lost from the matrix.
        const rule = byId.get(id) ?? { id, section: 'Not in the rule catalog', level: r.level, text: '(unknown rule id)' }
        row = { rule, counts: { pass: 0, fail: 0, warn: 0, skip: 0, xfail: 0 } }
        rows.set(id, row)
      }
      row.counts[r.outcome]++
    }
  }
  const order = [...byId.keys()]
  const rank = (id: string) => {
    const i = order.indexOf(id)
    return i < 0 ? order.length : i
  }
  // What a reader looks for first: failing rules, then warning ones, then the rest; catalog order
  // within each (so the sections holding a failure come first too).
  const urgency = (r: MatrixRow) => (r.counts.fail > 0 ? 0 : r.counts.warn > 0 ? 1 : 2)
  const tables = LEVELS.map((level) => {
    const mine = [...rows.values()]
      .filter((r) => r.rule.level === level)
      .sort((a, b) => urgency(a) - urgency(b) || rank(a.rule.id) - rank(b.rule.id))
    if (mine.length === 0)
      return `<h3>${level === 'stated' ? 'Stated' : 'Assumed'} rules</h3><p class="muted">No case of this run names ${level} rules.</p>`
    const sections = new Map<string, MatrixRow[]>()
    for (const r of mine) sections.set(r.rule.section, [...(sections.get(r.rule.section) ?? []), r])
    const head = `<thead><tr><th scope="col">Rule</th><th scope="col" class="text">Text</th>${OUTCOMES.map((o) => `<th scope="col" class="num">${esc(BADGE[o])}</th>`).join('')}</tr></thead>`
    const bodies = [...sections]
      .map(
        ([section, list]) =>
          `<tbody><tr><th colspan="${2 + OUTCOMES.length}" scope="rowgroup">${esc(section)}</th></tr>${list
            .map(
              (r) =>
                `<tr${r.counts.fail > 0 ? ' class="gap"' : ''} id="rule-${esc(token(r.rule.id))}"><th scope="row"><a href="#cases" data-set-filter="rule" data-value="${esc(token(r.rule.id))}" title="Show the cases of ${esc(r.rule.id)}">${esc(r.rule.id)}</a></th><td class="text">${esc(r.rule.text)}</td>${OUTCOMES.map(
                  (o) => `<td class="num ${o}${r.counts[o] === 0 ? ' zero' : ''}">${r.counts[o]}</td>`,
                ).join('')}</tr>`,
            )
            .join('')}</tbody>`,
      )
      .join('')
    return `<h3>${level === 'stated' ? 'Stated rules (a departure fails)' : 'Assumed rules (a departure warns)'}</h3><div class="table-wrap"><table class="matrix" id="matrix-${level}"><caption class="muted">${esc(`${mine.length} ${level} rules exercised`)}</caption>${head}${bodies}</table></div>`
  })
  return `<section aria-labelledby="matrix-h"><h2 id="matrix-h">Rules × outcomes</h2><p class="muted">One row per rule a case names, grouped by the section of the contract it comes from, failing rules first, then warning ones; a case counts once under each rule it names. Select a rule to list its cases.</p>${tables.join('')}</section>`
}

function caseItem(r: CaseResult, i: number, byId: ReadonlyMap<string, Rule>): string {
  const d = r.details ?? {}
  const parts: string[] = []
  if (r.message) parts.push(`<p><strong>Problem:</strong> ${esc(r.message)}</p>`)
  // A passing case links its rules to their rows in the matrix instead of repeating the texts:
  // ~700 passing cases would otherwise carry most of the page's weight.
  if (r.rules.length && r.outcome === 'pass')
    parts.push(`<p>Rules: ${r.rules.map((id) => `<a href="#rule-${esc(token(id))}">${esc(id)}</a>`).join(', ')}</p>`)
  else if (r.rules.length)
    parts.push(
      `<h4>Rules</h4><ul class="rules">${r.rules
        .map((id) => {
          const rule = byId.get(id)
          return `<li><strong>${esc(id)}</strong>${rule ? ` <span class="badge ${rule.level}">${rule.level}</span> <span class="muted">${esc(rule.section)}</span>: ${esc(rule.text)}` : ' (not in the rule catalog)'}</li>`
        })
        .join('')}</ul>`,
    )
  if (d.expected !== undefined) parts.push(block('Expected', d.expected))
  if (d.request !== undefined) {
    // A client case has no curl: its reproduction is the JSON lines fed to the testee.
    parts.push(d.curl === undefined ? copyBlock(`repro-${i}`, 'Request (JSON lines to replay)', d.request) : block('Request', d.request))
  }
  if (d.response !== undefined) parts.push(block('Response', d.response))
  if (d.curl !== undefined) parts.push(copyBlock(`repro-${i}`, 'Reproduce with curl', d.curl))
  for (const [k, v] of Object.entries(d))
    if (v !== undefined && !['expected', 'request', 'response', 'curl'].includes(k)) parts.push(block(k, v))
  if (!r.details && r.outcome !== 'pass') parts.push('<p class="muted">No exchange recorded for this case.</p>')
  const check = checkOf(r.id)
  return `<li data-item data-outcome="${r.outcome}" data-level="${r.level}" data-rule="${esc(r.rules.map(token).join(' '))}" data-check="${esc(r.id)}"><details${r.outcome === 'fail' ? ' open' : ''}><summary><span class="badge ${r.outcome}">${BADGE[r.outcome]}</span> <span class="case-id">${esc(r.id)}</span> <span>${esc(r.title)}</span> <span class="badge ${r.level}">${r.level}</span> <span class="muted">${esc(r.rules.join(', '))} · ${esc(duration(r.durationMs))}</span>${r.message ? `<span class="msg">${esc(r.message)}</span>` : ''}</summary><div class="case-body" data-check-id="${esc(check)}">${parts.join('')}</div></details></li>`
}

export function renderRunHtml(s: RunSummary, meta: RunReportMeta): string {
  const byId = new Map(meta.rules.map((r) => [r.id, r]))
  const sorted = [...s.results.keys()].sort(
    (a, b) => TRIAGE.indexOf(s.results[a]!.outcome) - TRIAGE.indexOf(s.results[b]!.outcome) || a - b,
  )
  const ruleIds = [...new Set(s.results.flatMap((r) => r.rules))].sort()
  const checks = [...new Set(s.results.map((r) => checkOf(r.id)))].sort()
  const filters = filterForm(
    'case-list',
    'Filter the cases',
    checkboxes(
      'Outcome',
      'outcome',
      TRIAGE.map((o) => ({ value: o, label: OUTCOME_LABEL[o] })),
    ) +
      checkboxes(
        'Level',
        'level',
        LEVELS.map((l) => ({ value: l, label: l })),
      ) +
      ruleSelect(ruleIds, (id) => `${id}${byId.get(id) ? ` (${byId.get(id)!.level})` : ''}`) +
      `<datalist id="check-ids">${checks.map((c) => `<option value="${esc(c)}">`).join('')}</datalist>` +
      search('Check or case id', 'check', 'filter-check', 'e.g. auth.chain-id', 'check-ids'),
  )
  const body = `<header><h1>${esc(s.suite)}: conformance report</h1></header>
<main id="main">
${summaryBar(s, meta)}
${matrix(s.results, byId)}
<section aria-labelledby="cases-h" id="cases"><h2 id="cases-h">Cases (${s.results.length})</h2>
<p class="muted">Failures first, open; select a case (Enter or Space on its line) to see the request, the response, what was expected, its rules and a reproduction. The runners record the exchanges of failures and warnings only; a passing case links to its rules.</p>
${filters}
<ul class="cases" id="case-list">${sorted.map((i) => caseItem(s.results[i]!, i, byId)).join('\n')}</ul></section>
</main>`
  return page(`${s.suite} against ${s.target}: ${exitCodeFor(s.results) === 0 ? 'passed' : 'FAILED'}`, body)
}
