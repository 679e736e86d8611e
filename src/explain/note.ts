/**
 * The explain engine as one line for a runner's failure message: "explain: chain_id: you signed
 * chainId 1; the service signs 999". Null when the request verifies or the engine cannot read it,
 * so a caller appends it only when it adds something.
 */
import type { Contract } from '../contract/load.ts'
import { OecError } from '../errors.ts'
import { explainRequest, type ExplainOptions } from './engine.ts'

/** A runner's failures can be many: each diagnosis gets a small budget. */
const NOTE_BUDGET_MS = 250

export function explainNote(contract: Contract<'typedData'>, body: string, opts: ExplainOptions = {}): string | null {
  try {
    const e = explainRequest(contract, body, { budget: { maxMs: NOTE_BUDGET_MS }, ...opts })
    if (e.verified || e.causes.length === 0) return null
    return `explain: ${e.causes.map((c) => `${c.id}: ${c.text}`).join('; ')}`
  } catch (err) {
    if (err instanceof OecError) return null
    throw err
  }
}

/**
 * For a server that refused a request the toolkit signed: when the request verifies under the
 * contract, the server is at fault (another domain or message), and the note says so; when it
 * does not, the note says why, as `explainNote` does.
 */
export function refusedRequestNote(contract: Contract<'typedData'>, body: string, opts: ExplainOptions = {}): string | null {
  try {
    const e = explainRequest(contract, body, { budget: { maxMs: NOTE_BUDGET_MS }, ...opts })
    if (e.verified)
      return `explain: the request verifies under the contract's domain (signer ${e.signer}), so the server hashes another domain or message`
    // An agent's signature searched against the wallet ends in `unknown`: no news, no note.
    const found = e.causes.filter((c) => c.id !== 'unknown')
    return found.length > 0 ? `explain: ${found.map((c) => `${c.id}: ${c.text}`).join('; ')}` : null
  } catch (err) {
    if (err instanceof OecError) return null
    throw err
  }
}
