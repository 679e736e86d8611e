/**
 * What every family shares: the fixed parties, the flag notes (flag ⇒ bug type and meaning),
 * the agent-approval setup step, and a builder that numbers cases and assembles a file.
 */
import { signingFor } from '../../signing/index.ts'
import type { VectorsContract } from '../model.ts'
import { party, type Party } from '../build.ts'
import type { FlagNote, Hex, SetupStep, TestGroup, VectorCase, VectorFile, VectorKind } from '../model.ts'
import { operationFor, optionsCase, type OptionsCaseInput } from '../options-case.ts'

export const GENERATOR_VERSION = 'oec-vectors 1'
export const SCHEMA_FILE = 'vectors.schema.json'

/** Fixed parties: keys derived from labels, so every run writes the same bytes. */
export const P = {
  wallet: party('wallet-a'),
  walletB: party('wallet-b'),
  agent: party('agent-a'),
  agentB: party('agent-b'),
  subAgent: party('sub-agent'),
  stranger: party('stranger'),
  perp: party('perp-trader'),
  perpAgent: party('perp-agent'),
  vault: party('perp-vault'),
} satisfies Record<string, Party>

/** Instruments of the reference server's default set; a checker may substitute its own. */
export const SYMBOL = 'BTC-20261225-100000-C'
export const SYMBOLS = ['BTC-20261225-100000-C', 'ETH-20261225-4000-P', 'SOL-20261225-200-C']

export const NOTES: Record<string, FlagNote> = {
  Valid: { bugType: 'BASIC', description: 'A correct request: a signer must reproduce it exactly and a server must accept it.' },
  AgentSigned: {
    bugType: 'BASIC',
    description: 'Signed by an approved agent for the trading wallet; needs the setup step (approve-agent) first.',
  },
  RouteOmitted: {
    bugType: 'LEGACY',
    description:
      'route left out of body and typed data (the 8-field struct); a server may accept it with a deprecation header or, after the sunset, refuse it with invalid_field.',
  },
  EmptyClientId: { bugType: 'EDGE_CASE', description: 'client_id is the empty string, which the contract allows.' },
  UnicodeString: {
    bugType: 'EDGE_CASE',
    description: 'A string with non-ASCII, escaped or control characters; it is hashed as UTF-8 bytes and must survive JSON escaping.',
  },
  BoundaryNonce: { bugType: 'EDGE_CASE', description: 'A nonce at a boundary of the uint64 range or of exact JS numbers (2^53).' },
  FormatMismatch: {
    bugType: 'FORMAT_MISMATCH',
    description: 'The body carries a decimal string that differs from the signed one (e.g. 100.0 signed, 100 sent).',
  },
  BadDecimal: {
    bugType: 'FORMAT_MISMATCH',
    description:
      'A size or price string outside the decimal grammar, signed and sent consistently: the signature holds, field validation must refuse it.',
  },
  NumberNotString: { bugType: 'FORMAT_MISMATCH', description: 'size or price sent as a JSON number instead of a string.' },
  RouteStructMismatch: { bugType: 'WRONG_STRUCT', description: 'The route presence in the body and in the signed struct disagree.' },
  WrongStruct: {
    bugType: 'WRONG_STRUCT',
    description: 'The signed struct differs from the contract (renamed, retyped, reordered or extra field, renamed type).',
  },
  WrongDomain: {
    bugType: 'WRONG_DOMAIN',
    description: "Signed under a domain other than the contract's (chain ID, name, version, verifying contract, fields).",
  },
  PerpDomainOnOptions: { bugType: 'WRONG_DOMAIN', description: 'An options message signed under the perp domain, or the reverse.' },
  NonceMismatch: { bugType: 'WRONG_NONCE', description: 'The body nonce is not the signed one.' },
  PrecisionLoss: {
    bugType: 'PRECISION_LOSS',
    description: 'The nonce went through a double (JSON.parse): the body carries the rounded value.',
  },
  BadNonceForm: {
    bugType: 'MALFORMED_INPUT',
    description: 'The body nonce is not a JSON integer in 0..2^64-1 (string, negative, fraction, exponent, too large, null).',
  },
  VZeroOne: { bugType: 'LEGACY', description: 'The recovery id written as v = 0/1 instead of 27/28; the contract accepts both.' },
  HighS: {
    bugType: 'SIGNATURE_MALLEABILITY',
    description: 'The malleable twin of a valid signature (s replaced by n - s, v flipped); must be rejected.',
  },
  BadV: { bugType: 'MALFORMED_SIGNATURE', description: 'A recovery id outside {0, 1, 27, 28}.' },
  MalformedSignature: {
    bugType: 'MALFORMED_SIGNATURE',
    description: 'The signature is not 0x + 130 hex digits (compact, truncated, extended, non-hex, no 0x, empty).',
  },
  InvalidScalar: { bugType: 'MALFORMED_SIGNATURE', description: 'r or s is zero or not below the curve order.' },
  UppercaseHex: { bugType: 'EDGE_CASE', description: 'Hex digits in upper case; the contract allows any case.' },
  WrongSignature: { bugType: 'AUTH_BYPASS', description: 'A valid signature over a different message.' },
  TamperedField: { bugType: 'AUTH_BYPASS', description: 'A signed field changed after signing.' },
  UnknownBodyField: {
    bugType: 'MISSING_STEP',
    description: 'The body has a field the schema does not define (a typo such as clientId for client_id).',
  },
  NumericOrderId: { bugType: 'FORMAT_MISMATCH', description: 'order_id sent as a JSON number although orderId is signed as a string.' },
  AddressCase: { bugType: 'EDGE_CASE', description: 'An address in lower, upper or checksummed case; addresses compare as 20 bytes.' },
  AgentNotApproved: {
    bugType: 'AUTH_BYPASS',
    description: 'Signed by an agent the wallet has not approved (or approved for another wallet).',
  },
  StrangerSigned: { bugType: 'AUTH_BYPASS', description: 'Signed by a key that is neither the wallet nor its agent.' },
  AgentForOwner: {
    bugType: 'AUTH_BYPASS',
    description: 'An agent signs ApproveAgent/RevokeAgent hoping to act for its owner; it acts only for itself.',
  },
  SelfApproval: { bugType: 'EDGE_CASE', description: 'A wallet approves itself as its own agent.' },
  ApprovalMisattributed: {
    bugType: 'WRONG_DOMAIN',
    description:
      'A wrong ApproveAgent signature recovers to some other address; a server cannot tell and records the approval for that address.',
  },
  Mainnet: { bugType: 'BASIC', description: 'Perp action signed with source "a" (mainnet).' },
  Testnet: { bugType: 'BASIC', description: 'Perp action signed with source "b" (testnet); a mainnet server refuses it.' },
  VaultAddress: { bugType: 'BASIC', description: 'The perp action trades for a vault (vaultAddress is part of the connectionId).' },
  ExpiresAfter: { bugType: 'BASIC', description: 'The perp action carries expiresAfter (part of the connectionId).' },
  MsgpackIntWidth: {
    bugType: 'ENCODING',
    description: 'An integer at a msgpack width boundary (0, 127, 128, 255, 256, 65535, 65536, 2^32): the smallest encoding must be used.',
  },
  MsgpackUint64: {
    bugType: 'ENCODING',
    description: 'An integer past 2^53 (up to 2^64-1): read, hashed and compared exactly, never as a JS double.',
  },
  ArrayAction: { bugType: 'ENCODING', description: "The action is a msgpack array (the venue's multi-signature inner form), not a map." },
  CancelByCloid: { bugType: 'BASIC', description: 'A cancel that names the order by its client order ID (cancelByCloid).' },
  KeyOrder: { bugType: 'ENCODING', description: 'Action keys in a different order: msgpack keeps key order, so the connectionId differs.' },
  VaultNotSigned: { bugType: 'AUTH_BYPASS', description: 'vaultAddress sent but not covered by the signature (or the reverse).' },
  PublishedReference: {
    bugType: 'KNOWN_ANSWER',
    description: "Expected values published outside this toolkit (the EIP-712 specification's Mail example).",
  },
}

/** The precondition of an agent-signed case: the owner approves the agent (POST /approve-agent). */
export async function approveStep(spec: VectorsContract, owner: Party, agent: Hex, nonce: bigint): Promise<SetupStep> {
  const op = operationFor(spec, 'ApproveAgent')
  const r = await signingFor(spec).buildRequest('ApproveAgent', { agent, nonce }, owner.key)
  return {
    op: 'approve-agent',
    privateKey: owner.key,
    wallet: owner.address,
    agent,
    nonce: nonce.toString(),
    request: { method: op.method, path: op.path, body: r.body },
  }
}

export class FamilyBuilder {
  private readonly groups: TestGroup[] = []
  private next = 1

  constructor(
    readonly spec: VectorsContract,
    readonly family: string,
    readonly algorithm: string,
    readonly header: string[],
  ) {}

  group(type: string, kind: VectorKind, source: string): void {
    this.groups.push({ type, kind, source, tests: [] })
  }

  private current(): TestGroup {
    const g = this.groups[this.groups.length - 1]
    if (!g) throw new Error(`${this.family}: add a group before its cases`)
    return g
  }

  tcId(): number {
    return this.next++
  }

  push(c: VectorCase): void {
    this.current().tests.push({ ...c, rules: [...new Set(c.rules)], flags: [...new Set(c.flags)] })
  }

  async options(input: OptionsCaseInput): Promise<VectorCase> {
    const c = await optionsCase(this.spec, this.tcId(), input)
    this.push(c)
    return c
  }

  build(): VectorFile {
    const tests = this.groups.flatMap((g) => g.tests)
    const used = [...new Set(tests.flatMap((t) => t.flags))].sort()
    const notes: Record<string, FlagNote> = {}
    for (const f of used) {
      const n = NOTES[f]
      if (!n) throw new Error(`${this.family}: flag ${f} has no note`)
      notes[f] = n
    }
    return {
      algorithm: this.algorithm,
      schema: SCHEMA_FILE,
      generatorVersion: GENERATOR_VERSION,
      family: this.family,
      numberOfTests: tests.length,
      header: this.header,
      notes,
      testGroups: this.groups.filter((g) => g.tests.length > 0),
    }
  }
}

/** Successive nonces from `start`, as decimal strings: each family keeps its cases' nonces apart. */
export function nonceCounter(start: number): () => string {
  let n = start
  return () => String(n++)
}

export const POW = (e: number) => (1n << BigInt(e)).toString()
