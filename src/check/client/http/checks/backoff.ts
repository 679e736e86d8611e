/**
 * `backoff` (RL-10): on consecutive 429s the waits grow. The gap from each 429 to the next
 * request must be longer than the one before by more than the timer tolerance; the growth
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

export const backoffCheck: ClientCheck<'backoff'> = {
  name: 'backoff',
  title: 'waits grow between retries after consecutive 429s',
  rules: ['RL-10'],
  level: 'stated',
  judge({ exchanges }) {
    const problems: string[] = []
    const marks = new Map<RecordedExchange, string>()
    for (const run of rateLimitedRuns(exchanges)) {
      for (let i = 1; i < run.gaps.length; i++) {
        if (run.gaps[i]! <= run.gaps[i - 1]! + TOLERANCE_MS) {
          problems.push(`waits after consecutive 429s: ${run.gaps.map(secs).join(', ')} (they do not grow)`)
          marks.set(run.next[i]!, `expected a longer wait than the previous ${secs(run.gaps[i - 1]!)} (waited ${secs(run.gaps[i]!)})`)
          break
        }
      }
    }
    return verdictOf(
      problems,
      `each wait after a 429 longer than the previous one by more than ${TOLERANCE_MS} ms (exponential backoff), or giving up`,
      marks,
    )
  },
}
