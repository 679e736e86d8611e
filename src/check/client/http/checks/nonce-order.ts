/**
 * `nonce-order` (NONCE-3): nonces should increase. The seed says "should" and allows gaps and no
 * strict monotonicity (NONCE-4), so a decrease is a warning; a retry with the same nonce is fine.
 */
import type { RecordedExchange } from '../scenario-server.ts'
import { verdictOf, type ClientCheck } from './model.ts'

export const nonceOrderCheck: ClientCheck<'nonce-order'> = {
  name: 'nonce-order',
  title: 'nonces increase (equal on a retry)',
  rules: ['NONCE-3', 'NONCE-4'],
  level: 'assumed',
  judge({ exchanges }) {
    const last = new Map<string | null, bigint>()
    const problems: string[] = []
    const marks = new Map<RecordedExchange, string>()
    for (const ex of exchanges) {
      if (ex.nonce === null || !/^[0-9]+$/.test(ex.nonce)) continue
      const n = BigInt(ex.nonce)
      const prev = last.get(ex.wallet)
      if (prev !== undefined && n < prev) {
        problems.push(`${ex.task}: nonce ${n} after ${prev}`)
        marks.set(ex, `expected a nonce of at least ${prev}`)
      }
      last.set(ex.wallet, n)
    }
    return verdictOf(problems, "each request's nonce at least the previous one's for the wallet", marks)
  },
}
