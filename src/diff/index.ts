/**
 * `oec diff`: what changed between two versions of the contract, and whether it breaks clients.
 * `diffSpecs` is pure (two loaded specs in, sorted findings out); reading files and git refs,
 * the severity file and the output formats sit at the edges.
 */
import type { FullContract } from '../contract/load.ts'
import { diffAssumed } from './assumed.ts'
import { diffCatalog } from './catalog.ts'
import { Collector, sortFindings } from './collect.ts'
import { diffLimits } from './limits.ts'
import type { DiffFinding, DiffLevel } from './model.ts'
import { diffOperations } from './operations.ts'
import { diffSigning } from './signing.ts'
import { diffVersions } from './version.ts'

export type { DiffFinding, DiffLevel, DiffSeverity, RuleInfo } from './model.ts'
export { RULES as DIFF_RULES, SEVERITY_RANK as DIFF_SEVERITY_RANK, ruleIds as diffRuleIds } from './model.ts'
export { DIFF_FORMATS, countBySeverity, failsOn, formatDiff, type DiffFormat, type FormatContext } from './format.ts'
export { loadSeverityFile, parseSeverityText } from './policy.ts'
export { parseGitArg, readGitFile, readSpecArg, type SpecArg } from './input.ts'

export interface DiffOptions {
  /** Rule id → level from a `--severity` file; `none` silences the rule. */
  readonly severity?: ReadonlyMap<string, DiffLevel>
  /** ISO date (YYYY-MM-DD) that judges `x-sunset` on removed operations; default today. */
  readonly today?: string
}

export function diffSpecs(base: FullContract, head: FullContract, opts: DiffOptions = {}): DiffFinding[] {
  const policy = opts.severity ?? new Map<string, DiffLevel>()
  const c = new Collector()
  diffCatalog(base, head, c)
  diffSigning(base, head, c)
  diffOperations(base, head, c, { today: opts.today ?? new Date().toISOString().slice(0, 10) })
  diffLimits(base, head, c)
  diffAssumed(base, head, c)
  const findings = c.findings(policy)
  // The version rules judge the other findings at the levels the project chose.
  const versions = new Collector()
  diffVersions(base, head, findings, versions)
  return sortFindings([...findings, ...versions.findings(policy)])
}
