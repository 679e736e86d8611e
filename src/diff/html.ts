/**
 * The HTML page of `oec diff`: findings grouped by operation (a change to a shared schema shows
 * under every operation it reaches) and by level, each with its rule id, the rule's explanation,
 * the sentence and both sides' values. Written against `DiffFinding` (src/diff/model.ts) only,
 * so the page does not depend on how the comparers are organised. It lives beside the findings
 * it shows and builds on the report page kit below it (src/report/html/page.ts).
 */
import { countBySeverity, DIFF_RULES, failsOn, type DiffFinding, type DiffSeverity } from './index.ts'
import { checkboxes, esc, filterForm, page, ruleSelect, search, token } from '../report/html/page.ts'

export interface DiffSide {
  /** File, git ref or label the user gave for this side. */
  readonly label: string
  /** The spec's info.version. */
  readonly version?: string
}

export interface DiffReportMeta {
  readonly base: DiffSide
  readonly head: DiffSide
  /** The level from which `oec diff` exits 1 (its --fail-on); default breaking. */
  readonly failOn?: DiffSeverity
}

const LEVELS: readonly DiffSeverity[] = ['breaking', 'warning', 'info']
const LEVEL_HEADING: Readonly<Record<DiffSeverity, string>> = { breaking: 'Breaking changes', warning: 'Warnings', info: 'Other changes' }
const METHOD = /\b(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) (\/[^\s,;()`]*)/g

const unescapePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~')

/**
 * The operations a finding concerns: the one its pointer sits in, else the operations its
 * sentence names (a shared component's change lists them), else the part of the spec it is in.
 */
export function operationsOf(f: DiffFinding): string[] {
  const parts = f.pointer.split('/').slice(1).map(unescapePointer)
  if (parts[0] === 'paths' && parts[1] !== undefined) return [parts[2] ? `${parts[2].toUpperCase()} ${parts[1]}` : parts[1]]
  const named = new Set<string>()
  for (const m of f.message.matchAll(METHOD)) named.add(`${m[1]} ${m[2]!.replace(/[.:]+$/, '')}`)
  if (named.size) return [...named].sort()
  const area: Readonly<Record<string, string>> = {
    'x-service-error-codes': 'Error catalog',
    'x-eip712': 'Signing (EIP-712)',
    'x-rate-limits': 'Rate limits',
    info: 'Spec version',
    components: 'Shared components',
  }
  return [area[parts[0] ?? ''] ?? (parts[0] ? `/${parts[0]}` : 'Whole spec')]
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)'
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2)
}

function finding(f: DiffFinding, ops: readonly string[]): string {
  const rule = DIFF_RULES[f.id]
  const values =
    f.before !== undefined || f.after !== undefined
      ? `<div class="values"><div><h4>Before (base)</h4><pre>${esc(show(f.before))}</pre></div><div><h4>After (head)</h4><pre>${esc(show(f.after))}</pre></div></div>`
      : ''
  return `<li data-item data-severity="${f.severity}" data-rule="${esc(token(f.id))}" data-op="${esc(ops.join(' | '))}"><details open><summary><span class="badge ${f.severity}">${f.severity}</span> <code class="case-id">${esc(f.id)}</code> <span class="msg">${esc(f.message)}</span></summary><div class="case-body"><p><strong>Rule ${esc(f.id)}:</strong> ${esc(rule?.description ?? 'not in the rule registry')}${rule && rule.severity !== f.severity ? ` <span class="muted">(default ${esc(rule.severity)}, set to ${esc(f.severity)} here)</span>` : ''}</p><p class="muted">At <code>${esc(f.pointer || '/')}</code>${ops.length ? ` · ${esc(ops.join(', '))}` : ''}</p>${values}</div></details></li>`
}

function group(title: string, items: readonly string[], level?: DiffSeverity): string {
  return `<section data-group class="group"><h3>${level ? `<span class="badge ${level}">${level}</span> ` : ''}${esc(title)} <span class="muted">(${items.length})</span></h3><ul class="cases">${items.join('\n')}</ul></section>`
}

export function renderDiffHtml(findings: readonly DiffFinding[], meta: DiffReportMeta): string {
  const n = countBySeverity(findings)
  const failOn = meta.failOn ?? 'breaking'
  const failing = failsOn(findings, failOn)
  const withOps = findings.map((f) => ({ f, ops: operationsOf(f) }))
  const byOp = new Map<string, DiffFinding[]>()
  for (const { f, ops } of withOps) for (const op of ops) byOp.set(op, [...(byOp.get(op) ?? []), f])
  const rank = (f: DiffFinding) => LEVELS.indexOf(f.severity)
  const opView = [...byOp]
    .sort(([a, fa], [b, fb]) => Math.min(...fa.map(rank)) - Math.min(...fb.map(rank)) || a.localeCompare(b))
    .map(([op, list]) =>
      group(
        op,
        [...list].sort((a, b) => rank(a) - rank(b)).map((f) => finding(f, [op])),
      ),
    )
    .join('\n')
  const levelView = LEVELS.filter((l) => n[l] > 0)
    .map((l) =>
      group(
        LEVEL_HEADING[l],
        withOps.filter(({ f }) => f.severity === l).map(({ f, ops }) => finding(f, ops)),
        l,
      ),
    )
    .join('\n')
  const ruleIds = [...new Set(findings.map((f) => f.id))].sort()
  const version = (s: DiffSide) => `${s.label}${s.version ? ` (version ${s.version})` : ''}`
  const filters = filterForm(
    'findings',
    'Filter the findings',
    checkboxes(
      'Level',
      'severity',
      LEVELS.map((l) => ({ value: l, label: l })),
    ) +
      ruleSelect(ruleIds) +
      search('Operation', 'op', 'filter-op', 'e.g. POST /order'),
  )
  const views = `<fieldset class="filters" data-view-for="findings" hidden><legend>Group by</legend><label><input type="radio" name="view" value="operation" checked> operation</label><label><input type="radio" name="view" value="level"> level</label></fieldset>`
  const body = `<header><h1>oec diff: API changes</h1></header>
<main id="main">
<section aria-labelledby="summary-h"><h2 id="summary-h">Summary <span class="verdict ${failing ? 'bad' : 'ok'}" id="verdict">${failing ? `FAILS (--fail-on ${esc(failOn)})` : 'passes'}</span></h2>
<ul class="bar">${LEVELS.map((l) => `<li class="${l}"><span class="n" id="count-${l}">${n[l]}</span>${esc(l)}</li>`).join('')}</ul>
<dl class="meta"><dt>base</dt><dd id="meta-base">${esc(version(meta.base))}</dd><dt>head</dt><dd id="meta-head">${esc(version(meta.head))}</dd><dt>findings</dt><dd>${findings.length}</dd></dl></section>
<section aria-labelledby="findings-h"><h2 id="findings-h">Findings</h2>
${findings.length === 0 ? '<p>No changes that affect clients.</p>' : `${views}${filters}<div id="findings"><div data-view="operation"><h2 class="muted">By operation</h2>${opView}</div><div data-view="level"><h2 class="muted">By level</h2>${levelView}</div></div>`}
</section>
</main>`
  return page(`oec diff ${meta.base.label} → ${meta.head.label}: ${n.breaking} breaking`, body)
}
