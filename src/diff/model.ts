/** What `oec diff` reports: findings with a stable rule id (the rules are in registry.ts). */

export type DiffSeverity = 'breaking' | 'warning' | 'info'
/** A level a `--severity` file may give a rule; `none` silences it. */
export type DiffLevel = DiffSeverity | 'none'

export interface DiffFinding {
  /** Stable rule id (e.g. `error-code-removed`). */
  readonly id: string
  readonly severity: DiffSeverity
  /** JSON pointer of the changed element: in head, or in base when it is gone from head. */
  readonly pointer: string
  /** One sentence saying what changed and where. */
  readonly message: string
  readonly before?: unknown
  readonly after?: unknown
}

export const SEVERITY_RANK: Readonly<Record<DiffSeverity, number>> = { breaking: 3, warning: 2, info: 1 }
