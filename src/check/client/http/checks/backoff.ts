/**
 * `backoff` (RL-10): on consecutive 429s the waits grow. Over a run of 429s the last wait must
 * exceed the first by more than a tenth (and by more than the timer tolerance), and at least half
 * of the steps from one wait to the next must grow by more than the tolerance: constant waits
 * fail, while a loaded machine that delays one wait of a growing series does not. The growth
 * factor and the number of tries are the client's choice, and giving up is allowed (fewer than
 * two retries leave nothing to compare).
 */
import type { RecordedExchange } from '../scenario-server.ts'
import { secs, verdictOf, type ClientCheck } from './model.ts'
import { TOLERANCE_MS } from './retry-after.ts'

/** Runs of consecutive 429 answers within one task, each with the request that followed it. */
function rateLimitedRuns(exchanges: readonly RecordedExchange[]): { gaps: number[]; next: RecordedExchange[] }[] {
  const runs: { gaps: number[]; next: RecordedExchange[] }[] = []
  let cur: { gaps: number[]; next: RecordedExchange[] } | null = null
  for (const [i, ex] of exchanges.entries()) {
    const after = exchanges[i + 1]
    if (ex.status !== 429 || ex.answeredAt === null) {
      cur = null
      continue
    }
    if (cur === null) runs.push((cur = { gaps: [], next: [] }))
    if (after && after.task === ex.task) {
      cur.gaps.push(after.at - ex.answeredAt)
      cur.next.push(after)
    } else cur = null
  }
  return runs
}

/** Whether a series of waits grows (true for fewer than two: nothing to compare). */
export function grows(gaps: readonly number[]): boolean {
  if (gaps.length < 2) return true
  const first = gaps[0]!
  const last = gaps.at(-1)!
  let steps = 0
  for (let i = 1; i < gaps.length; i++) if (gaps[i]! > gaps[i - 1]! + TOLERANCE_MS) steps++
  return last - first > Math.max(TOLERANCE_MS, first / 10) && steps >= Math.ceil((gaps.length - 1) / 2)
}

export const backoffCheck: ClientCheck<'backoff'> = {
  name: 'backoff',
  title: 'waits grow between retries after consecutive 429s',
  rules: ['RL-10'],
  level: 'stated',
  judge({ exchanges }) {
    const problems: string[] = []
    const marks = new Map<RecordedExchange, string>()
    for (const run of rateLimitedRuns(exchanges)) {
      if (grows(run.gaps)) continue
      const last = run.gaps.length - 1
      problems.push(`waits after consecutive 429s: ${run.gaps.map(secs).join(', ')} (they do not grow)`)
      marks.set(run.next[last]!, `expected a wait growing from the first ${secs(run.gaps[0]!)} (waited ${secs(run.gaps[last]!)})`)
    }
    return verdictOf(
      problems,
      `each wait after a 429 longer than the previous one by more than ${TOLERANCE_MS} ms (exponential backoff), or giving up`,
      marks,
    )
  },
}
