/**
 * Helpers the family generators share: fixed keys, typed data read from the spec, signing of
 * arbitrary (also deliberately wrong) typed data with ox (the standard library viem is built on),
 * and body text written field by field so that tampered bodies can be built exactly. No signing
 * logic of our own lives here: correct requests come from src/signing, wrong ones from ox over
 * typed data we describe. ox's modules load one by one (about 50 ms for typed data, where viem's
 * entry point costs 250 ms), which every `oec check` run pays at start-up.
 */
import { RawJson, type BodyEntries, type BodyValue } from '../signing/wire.ts'
import secp256k1 from 'secp256k1'
import * as Address from 'ox/Address'
import * as Bytes from 'ox/Bytes'
import * as Hash from 'ox/Hash'
import * as OxHex from 'ox/Hex'
import * as Secp256k1 from 'ox/Secp256k1'
import * as TypedData from 'ox/TypedData'
import { signDigest } from '../signing/index.ts'
import type { VectorsContract } from './model.ts'
import type { Hex, TypedDataJson, TypedFieldJson } from './model.ts'

/** A fixed private key derived from a label: the same bytes on every run, on every machine. */
export function fixedKey(label: string): Hex {
  return Hash.keccak256(OxHex.fromString(`oec-vectors:${label}`))
}

export function addressOf(key: Hex): Hex {
  return Address.fromPublicKey(Secp256k1.getPublicKey({ privateKey: key }), { checksum: true })
}

export interface Party {
  key: Hex
  address: Hex
}

export function party(label: string): Party {
  const key = fixedKey(label)
  return { key, address: addressOf(key) }
}

export type DomainJson = Record<string, string | number>

/** The domain values of a spec domain (`options` or `perps`) as JSON. */
export function specDomain(spec: VectorsContract, which: 'options' | 'perps'): DomainJson {
  const d = spec.typedData.domains[which]
  if (!d) throw new Error(`spec has no ${which} domain`)
  return { name: d.name, version: d.version, chainId: d.chainId, verifyingContract: d.verifyingContract }
}

/** EIP712Domain fields for the keys present in a domain, in the spec's domainType order. */
export function domainTypeFor(spec: VectorsContract, domain: DomainJson): TypedFieldJson[] {
  return spec.typedData.domainType.filter((f) => f.name in domain).map((f) => ({ name: f.name, type: f.type }))
}

/** Field list of a spec message (`PlaceOrder`, `PlaceOrderWithoutRoute`, ...). */
export function specFields(spec: VectorsContract, variant: string): { name: string; type: string; body: string }[] {
  const m = spec.typedData.messages[variant]
  if (!m) throw new Error(`spec has no typed-data message ${variant}`)
  return m.fields.map((f) => ({ ...f }))
}

export function primaryTypeOf(spec: VectorsContract, variant: string): string {
  const m = spec.typedData.messages[variant]
  if (!m) throw new Error(`spec has no typed-data message ${variant}`)
  return m.primaryType
}

/** Typed data as the spec defines it for a variant, with the given domain and message. */
export function standardTypedData(
  spec: VectorsContract,
  variant: string,
  domain: DomainJson,
  message: Record<string, unknown>,
): TypedDataJson {
  const primaryType = primaryTypeOf(spec, variant)
  return {
    domain,
    types: {
      EIP712Domain: domainTypeFor(spec, domain),
      [primaryType]: specFields(spec, variant).map(({ name, type }) => ({ name, type })),
    },
    primaryType,
    message,
  }
}

/** ox wants uint/int values as bigint; the JSON form keeps them as decimal strings. */
function toOx(td: TypedDataJson): TypedData.Definition<TypedData.TypedData, string> {
  const convert = (typeName: string, value: unknown): unknown => {
    const fields = td.types[typeName]
    if (!fields || value === null || typeof value !== 'object') return value
    const out: Record<string, unknown> = {}
    for (const f of fields) {
      const v = (value as Record<string, unknown>)[f.name]
      // Addresses are hashed as 20 bytes; ox insists on a valid checksum when case is mixed.
      if (f.type === 'address' && typeof v === 'string') out[f.name] = v.toLowerCase()
      else out[f.name] = /^u?int\d*$/.test(f.type) && typeof v === 'string' ? BigInt(v) : td.types[f.type] ? convert(f.type, v) : v
    }
    return out
  }
  const domain = convert('EIP712Domain', td.domain) as Record<string, unknown>
  return {
    domain,
    types: td.types,
    primaryType: td.primaryType,
    message: convert(td.primaryType, td.message),
  } as unknown as TypedData.Definition<TypedData.TypedData, string>
}

export function digestTyped(td: TypedDataJson): Hex {
  return TypedData.getSignPayload(toOx(td))
}

/**
 * ox hashes the (possibly deliberately wrong) typed data; the toolkit's RFC 6979 signer signs
 * the digest. The Mail anchor (published signature) pins that this pair signs like everyone else.
 */
export async function signTyped(td: TypedDataJson, key: Hex): Promise<{ digest: Hex; signature: Hex }> {
  const digest = digestTyped(td)
  return { digest, signature: signDigest(Bytes.fromHex(digest), key).signature }
}

// ---------------------------------------------------------------- body text

export { bodyText as writeBody, setEntry, type BodyEntries, type BodyValue } from '../signing/wire.ts'

/** A string body value (JSON-escaped when written) and raw JSON text written as is: the wire module's model. */
export const str = (s: string): BodyValue => s
export const raw = (r: string): BodyValue => new RawJson(r)

/** Body entries of a signed options message: spec field → body property, nonce digit for digit. */
export function optionsBodyEntries(
  spec: VectorsContract,
  variant: string,
  message: Record<string, string>,
  signature: string,
): BodyEntries {
  const entries: BodyEntries = specFields(spec, variant).map((f) => [
    f.body,
    /^u?int\d*$/.test(f.type) ? raw(message[f.name] ?? '') : str(message[f.name] ?? ''),
  ])
  entries.push(['signature', str(signature)])
  return entries
}

// ---------------------------------------------------------------- signature encodings

export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

export function splitSig(sig: Hex): { r: Hex; s: Hex; v: number } {
  const h = sig.slice(2)
  return { r: `0x${h.slice(0, 64)}`, s: `0x${h.slice(64, 128)}`, v: parseInt(h.slice(128, 130), 16) }
}

export function joinSig(r: bigint | Hex, s: bigint | Hex, v: number): Hex {
  const hex32 = (x: bigint | Hex) => (typeof x === 'bigint' ? x.toString(16) : x.slice(2)).padStart(64, '0')
  return `0x${hex32(r)}${hex32(s)}${v.toString(16).padStart(2, '0')}`
}

/** The malleable twin (r, n - s, flipped v): recovers to the same signer unless high-s is refused. */
export function highS(sig: Hex): Hex {
  const { r, s, v } = splitSig(sig)
  return joinSig(r, SECP256K1_N - BigInt(s), v === 27 ? 28 : 27)
}

/** EIP-2098 compact form (64 bytes, yParity folded into the top bit of s). */
export function compact(sig: Hex): Hex {
  const { r, s, v } = splitSig(sig)
  const vs = BigInt(s) | (v === 28 ? 1n << 255n : 0n)
  return `0x${r.slice(2)}${vs.toString(16).padStart(64, '0')}`
}

/** Plain ecrecover of a 65-byte signature (any v form, any s); null when it does not recover. */
export async function recoverAddressLoose(digest: Hex, signature: string): Promise<Hex | null> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return null
  const v = parseInt(signature.slice(130, 132), 16)
  const recid = v >= 27 ? v - 27 : v
  if (recid !== 0 && recid !== 1) return null
  try {
    // libsecp256k1 (the native package the toolkit ships); much faster than a pure-JS recover.
    const pub = secp256k1.ecdsaRecover(Bytes.fromHex(`0x${signature.slice(2, 130)}`), recid, Bytes.fromHex(digest), false)
    return Address.checksum(`0x${OxHex.fromBytes(Hash.keccak256(pub.slice(1))).slice(-40)}`)
  } catch {
    return null
  }
}
