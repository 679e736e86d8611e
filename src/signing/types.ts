import type { LocalAccount } from 'viem'
import type { MessageKind } from '../contract/generated/contract.ts'
import { InputError } from '../errors.ts'

export type Hex = `0x${string}`
/** A message kind of the options domain, as the shipped spec's `x-eip712` lists them. */
export type OptionsKind = MessageKind['options']
/** Typed-data field names (clientId, orderId); nonce as bigint. route absent ⇒ 8-field PlaceOrder. */
export type OptionsMessage = { readonly [field: string]: string | bigint }
export interface DomainOverrides {
  // An undefined field is the default's (checkDomain skips it), so callers may pass one through.
  name?: string | undefined
  version?: string | undefined
  chainId?: number | bigint | undefined
  verifyingContract?: Hex | undefined
}
export interface ResolvedDomain {
  name: string
  version: string
  chainId: bigint
  verifyingContract: Hex
}
/** A private key (`0x` + 64 hex) or a viem local account. */
export type Signer = Hex | LocalAccount

export type VerifyResult =
  | { ok: true; signer: Hex; digest: Hex }
  | { ok: false; digest?: Hex; reason: 'malformed_signature' | 'bad_v' | 'high_s' | 'unrecoverable'; message: string }

/** Bad signing input (a key, a field type, a nonce range): one line naming what is wrong. */
export class SigningInputError extends InputError {
  constructor(
    message: string,
    /** The offending field (`privateKey`, `nonce`, `price`, ...), when one is to blame. */
    readonly field: string | null = null,
  ) {
    super(message)
  }
}

export const UINT64_MAX = (1n << 64n) - 1n
