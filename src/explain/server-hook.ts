/**
 * `oec serve --explain`: the diagnosis of a refused signature, for the refusal body's `explain`
 * field. A development aid: the search costs up to its budget per refused request, so the
 * budget here is smaller than the command's and the switch is never on by default.
 */
import type { Contract } from '../contract/load.ts'
import { OecError } from '../errors.ts'
import type { DomainOverrides, ParsedBodyOk } from '../signing/index.ts'
import { explainRequest } from './engine.ts'

export interface RefusalContext {
  /** The signer may act for the wallet (the wallet itself or an approved agent). */
  authorized(address: string): boolean
  /** The server has seen the address (a 403 rather than a 401 when it signs). */
  known(address: string): boolean
}

export type RefusalExplainer = (body: ParsedBodyOk, wallet: string, context: RefusalContext) => unknown

export function refusalExplainer(
  contract: Contract<'typedData'>,
  opts: { domain?: DomainOverrides | undefined; budgetMs?: number | undefined } = {},
): RefusalExplainer {
  return (body, wallet, context) => {
    try {
      const e = explainRequest(contract, body, {
        signer: wallet,
        accepts: context.authorized,
        knows: context.known,
        domain: opts.domain,
        budget: { maxMs: opts.budgetMs ?? 500 },
      })
      return {
        verified: e.verified,
        ...(e.signer ? { signer: e.signer } : {}),
        causes: e.causes.map((c) => ({
          id: c.id,
          signed: c.signed,
          sent: c.sent,
          text: c.text,
          ...(c.item !== undefined ? { item: c.item } : {}),
        })),
      }
    } catch (err) {
      // The refusal itself stands; a body the engine cannot read says so instead of failing the reply.
      return { error: err instanceof OecError ? err.message : 'the request could not be explained' }
    }
  }
}
