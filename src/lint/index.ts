import { layerKey, missingLayers, type Contract, type LoadOptions } from '../contract/load.ts'
import type { LintFinding, LocatedFinding } from './findings.ts'
import { loadForLint } from './load.ts'
import { validateOpenApi } from './openapi.ts'
import { absentLayers, type AbsentLayer } from './registry.ts'
import { lintSpec } from './rules.ts'

export type { LintFinding, LocatedFinding, Severity } from './findings.ts'
export {
  LINT_RULE_IDS,
  LINT_RULES,
  formatRuleList,
  ruleListJson,
  type AbsentLayer,
  type LintRuleId,
  type LintRuleInfo,
} from './registry.ts'
export { lintSpec } from './rules.ts'
export { loadForLint, type LintLoad } from './load.ts'
export { validateOpenApi } from './openapi.ts'

export interface LintReport {
  readonly file: string
  readonly findings: readonly LocatedFinding[]
  readonly errors: number
  readonly warnings: number
  /** Toolkit layers the spec lacks, each with the rules that were skipped for it. */
  readonly absent: readonly AbsentLayer[]
}

/**
 * Validates and lints a compiled contract: OpenAPI validity, then every toolkit rule whose layer
 * the spec has. A plain OpenAPI document is linted, not refused.
 */
export async function lintContract(spec: Contract, loadFindings: readonly LintFinding[] = []): Promise<LintReport> {
  const raw = [...loadFindings, ...(await validateOpenApi(spec.doc)), ...lintSpec(spec)]
  const findings = raw
    .map((f) => ({ ...f, file: spec.file, line: spec.lineOf(f.pointer) }))
    .sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule))
  return {
    file: spec.file,
    findings,
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
    // A layer that is there but unreadable has its own finding; it is not absent.
    absent: absentLayers(
      spec,
      missingLayers(spec).filter((l) => !loadFindings.some((f) => f.pointer === `/${layerKey(l, spec.service)}`)),
    ),
  }
}

/**
 * Loads, validates and lints a spec file. Unreadable input (or not OpenAPI 3.x) throws
 * InputError; an extension that cannot be read is a `layer-invalid` finding.
 */
export async function lintFile(path: string, options: LoadOptions = {}): Promise<LintReport> {
  const { contract, broken } = loadForLint(path, options)
  return lintContract(contract, broken)
}

/** The one line that says which layers were absent and how many rules that skipped. */
export function absentLine(report: LintReport): string | undefined {
  if (report.absent.length === 0) return undefined
  const layers = report.absent.map((a) => `${a.key} layer (${a.topic})`).join(', no ')
  const skipped = report.absent.reduce((n, a) => n + a.skipped.length, 0)
  const whose = report.absent.length === 1 ? 'its' : 'their'
  return `${report.file}: info: no ${layers}: ${whose} rules were skipped (${skipped} of the lint rules)`
}

export function formatLintText(report: LintReport): string {
  const lines = report.findings.map((f) => `${f.file}:${f.line} ${f.rule} ${f.severity === 'error' ? '' : `(${f.severity}) `}${f.message}`)
  const info = absentLine(report)
  if (info !== undefined) lines.push(info)
  lines.push(`${report.file}: ${report.errors} error(s), ${report.warnings} warning(s)`)
  return lines.join('\n') + '\n'
}
