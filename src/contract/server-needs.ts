/**
 * What the reference server needs of a spec beyond its layers: every error code it can emit
 * listed in the catalog, and the rate-limit headers declared. A release-candidate spec can be
 * lint-clean and still lack one (a code dropped from the catalog and from every response), so
 * `oec serve` and the embedded `oec check server` name what is missing in one line before they
 * start, and `oec lint` reports it as information.
 */
import { InputError } from '../errors.ts'
import { jsonRpcErrorCatalog, knownErrorCodes } from './generated/errors.ts'
import { RATE_LIMIT_HEADERS } from './headers.ts'
import type { Contract } from './load.ts'
import { getPointer } from './model.ts'

export interface ServerNeed {
  /** Where it belongs in the document (JSON pointer), for lint's line number. */
  readonly pointer: string
  /** What is missing, e.g. `error code batch_too_large`. */
  readonly what: string
}

/** The server's needs that `contract` does not meet, in a fixed order (codes, then headers). */
export function missingServerNeeds(contract: Contract<'catalog'>): ServerNeed[] {
  const listed = new Set<string | number>(contract.catalog.map((e) => e.code))
  const codes = [...knownErrorCodes, ...Object.keys(jsonRpcErrorCatalog).map(Number)]
  return [
    ...codes
      .filter((c) => !listed.has(c))
      .map((c) => ({ pointer: `/${contract.catalogKey}`, what: `error code ${typeof c === 'number' ? `${c} (JSON-RPC)` : c}` })),
    ...Object.values(RATE_LIMIT_HEADERS)
      .filter((h) => getPointer(contract.doc, `/components/headers/${h}`) === undefined)
      .map((h) => ({ pointer: '/components/headers', what: `header ${h} in components.headers` })),
  ]
}

/** Refuses, in one line naming the file and everything missing, a spec the reference server cannot serve. */
export function requireServerNeeds(contract: Contract<'catalog'>, forWhat: string): void {
  const missing = missingServerNeeds(contract)
  if (missing.length === 0) return
  const codes = missing.filter((m) => m.pointer !== '/components/headers').map((m) => m.what.replace(/^error code /, ''))
  const headers = missing.filter((m) => m.pointer === '/components/headers').map((m) => m.what.replace(/^header | in .*$/g, ''))
  const parts = [
    ...(codes.length ? [`the error code${codes.length > 1 ? 's' : ''} ${codes.join(', ')} in ${contract.catalogKey}`] : []),
    ...(headers.length ? [`the header${headers.length > 1 ? 's' : ''} ${headers.join(', ')} in components.headers`] : []),
  ]
  throw new InputError(`${contract.file}: ${forWhat} needs ${parts.join(' and ')}, which this spec does not have`)
}
