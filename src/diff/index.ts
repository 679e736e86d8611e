/**
 * `oec diff`: what changed between two versions of an OpenAPI 3.0/3.1 document, and whether it
 * breaks clients. `diffSpecs` is pure (two loaded documents in, sorted findings out); reading
 * files and git refs, the severity file and the output formats sit at the edges.
 */
import { diffAssumed } from './assumed.ts'
import { diffCatalog } from './catalog.ts'
import { Collector, sortFindings } from './collect.ts'
import type { DiffSpec, WithLayer } from './input.ts'
import { diffLayers } from './layers.ts'
import { diffLimits } from './limits.ts'
import type { DiffFinding, DiffLevel } from './model.ts'
import { diffOperations } from './operations.ts'
import { diffSignedBodies, diffSigning } from './signing.ts'
import { Sameness } from './same.ts'
import { diffSecurity } from './security.ts'
import { diffVersions } from './version.ts'
import { diffWebsocket } from './websocket.ts'

export type { DiffFinding, DiffLevel, DiffSeverity } from './model.ts'
export { SEVERITY_RANK as DIFF_SEVERITY_RANK } from './model.ts'
export {
  RULES as DIFF_RULES,
  formatRuleList as formatDiffRuleList,
  ruleIds as diffRuleIds,
  type DiffRuleId,
  type RuleInfo,
} from './registry.ts'
export { DIFF_FORMATS, countBySeverity, failsOn, formatDiff, type DiffFormat, type FormatContext } from './format.ts'
export { loadSeverityFile, parseSeverityText } from './policy.ts'
export { diffSpecFromSource, parseGitArg, readGitFile, readSpecArg, readSpecPair, type DiffSpec, type SpecArg } from './input.ts'

export interface DiffOptions {
  /** Rule id → level from a `--severity` file; `none` silences the rule. */
  readonly severity?: ReadonlyMap<string, DiffLevel>
  /** ISO date (YYYY-MM-DD) that judges `x-sunset` on removed operations; default today. */
  readonly today?: string
}

const both = <K extends 'catalog' | 'typedData' | 'rateLimits'>(
  k: K,
  b: DiffSpec,
  h: DiffSpec,
): [WithLayer<K>, WithLayer<K>] | undefined =>
  b[k] !== undefined && h[k] !== undefined ? [b as WithLayer<K>, h as WithLayer<K>] : undefined

export function diffSpecs(base: DiffSpec, head: DiffSpec, opts: DiffOptions = {}): DiffFinding[] {
  const policy = opts.severity ?? new Map<string, DiffLevel>()
  const c = new Collector()
  diffLayers(base, head, c)
  const catalog = both('catalog', base, head)
  if (catalog) diffCatalog(...catalog, c)
  const signing = both('typedData', base, head)
  if (signing) diffSigning(...signing, c)
  diffSignedBodies(base, head, c)
  diffSecurity(base, head, c)
  const same = new Sameness(base.doc, head.doc)
  diffOperations(base, head, c, { today: opts.today ?? new Date().toISOString().slice(0, 10), same })
  const limits = both('rateLimits', base, head)
  if (limits) diffLimits(...limits, c)
  diffWebsocket(base, head, c, same)
  diffAssumed(base, head, c)
  const findings = c.findings(policy)
  // The version rules judge the other findings at the levels the project chose.
  const versions = new Collector()
  diffVersions(base, head, findings, versions)
  return sortFindings([...findings, ...versions.findings(policy)])
}
