/**
 * `retry-after` (RL-10, ERR-6): after an answer with `Retry-After` (a 429, and any other status
 * that carries one), the client's next request for that wallet, in this task or the next, comes no
 * sooner than that many seconds after the answer (50 ms tolerance for timer granularity).
 */
import { RATE_LIMIT_HEADERS } from '../../../../contract/index.ts'
import type { RecordedExchange } from '../scenario-server.ts'
import { secs, verdictOf, type ClientCheck } from './model.ts'

export const TOLERANCE_MS = 50

/** The Retry-After of an answer in whole seconds, when it has one. */
export function retryAfterOf(ex: RecordedExchange): number | null {
  const v = ex.headers[RATE_LIMIT_HEADERS.retryAfter.toLowerCase()]
  return v !== undefined && /^[0-9]+$/.test(v) ? Number(v) : null
}

export const retryAfterCheck: ClientCheck<'retry-after'> = {
  name: 'retry-after',
  title: 'the next request for the wallet waits the Retry-After time',
  rules: ['RL-10', 'ERR-6'],
  level: 'stated',
  judge({ exchanges }) {
    const problems: string[] = []
    const marks = new Map<RecordedExchange, string>()
    exchanges.forEach((ex, i) => {
      const ra = retryAfterOf(ex)
      if (ra === null || ex.answeredAt === null) return
      const next = exchanges.slice(i + 1).find((n) => n.wallet === ex.wallet)
      if (!next) return
      const gap = next.at - ex.answeredAt
      if (gap < ra * 1000 - TOLERANCE_MS) {
        problems.push(`after ${ex.status} with Retry-After: ${ra}, the next request came ${secs(gap)} later`)
        marks.set(next, `expected not before ${ra} s after the ${ex.status} (came after ${secs(gap)})`)
      }
    })
    return verdictOf(
      problems,
      `the next request for the wallet no sooner than Retry-After seconds after the answer (${TOLERANCE_MS} ms tolerance)`,
      marks,
    )
  },
}
