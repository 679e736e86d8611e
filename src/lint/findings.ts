import type { LintRuleId, Severity } from './registry.ts'

export type { Severity }

export interface LintFinding {
  readonly rule: LintRuleId
  readonly severity: Severity
  /** JSON pointer of the offending value. */
  readonly pointer: string
  readonly message: string
}

export interface LocatedFinding extends LintFinding {
  readonly file: string
  readonly line: number
}
