/**
 * `oec coverage`: the rule × check matrix. Checks come from four places: the vector cases
 * (replayed by both runners), the server runner's check registry (imported like any module:
 * coverage sits above the checks, and a broken check module fails the command), the client
 * behaviour checks of `oec check client --http`, and `oec lint`'s spec checks. A stated rule with no check is a gap (exit 1); advice to client authors is
 * listed apart.
 */
import type { RuleId } from '../contract/generated/rules.ts'
import type { LintRuleId } from '../lint/registry.ts'
import { serverCheckCatalog } from '../check/server/catalog.ts'
import { CLIENT_CHECKS } from '../check/client/http/checks/index.ts'
import { contractFor, type Contract } from '../contract/load.ts'
import { generateVectors } from '../vectors/generate.ts'
import { casesOf, loadVectorCases, type LoadedCase } from '../vectors/load.ts'
import type { VectorFile } from '../vectors/model.ts'
import { DEFAULT_VECTORS_DIR } from '../vectors/paths.ts'
import { loadRules, type Level, type Rule } from '../contract/rules.ts'

export * from '../contract/rules.ts'

export type CheckSource = 'vectors' | 'server' | 'lint' | 'client'

export interface CheckRef {
  readonly source: CheckSource
  readonly id: string
  readonly title: string
  readonly rules: readonly string[]
  readonly level: Level
  /**
   * Absent: the check runs in the default live configuration (`oec check server --target URL`,
   * one symbol, no --config). Otherwise what it takes to run, e.g. `with --slow`.
   */
  readonly when?: string
}

/** The contract rules `oec lint` checks on the machine-readable description itself. */
/** A lint rule as a coverage row: its id is a registry id, its rules are catalog rule ids. */
type LintCheckRef = CheckRef & { readonly source: 'lint'; readonly id: `lint/${LintRuleId}`; readonly rules: readonly RuleId[] }

export const LINT_CHECKS: readonly LintCheckRef[] = [
  {
    source: 'lint',
    id: 'lint/catalog-entry-fields',
    title: 'every catalog entry carries its fields (incl. the legacy error value)',
    rules: ['ERR-10', 'ERR-16', 'ERR-3'],
    level: 'stated',
  },
  {
    source: 'lint',
    id: 'lint/catalog-code-format',
    title: 'HTTP codes are lowercase identifiers, JSON-RPC codes integers',
    rules: ['ERR-1', 'ERR-13'],
    level: 'stated',
  },
  {
    source: 'lint',
    id: 'lint/catalog-code-undeclared',
    title: 'operations only emit catalogued codes',
    rules: ['ERR-10', 'ERR-15'],
    level: 'stated',
  },
  { source: 'lint', id: 'lint/catalog-status-mismatch', title: 'catalog statuses match the responses', rules: ['ERR-10'], level: 'stated' },
  {
    source: 'lint',
    id: 'lint/eip712-domain-invalid',
    title: 'signing domains have the EIP712Domain fields',
    rules: ['DOM-5', 'PERP-1'],
    level: 'stated',
  },
  {
    source: 'lint',
    id: 'lint/eip712-type-mismatch',
    title: 'signed body fields match the typed-data types',
    rules: ['SIG-7', 'PO-8'],
    level: 'stated',
  },
  {
    source: 'lint',
    id: 'lint/eip712-property-unsigned',
    title: 'every body property of a signed request is signed',
    rules: ['AUTH-1'],
    level: 'stated',
  },
  {
    source: 'lint',
    id: 'lint/rate-limit-headers-missing',
    title: 'rate-limited operations declare the headers',
    rules: ['RL-6'],
    level: 'stated',
  },
  {
    source: 'lint',
    id: 'lint/request-additional-properties',
    title: 'request bodies refuse unknown fields',
    rules: ['PO-11'],
    level: 'assumed',
  },
]

/** The client-behaviour checks of `oec check client --http` (each judged on one or more scenarios). */
export const CLIENT_CHECK_REFS: readonly CheckRef[] = CLIENT_CHECKS.map((c) => ({
  source: 'client',
  id: `client/${c.name}`,
  title: c.title,
  rules: c.rules,
  level: c.level,
}))

export interface CoverageRow {
  readonly rule: Rule
  readonly checks: readonly CheckRef[]
  readonly count: Record<CheckSource, number>
  /**
   * `covered` when a check that runs in the default live configuration covers the rule;
   * `covered with --slow` (or `with 51 listed symbols`, ...) when only checks that need more do;
   * `uncovered` when none does; `advice` for advice rules.
   */
  readonly status: string
}

/** The status of a rule from the checks that name it (see CoverageRow.status). */
export function coverageStatus(rule: Rule, checks: readonly CheckRef[]): string {
  if (rule.advice) return 'advice'
  if (checks.length === 0) return 'uncovered'
  if (checks.some((c) => c.when === undefined)) return 'covered'
  return `covered ${[...new Set(checks.map((c) => c.when))].join(' / ')}`
}

export interface CoverageReport {
  readonly rows: CoverageRow[]
  /** Stated rules (not advice) without any check: the gaps that fail `oec coverage`. */
  readonly uncoveredStated: Rule[]
  readonly uncoveredAssumed: Rule[]
  readonly advice: Rule[]
  /** Rule ids a check names that the catalog does not define. */
  readonly unknownRefs: { id: string; by: string }[]
  readonly serverCatalog: 'loaded' | 'absent'
  readonly sources: Record<CheckSource, number>
}

export type ServerCatalogLoader = () => Promise<CheckRef[] | undefined>

/** The server runner's checks, from its registry. (A loader that gives undefined stands for a build without them.) */
const serverCatalogOf =
  (spec?: Contract): ServerCatalogLoader =>
  async () =>
    serverCheckCatalog(spec).map((c) => {
      const when = c.needs ?? (c.slow ? 'with --slow' : undefined)
      return { source: 'server' as const, id: c.id, title: c.title, rules: c.rules, level: c.level, ...(when ? { when } : {}) }
    })

export const loadServerCatalog: ServerCatalogLoader = serverCatalogOf()

export interface CoverageOptions {
  readonly vectorsDir?: string | undefined
  readonly rulesPath?: string | undefined
  /**
   * Another contract (a path or a compiled one): its rules (rules.yaml beside it, unless
   * `rulesPath`), the vectors generated from it and the server checks it gets.
   */
  readonly spec?: Contract | string | undefined
  readonly serverCatalog?: ServerCatalogLoader
}

/** The vector cases, the server catalog and the rules a coverage run reads, for the shipped contract or `spec`. */
async function sourcesOf(opts: CoverageOptions): Promise<{ rules: readonly Rule[]; cases: LoadedCase[]; server: ServerCatalogLoader }> {
  if (opts.spec === undefined)
    return {
      rules: loadRules(opts.rulesPath),
      cases: loadVectorCases(opts.vectorsDir ?? DEFAULT_VECTORS_DIR),
      server: opts.serverCatalog ?? loadServerCatalog,
    }
  const contract = contractFor(opts.spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'oec coverage')
  const files = [...(await generateVectors(contract)).values()].map((text) => JSON.parse(text) as VectorFile)
  return {
    rules: opts.rulesPath !== undefined ? loadRules(opts.rulesPath) : (contract.rules ?? loadRules()),
    cases: opts.vectorsDir !== undefined ? loadVectorCases(opts.vectorsDir) : casesOf(files),
    server: opts.serverCatalog ?? serverCatalogOf(contract),
  }
}

export async function buildCoverage(opts: CoverageOptions = {}): Promise<CoverageReport> {
  const sources = await sourcesOf(opts)
  const rules = sources.rules.filter((r) => !r.retired)
  const vectorChecks: CheckRef[] = sources.cases.map((c) => ({
    source: 'vectors',
    id: c.id,
    title: c.case.comment,
    rules: c.case.rules,
    level: c.case.level,
  }))
  const server = await sources.server()
  const checks = [...vectorChecks, ...(server ?? []), ...LINT_CHECKS, ...CLIENT_CHECK_REFS]
  const byRule = new Map<string, CheckRef[]>(rules.map((r) => [r.id, []]))
  const unknownRefs: { id: string; by: string }[] = []
  for (const c of checks) {
    for (const id of new Set(c.rules)) {
      const list = byRule.get(id)
      if (list) list.push(c)
      else unknownRefs.push({ id, by: c.id })
    }
  }
  const rows = rules.map((rule) => {
    const list = byRule.get(rule.id) ?? []
    const count = { vectors: 0, server: 0, lint: 0, client: 0 }
    for (const c of list) count[c.source]++
    return { rule, checks: list, count, status: coverageStatus(rule, list) }
  })
  const gaps = rows.filter((r) => r.checks.length === 0 && !r.rule.advice).map((r) => r.rule)
  return {
    rows,
    uncoveredStated: gaps.filter((r) => r.level === 'stated'),
    uncoveredAssumed: gaps.filter((r) => r.level === 'assumed'),
    advice: rows.filter((r) => r.rule.advice).map((r) => r.rule),
    unknownRefs,
    serverCatalog: server ? 'loaded' : 'absent',
    sources: { vectors: vectorChecks.length, server: server?.length ?? 0, lint: LINT_CHECKS.length, client: CLIENT_CHECK_REFS.length },
  }
}

/** 1 when a stated rule has no check or a check names an unknown rule. */
export function coverageExitCode(r: CoverageReport): 0 | 1 {
  return r.uncoveredStated.length > 0 || r.unknownRefs.length > 0 ? 1 : 0
}

/** The matrix as text: one line per rule with its check counts per source, then the gaps. */
export function formatCoverageText(r: CoverageReport, opts: { verbose?: boolean } = {}): string {
  const lines: string[] = []
  const w = Math.max(...r.rows.map((x) => x.rule.id.length))
  lines.push(`${'rule'.padEnd(w)}  level    vectors  server  lint  client  status`)
  for (const row of r.rows) {
    const status = row.status !== 'uncovered' ? row.status : row.rule.level === 'stated' ? 'UNCOVERED' : 'uncovered (assumed)'
    lines.push(
      `${row.rule.id.padEnd(w)}  ${row.rule.level.padEnd(7)}  ${String(row.count.vectors).padStart(7)}  ${String(row.count.server).padStart(6)}  ${String(row.count.lint).padStart(4)}  ${String(row.count.client).padStart(6)}  ${status}`,
    )
    if (opts.verbose) {
      const families = new Map<string, number>()
      for (const c of row.checks) {
        const key = c.source === 'vectors' ? `vectors:${c.id.split('/')[0]}` : c.source === 'server' ? `server:${c.id}` : c.id
        families.set(key, (families.get(key) ?? 0) + 1)
      }
      for (const [k, n] of families) lines.push(`${' '.repeat(w)}    ${k}${n > 1 ? ` (${n})` : ''}`)
    }
  }
  lines.push('')
  lines.push(
    `checks: ${r.sources.vectors} vector cases, ${r.sources.server} server checks${r.serverCatalog === 'absent' ? ' (server runner catalog not found)' : ''}, ${r.sources.lint} spec (lint) checks, ${r.sources.client} client behaviour checks`,
  )
  const stated = r.rows.filter((x) => x.rule.level === 'stated' && !x.rule.advice)
  lines.push(
    `stated rules: ${stated.length - r.uncoveredStated.length}/${stated.length} covered; assumed rules: ${r.rows.filter((x) => x.rule.level === 'assumed').length - r.uncoveredAssumed.length}/${r.rows.filter((x) => x.rule.level === 'assumed').length} covered; ${r.advice.length} advice rules (nothing on the wire to check)`,
  )
  const onlyMore = r.rows.filter((x) => x.status.startsWith('covered '))
  if (onlyMore.length)
    lines.push(
      `${onlyMore.length} rules are covered only by checks that skip in the default live run (oec check server --target URL): ${onlyMore.map((x) => x.rule.id).join(', ')}`,
    )
  for (const rule of r.uncoveredStated) lines.push(`UNCOVERED ${rule.id} (stated): ${rule.text}`)
  for (const rule of r.uncoveredAssumed) lines.push(`uncovered ${rule.id} (assumed, not a failure): ${rule.text}`)
  for (const u of r.unknownRefs) lines.push(`UNKNOWN rule ${u.id} named by check ${u.by}`)
  return lines.join('\n') + '\n'
}

export function coverageJson(r: CoverageReport): unknown {
  return {
    ok: coverageExitCode(r) === 0,
    serverCatalog: r.serverCatalog,
    sources: r.sources,
    rules: r.rows.map((row) => ({
      id: row.rule.id,
      level: row.rule.level,
      section: row.rule.section,
      ...(row.rule.advice ? { advice: true } : {}),
      count: row.count,
      status: row.status,
      checks: row.checks.map((c) => `${c.source}:${c.id}`),
    })),
    uncoveredStated: r.uncoveredStated.map((x) => x.id),
    uncoveredAssumed: r.uncoveredAssumed.map((x) => x.id),
    unknownRefs: r.unknownRefs,
  }
}
