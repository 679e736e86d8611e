/**
 * `signature` (AUTH-1, AUTH-2, SIG-8): every write request the client sends verifies under the
 * contract's domain and is signed by its wallet; when one does not, the explain engine says why.
 */
import { explainRequest } from '../../../../explain/engine.ts'
import { explainNote } from '../../../../explain/note.ts'
import type { RecordedExchange } from '../scenario-server.ts'
import { verdictOf, type ClientCheck } from './model.ts'

export const signatureCheck: ClientCheck<'signature'> = {
  name: 'signature',
  title: 'every request is signed by its wallet and verifies',
  rules: ['AUTH-1', 'AUTH-2', 'SIG-8'],
  level: 'stated',
  judge({ exchanges, contract }) {
    const problems: string[] = []
    const marks = new Map<RecordedExchange, string>()
    // Reads (a client may look up its orders) carry no signature.
    for (const ex of exchanges.filter((e) => e.method !== 'GET' && e.method !== 'HEAD')) {
      const where = { path: ex.path.split('?')[0]!, method: ex.method }
      let verified = false
      try {
        verified = explainRequest(contract, ex.body, { ...where, budget: { maxMs: 50 } }).verified
      } catch {
        verified = false
      }
      if (verified) continue
      const why = explainNote(contract, ex.body, where)
      problems.push(`${ex.task}: ${ex.method} ${where.path} does not verify${why ? ` (${why})` : ''}`)
      marks.set(ex, "expected a signature by the wallet under the contract's domain")
    }
    return verdictOf(problems, 'every request verifies: EIP-712 under the options domain, signed by the wallet', marks)
  },
}
