import { LAYER_NAMES, layerKey, missingLayers, type Contract, type LoadOptions } from '../contract/load.ts'
import type { LintFinding, LocatedFinding } from './findings.ts'
import { loadForLint } from './load.ts'
import { validateOpenApi } from './openapi.ts'
import { absentLayers, effectiveLevel, type AbsentLayer, type LintRuleId, type RuleSetting } from './registry.ts'
import { lintSpec } from './rules.ts'

export type { LintFinding, LocatedFinding, Severity } from './findings.ts'
export {
  LINT_RULE_IDS,
  LINT_RULES,
  checkRuleSettings,
  formatRuleList,
  parseRuleFlags,
  ruleListJson,
  RULE_SETTINGS,
  type RuleSetting,
  type AbsentLayer,
  type LintRuleId,
  type LintRuleInfo,
} from './registry.ts'
export { lintSpec } from './rules.ts'
export { loadForLint, type LintLoad } from './load.ts'
export { validateOpenApi, type ValidateOptions } from './openapi.ts'

/** What a caller (the CLI's flags, or a config file's `lint` object) can set. */
export interface LintOptions extends LoadOptions {
  /** Per-rule levels: `off` drops a rule's findings, `warn`/`error` replace its level. */
  readonly ruleLevels?: Readonly<Partial<Record<LintRuleId, RuleSetting>>> | undefined
  /** Fetch `http(s)://` references to check that they resolve (default: no network access). */
  readonly allowRemote?: boolean | undefined
}

const LAYER_COUNT = LAYER_NAMES.length

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
export async function lintContract(
  spec: Contract,
  loadFindings: readonly LintFinding[] = [],
  options: Pick<LintOptions, 'ruleLevels' | 'allowRemote'> = {},
): Promise<LintReport> {
  const validity = await validateOpenApi(spec.doc, { file: spec.file, allowRemote: options.allowRemote })
  const raw = [...loadFindings, ...validity, ...lintSpec(spec)]
  // A layer that is present but unreadable still says the document adopted the toolkit.
  const toolkit = missingLayers(spec).length < LAYER_COUNT || loadFindings.length > 0
  const settings = options.ruleLevels ?? {}
  const findings = raw
    .flatMap((f) => {
      const severity = effectiveLevel(f.rule, settings, toolkit)
      return severity === undefined ? [] : [{ ...f, severity, file: spec.file, line: spec.lineOf(f.pointer) }]
    })
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
export async function lintFile(path: string, options: LintOptions = {}): Promise<LintReport> {
  const { ruleLevels, allowRemote, ...load } = options
  const { contract, broken } = loadForLint(path, load)
  return lintContract(contract, broken, { ruleLevels, allowRemote })
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
