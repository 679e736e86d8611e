/**
 * Perp actions, signed the way the external perpetuals venue signs its L1 actions:
 * connectionId = keccak256(msgpack(action) ‖ nonce u64 BE ‖ 0x00 | 0x01 ‖ vault (20 bytes)
 * [‖ 0x00 ‖ expiresAfter u64 BE]), then Agent{source: 'a' mainnet | 'b' testnet, connectionId}
 * under the perp domain (spec `x-eip712.domains.perps`).
 */
import type { MessageKind } from '../contract/generated/contract.ts'
import type { TypedDataDefinition } from 'viem'
import { keccak256 } from './crypto.ts'
import { hashStruct, typedDigest, type DomainFields } from './eip712.ts'
import { isHex, toHex, typeOf } from './hex.ts'
import { packb } from './msgpack.ts'
import { signTypedWith, type OptionsSigning } from './options.ts'
import { recoverDigest, splitSignature } from './signature.ts'
import { SigningInputError, UINT64_MAX, type DomainOverrides, type Hex, type Signer, type VerifyResult } from './types.ts'

export interface PerpSignInput {
  /** Any value the venue's msgpack hashes: an action object, or an array such as the multi-signature inner form. */
  action: unknown
  nonce: bigint
  vaultAddress?: Hex | null
  expiresAfter?: bigint | null
  isMainnet: boolean
}

function u64(v: unknown, name: string): bigint {
  const b = typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : v
  if (typeof b !== 'bigint') throw new SigningInputError(`${name} must be an integer in 0..${UINT64_MAX}, got ${typeOf(v)}`, name)
  if (b < 0n || b > UINT64_MAX) throw new SigningInputError(`${name} must be an integer in 0..${UINT64_MAX}, got ${b}`, name)
  return b
}

function connectionIdBytes(input: Omit<PerpSignInput, 'isMainnet'>): Buffer {
  if (input.action === undefined) throw new SigningInputError('action is missing', 'action')
  const packed = packb(input.action)
  const nonce = u64(input.nonce, 'nonce')
  const vault = input.vaultAddress ?? null
  if (vault !== null && !isHex(vault, 20))
    throw new SigningInputError('vaultAddress must be an address (0x + 40 hex digits) or null', 'vaultAddress')
  const expires = input.expiresAfter ?? null
  const expiresValue = expires === null ? null : u64(expires, 'expiresAfter')
  const buf = Buffer.alloc(packed.length + 8 + (vault ? 21 : 1) + (expiresValue === null ? 0 : 9))
  buf.set(packed, 0)
  let off = packed.length
  off = buf.writeBigUInt64BE(nonce, off)
  if (vault) {
    buf[off++] = 1
    off += buf.write(vault.slice(2), off, 20, 'hex')
  } else buf[off++] = 0
  if (expiresValue !== null) {
    buf[off++] = 0
    buf.writeBigUInt64BE(expiresValue, off)
  }
  return keccak256(buf)
}

/** The action hash (the Agent's connectionId). */
export function perpActionHash(input: Omit<PerpSignInput, 'isMainnet'>): Hex {
  return toHex(connectionIdBytes(input))
}

export interface PerpSigning {
  /** viem-ready typed data of the Agent message for an action. */
  perpTypedData(
    input: PerpSignInput,
    domain?: DomainOverrides,
  ): {
    domain: DomainFields
    types: Record<string, { name: string; type: string }[]>
    primaryType: string
    message: { source: string; connectionId: Hex }
  }
  signPerpAction(
    input: PerpSignInput,
    signer: Signer,
    domain?: DomainOverrides,
  ): Promise<{ connectionId: Hex; digest: Hex; signature: Hex; r: Hex; s: Hex; v: 27 | 28 }>
  /** Recovers the Agent signer; r/s may drop leading zeros (the venue's SDKs print them as integers). Never throws. */
  recoverPerpSigner(
    input: PerpSignInput,
    sig: { r: string; s: string; v: number },
    opts?: { domain?: DomainOverrides | undefined; allowHighS?: boolean | undefined },
  ): VerifyResult
}

const RS_RE = /^0x[0-9a-fA-F]{1,64}$/
/** The venue's one signed message: its id under `x-eip712.messages`. */
const AGENT = 'Agent' satisfies MessageKind['perps']

/** The Agent message of one contract (its `x-eip712.messages.Agent` and `perps` domain). */
export function createPerpSigning(options: Pick<OptionsSigning, 'compiledMessage' | 'domainFields' | 'separatorFor'>): PerpSigning {
  const agentDigest = (input: PerpSignInput, domain?: DomainOverrides) => {
    if (typeof input.isMainnet !== 'boolean')
      throw new SigningInputError(`isMainnet must be a boolean, got ${typeOf(input.isMainnet)}`, 'isMainnet')
    const connectionId = toHex(connectionIdBytes(input))
    const { message, struct } = options.compiledMessage(AGENT)
    const agent = { source: input.isMainnet ? 'a' : 'b', connectionId }
    const domainUsed = options.domainFields(message.domain, domain)
    return {
      connectionId,
      agent,
      domainUsed,
      struct,
      digest: typedDigest(options.separatorFor(message.domain, domain), hashStruct(struct, agent)),
    }
  }

  const perpTypedData: PerpSigning['perpTypedData'] = (input, domain) => {
    const { agent, domainUsed, struct } = agentDigest(input, domain)
    return {
      domain: domainUsed,
      types: { [struct.primaryType]: struct.fields.map((f) => ({ name: f.name, type: f.type })) },
      primaryType: struct.primaryType,
      message: agent,
    }
  }

  return {
    perpTypedData,
    async signPerpAction(input, signer, domain) {
      const { connectionId, digest } = agentDigest(input, domain)
      const signature = await signTypedWith(signer, digest, () => perpTypedData(input, domain) as unknown as TypedDataDefinition)
      const { r, s, v: vByte } = splitSignature(signature)
      const v = (vByte < 27 ? vByte + 27 : vByte) as 27 | 28
      return { connectionId, digest: toHex(digest), signature, r, s, v }
    },
    recoverPerpSigner(input, sig, opts = {}) {
      let digest: Buffer
      try {
        digest = agentDigest(input, opts.domain).digest
      } catch (err) {
        return {
          ok: false,
          reason: 'unrecoverable',
          message: `cannot hash the action: ${err instanceof Error ? err.message : String(err)}`,
        }
      }
      if (
        sig === null ||
        typeof sig !== 'object' ||
        typeof sig.r !== 'string' ||
        typeof sig.s !== 'string' ||
        !RS_RE.test(sig.r) ||
        !RS_RE.test(sig.s)
      ) {
        return {
          ok: false,
          digest: toHex(digest),
          reason: 'malformed_signature',
          message: 'signature needs r and s as 0x-prefixed hex of at most 32 bytes',
        }
      }
      if (typeof sig.v !== 'number' || !Number.isInteger(sig.v)) {
        return { ok: false, digest: toHex(digest), reason: 'bad_v', message: `signature v must be 27 or 28, got ${typeOf(sig.v)}` }
      }
      return recoverDigest(digest, sig.r.slice(2).padStart(64, '0'), sig.s.slice(2).padStart(64, '0'), sig.v, opts.allowHighS === true)
    },
  }
}
