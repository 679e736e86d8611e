import { LAYER_NAMES, loadContract, requireLayers, type LoadOptions } from '../contract/load.ts'
import type { LocatedFinding } from './findings.ts'
import { validateOpenApi } from './openapi.ts'
import { lintSpec } from './rules.ts'

export type { LintFinding, LocatedFinding, Severity } from './findings.ts'
export { lintSpec } from './rules.ts'
export { validateOpenApi } from './openapi.ts'

export interface LintReport {
  readonly file: string
  readonly findings: readonly LocatedFinding[]
  readonly errors: number
  readonly warnings: number
}

/** Loads, validates and lints a spec file. Unreadable input throws InputError. */
export async function lintFile(path: string, options: LoadOptions = {}): Promise<LintReport> {
  const spec = requireLayers(loadContract(path, options), LAYER_NAMES, 'oec lint')
  const raw = [...(await validateOpenApi(spec.doc)), ...lintSpec(spec)]
  const findings = raw
    .map((f) => ({ ...f, file: spec.file, line: spec.lineOf(f.pointer) }))
    .sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule))
  return {
    file: spec.file,
    findings,
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
  }
}

export function formatLintText(report: LintReport): string {
  const lines = report.findings.map(
    (f) => `${f.file}:${f.line} ${f.rule} ${f.severity === 'warning' ? '(warning) ' : ''}${f.message}`,
  )
  lines.push(`${report.file}: ${report.errors} error(s), ${report.warnings} warning(s)`)
  return lines.join('\n') + '\n'
}
