/**
 * The vector file format: Wycheproof-style JSON, one file per family. Integers that can exceed
 * 2^53 (nonces, expiresAfter) are stored as decimal strings so that any JSON parser reads them
 * exactly; the runners turn them back into JSON integers when they speak the wire protocol.
 */
import type { Code } from '../contract/codes.ts'
import type { MessageKind } from '../contract/generated/contract.ts'
import type { RuleId } from '../contract/generated/rules.ts'
import type { Contract } from '../contract/index.ts'
import type { Hex } from '../signing/index.ts'

export type { Hex }

/** What the vectors are built from: the catalog, the signed messages and the limits. */
export type VectorsContract = Contract<'catalog' | 'typedData' | 'rateLimits'>

/** What a server is expected to answer, as a class (a list means: any of these). */
export type ServerOutcome =
  | 'accepted' // 2xx and not a business rejection
  | 'rejected' // 200 with status REJECTED (or the perp envelope's error): authorized, refused on business grounds
  | Code<'signature_verification_failed' | 'unauthorized' | 'invalid_field' | 'nonce_reused'>
  | Code<'not_found'> // e.g. revoking an agent that is not approved

export const SERVER_OUTCOMES: readonly ServerOutcome[] = [
  'accepted',
  'rejected',
  'signature_verification_failed',
  'unauthorized',
  'invalid_field',
  'nonce_reused',
  'not_found',
]

/** A signer or verifier cannot tell a tampered message from a stranger's signature. */
export const AUTH_REFUSED: ServerOutcome[] = ['signature_verification_failed', 'unauthorized']

export type VectorResult = 'valid' | 'invalid' | 'acceptable'
export type VectorKind = MessageKind['options'] | MessageKind['perps'] | 'Mail'

export interface TypedFieldJson {
  name: string
  type: string
}

/** Exactly what was signed: domain and message values as JSON (uint values as decimal strings). */
export interface TypedDataJson {
  domain: Record<string, string | number>
  types: Record<string, TypedFieldJson[]>
  primaryType: string
  message: Record<string, unknown>
}

/** A request of the `oec sign --jsonl` protocol, without `id` and `op` (integers as decimal strings). */
export interface ProtocolSign {
  kind: Exclude<VectorKind, 'Mail'>
  domain?: Record<string, string | number>
  message: Record<string, unknown>
}

export interface ProtocolVerify extends ProtocolSign {
  /** Hex signature for options kinds; for Agent the hex form of r ‖ s ‖ v as well. */
  signature: string
  /** The verdict a correct verifier gives: recovers `signer` (true), or refuses / recovers another address (false). */
  accept: boolean
  /** The digest a correct verifier computes for this message, when it can compute one. */
  digest?: Hex
}

export interface SetupStep {
  /** The one precondition the vectors need: an agent approval (the owner signs ApproveAgent). */
  op: 'approve-agent'
  privateKey: Hex
  wallet: Hex
  agent: Hex
  nonce: string
  request: HttpRequest
}

export interface HttpRequest {
  method: 'POST' | 'DELETE'
  path: string
  /** The exact body text sent. */
  body: string
}

export interface PerpInput {
  /** Any msgpack value; integers past 2^53 are bigints (plain JSON integers on disk). */
  action: unknown
  nonce: string
  vaultAddress?: Hex
  expiresAfter?: string
  isMainnet: boolean
  connectionId: Hex
}

export interface VectorCase {
  tcId: number
  comment: string
  rules: RuleId[]
  flags: string[]
  /** stated: the expectation follows from the contract's text; assumed: from a DECISIONS pick. */
  level: 'stated' | 'assumed'
  result: VectorResult
  server: ServerOutcome | ServerOutcome[]
  kind: VectorKind
  privateKey: Hex
  /** Address of privateKey (the recovered signer of a correct signature). */
  signer: Hex
  /** The trading wallet the request acts for (null for the Mail anchor). */
  wallet: Hex | null
  typedData: TypedDataJson
  digest: Hex
  signature: Hex
  perp?: PerpInput
  request?: HttpRequest
  /** The signing request whose answer must be exactly digest, signature (and request.body). */
  sign?: ProtocolSign
  /** The verification request a verifier sees (what the server reconstructs from the body). */
  verify?: ProtocolVerify
  setup?: SetupStep[]
}

export interface FlagNote {
  bugType: string
  description: string
}

export interface TestGroup {
  type: string
  kind: VectorKind
  source: string
  tests: VectorCase[]
}

export interface VectorFile {
  algorithm: string
  schema: string
  generatorVersion: string
  family: string
  numberOfTests: number
  header: string[]
  notes: Record<string, FlagNote>
  testGroups: TestGroup[]
}

/** The id runners and expected-failure lists use for a case: `<family>/<tcId>`. */
export function caseId(family: string, tcId: number): string {
  return `${family}/${tcId}`
}
