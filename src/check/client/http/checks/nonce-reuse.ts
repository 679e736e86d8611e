/**
 * `nonce-reuse` (NONCE-2, NONCE-5): a nonce that an accepted request used (ACKED or CANCELED)
 * is never sent again for the wallet. Reusing the nonce of a failed request is allowed.
 */
import type { RecordedExchange } from '../scenario-server.ts'
import { orderStatusOf, verdictOf, type ClientCheck } from './model.ts'

const ACCEPTED = new Set(['ACKED', 'CANCELED'])

export const nonceReuseCheck: ClientCheck<'nonce-reuse'> = {
  name: 'nonce-reuse',
  title: 'no nonce reused after an accepted request',
  rules: ['NONCE-2', 'NONCE-5'],
  level: 'stated',
  judge({ exchanges }) {
    const used = new Map<string, RecordedExchange>()
    const problems: string[] = []
    const marks = new Map<RecordedExchange, string>()
    for (const ex of exchanges) {
      if (ex.nonce === null) continue
      const key = `${ex.wallet}/${ex.nonce}`
      const before = used.get(key)
      if (before) {
        problems.push(`${ex.task}: nonce ${ex.nonce} again, after ${before.task}'s request with it was accepted (${orderStatusOf(before)})`)
        marks.set(ex, `expected a fresh nonce: ${ex.nonce} was consumed by an accepted request`)
      }
      if (ACCEPTED.has(orderStatusOf(ex) ?? '')) used.set(key, ex)
    }
    return verdictOf(
      problems,
      'a nonce unique per wallet among accepted requests (a failed request may be retried with the same nonce)',
      marks,
    )
  },
}
