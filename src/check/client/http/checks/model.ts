/**
 * What a client-behaviour check is: a pure judgement of one scenario's recorded exchanges and
 * the client's answers. A failing verdict names the exchanges at fault, so the timeline can mark
 * them with what was expected.
 */
import type { Contract } from '../../../../contract/index.ts'
import type { RuleId } from '../../../../contract/generated/rules.ts'
import type { Level } from '../../../../report/model.ts'
import type { RecordedExchange } from '../scenario-server.ts'
import type { Scenario } from '../scenarios.ts'
import type { SessionResult, TaskRun } from '../session.ts'

export interface CheckInput {
  readonly scenario: Scenario
  readonly session: SessionResult
  readonly exchanges: readonly RecordedExchange[]
  readonly contract: Contract<'typedData'>
}

export type Verdict =
  | { readonly ok: true }
  | {
      readonly ok: false
      /** One line: what happened against what was expected. */
      readonly message: string
      readonly expected: string
      /** Exchanges (or task runs) to mark in the timeline, with what was expected of each. */
      readonly marks?: ReadonlyMap<RecordedExchange | TaskRun, string>
    }

export interface ClientCheck<N extends string = string> {
  readonly name: N
  readonly title: string
  readonly rules: readonly RuleId[]
  /** stated: a departure fails; assumed (or a "should" of the seed): it warns. */
  readonly level: Level
  judge(input: CheckInput): Verdict
}

/** The exchanges of one task, in arrival order. */
export function exchangesOf(exchanges: readonly RecordedExchange[], task: string): RecordedExchange[] {
  return exchanges.filter((e) => e.task === task)
}

/** The JSON body of an answer, or null. */
export function responseJson(ex: RecordedExchange): Record<string, unknown> | null {
  if (ex.response === null) return null
  try {
    const v = JSON.parse(ex.response) as unknown
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** `status` of an order or cancel result in a 200 answer (ACKED, REJECTED, CANCELED), else null. */
export function orderStatusOf(ex: RecordedExchange | undefined): string | null {
  if (ex?.status !== 200) return null
  const s = responseJson(ex)?.status
  return typeof s === 'string' ? s : null
}

/** Seconds with millisecond digits, for messages. */
export const secs = (ms: number) => `${(ms / 1000).toFixed(3)} s`

/** A verdict from a list of problems: the first three in the message. */
export function verdictOf(problems: readonly string[], expected: string, marks?: ReadonlyMap<RecordedExchange | TaskRun, string>): Verdict {
  if (problems.length === 0) return { ok: true }
  return {
    ok: false,
    message: problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (+${problems.length - 3} more)` : ''),
    expected,
    ...(marks && marks.size > 0 ? { marks } : {}),
  }
}
