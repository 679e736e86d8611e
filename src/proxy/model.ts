/** What the proxy sees (one exchange: request and response, bytes as they went by) and what it finds. */
import type { RuleId } from '../contract/generated/rules.ts'

export interface ProxiedExchange {
  /** 1-based, in the order requests arrived. */
  readonly seq: number
  readonly method: string
  /** Path and query as the client sent them. */
  readonly url: string
  readonly requestHeaders: Readonly<Record<string, string>>
  readonly requestBody: Buffer
  readonly status: number
  readonly responseHeaders: Readonly<Record<string, string>>
  readonly responseBody: Buffer
  readonly ms: number
}

export type Party = 'client' | 'server'

export interface Violation {
  readonly party: Party
  /** The check that found it: schema, signature, nonce, status, body, error_code, rate_headers. */
  readonly check: string
  readonly rules: readonly RuleId[]
  /** One line: what is wrong and, where known, the fix. */
  readonly message: string
  readonly seq: number
  readonly method: string
  readonly path: string
}

/** A maker of one party's violations for one exchange. */
export function violationsOf(
  party: Party,
  ex: ProxiedExchange,
  path: string,
): (check: string, rules: RuleId[], message: string) => Violation {
  return (check, rules, message) => ({ party, check, rules, message, seq: ex.seq, method: ex.method, path })
}
