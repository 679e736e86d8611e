/**
 * What `oec explain` answers: whether a request's signature verifies for the expected signer and,
 * when it does not, the mistakes that explain it. Cause ids are stable: scripts branch on them.
 */

/**
 * The stable cause ids. `field_name` (client_id signed or sent as clientId) and
 * `signature_form` (a high-s twin, a v that is neither 27/28 nor 0/1) name mistakes the seed's
 * five causes do not cover; the others follow the seed's "Signature failure causes".
 */
export const CAUSE_IDS = [
  'chain_id',
  'domain_name',
  'domain_version',
  'verifying_contract',
  'route_struct',
  'number_field',
  'string_format',
  'nonce',
  'field_name',
  'signature_form',
  'other_signer',
  'unknown',
] as const
export type CauseId = (typeof CAUSE_IDS)[number]

export interface Cause {
  readonly id: CauseId
  /** What the client signed (as it would appear in the typed data), in words a diff can show. */
  readonly signed: string
  /** What the request carries, or what the service signs for domain causes. */
  readonly sent: string
  /** The field the cause concerns, when there is one (`price`, `nonce`, `domain.chainId`). */
  readonly field?: string
  /** The cause and its fix in one sentence. */
  readonly text: string
  /** Batches: the index of the item the cause was found in. */
  readonly item?: number
}

export interface Explanation {
  readonly verified: boolean
  /** The recovered signer of a verified request (or of the explained one). */
  readonly signer?: string
  readonly causes: readonly Cause[]
  /** Things that do not fail verification but are worth knowing (v written as 0/1). */
  readonly notes: readonly string[]
  /** The operation explained. */
  readonly operationId: string
  /** Candidate digests tried, and the time the search took. */
  readonly tried: number
  readonly ms: number
}

export interface SearchBudget {
  /** Candidate digests at most (each costs one key recovery, ~50 µs). */
  readonly maxCandidates: number
  /** Wall-clock limit of the search in milliseconds. */
  readonly maxMs: number
}

export const DEFAULT_BUDGET: SearchBudget = { maxCandidates: 40_000, maxMs: 2_000 }
