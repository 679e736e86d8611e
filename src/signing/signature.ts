/**
 * The one place that knows a secp256k1 signature's encodings: r ‖ s ‖ v split and joined, the
 * v forms (27/28 and 0/1), the curve order and the high-s (malleable) twin, signing a digest
 * and recovering its signer. Signer, server, vectors and runner all go through here.
 */
import { keccak256, onCryptoBackendChange, cryptoBackend } from './crypto.ts'
import { privateKeyBytes, toHex, typeOf } from './hex.ts'
import type { Hex, VerifyResult } from './types.ts'

/** The order of the secp256k1 group. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
/** The largest low-s value: s above it is the malleable twin of n - s. */
export const HALF_N = SECP256K1_N >> 1n

const N_HEX = SECP256K1_N.toString(16).padStart(64, '0')
const HALF_N_HEX = HALF_N.toString(16).padStart(64, '0')
const ZERO_HEX = '0'.repeat(64)
export const SIGNATURE_RE = /^0x[0-9a-fA-F]{130}$/
const HEX_RE = /^0x[0-9a-fA-F]*$/

/** SIGNATURE_RE's test, at a third of its cost on the verify path (V8 runs `{130}` as a counted loop). */
function isSignatureText(s: string): boolean {
  return s.length === 132 && HEX_RE.test(s)
}

export interface SignatureParts {
  readonly r: Hex
  readonly s: Hex
  readonly v: number
}

/** r, s (32 bytes each) and v of a 65-byte `0x` signature; no validation beyond slicing. */
export function splitSignature(sig: string): SignatureParts {
  const h = sig.slice(2)
  return { r: `0x${h.slice(0, 64)}`, s: `0x${h.slice(64, 128)}`, v: parseInt(h.slice(128, 130), 16) }
}

/** `0x` r ‖ s ‖ v, r and s left-padded to 32 bytes. */
export function joinSignature(r: bigint | string, s: bigint | string, v: number): Hex {
  const hex32 = (x: bigint | string) => (typeof x === 'bigint' ? x.toString(16) : x.replace(/^0x/, '')).padStart(64, '0')
  return `0x${hex32(r)}${hex32(s)}${v.toString(16).padStart(2, '0')}`
}

/** The same signature with v written as 0/1 (`to: 'raw'`) or 27/28 (`to: 'eth'`). */
export function withVForm(sig: string, to: 'raw' | 'eth'): Hex {
  const { r, s, v } = splitSignature(sig)
  const recid = v >= 27 ? v - 27 : v
  return joinSignature(r, s, to === 'raw' ? recid : recid + 27)
}

/** The malleable twin: s → n - s with the recovery id flipped. Recovers to the same signer. */
export function highSTwin(sig: string): Hex {
  const { r, s, v } = splitSignature(sig)
  const flipped = v === 27 ? 28 : v === 28 ? 27 : v === 0 ? 1 : 0
  return joinSignature(r, SECP256K1_N - BigInt(s), flipped)
}

export function isHighS(s: bigint): boolean {
  return s > HALF_N
}

/** Why a signature string is not `0x` + 130 hex digits, in words. */
export function malformedSignatureReason(signature: unknown): string | null {
  if (typeof signature === 'string' && isSignatureText(signature)) return null
  if (typeof signature !== 'string') return typeOf(signature)
  if (!signature.startsWith('0x')) return 'no 0x prefix'
  if (!HEX_RE.test(signature)) return 'non-hex characters'
  return `${signature.length - 2} hex digits`
}

/** r ‖ s ‖ v (v 27/28) from a 32-byte digest and a private key, RFC 6979, low-s. */
export function signDigest(digest: Uint8Array, key: unknown): { signature: Hex; r: Hex; s: Hex; v: 27 | 28 } {
  const secp = cryptoBackend().secp
  const k = privateKeyBytes(key, (b) => secp.privateKeyVerify(b))
  const { signature, recid } = secp.ecdsaSign(digest, k)
  const sig = Buffer.from(signature.buffer, signature.byteOffset, 64).toString('hex')
  const v = (27 + recid) as 27 | 28
  return { signature: `0x${sig}${v.toString(16)}`, r: `0x${sig.slice(0, 64)}`, s: `0x${sig.slice(64)}`, v }
}

/** The checksummed address of a 65-byte uncompressed public key. */
export function addressOfPublicKey(pub: Uint8Array): Hex {
  const hash = keccak256(pub.subarray(1))
  return checksum(hash.toString('hex', 12))
}

// Signers repeat (a wallet signs many orders): their EIP-55 form is memoised, bounded.
let checksumCache = new Map<string, Hex>()
onCryptoBackendChange(() => {
  checksumCache = new Map()
})

/** EIP-55 checksum of 40 lowercase hex digits. */
export function checksum(lower: string): Hex {
  let out = checksumCache.get(lower)
  if (out === undefined) {
    out = computeChecksum(lower)
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the memo bound; the checksum is the same whether or when the memo is cleared
    if (checksumCache.size >= 4096) checksumCache = new Map()
    checksumCache.set(lower, out)
  }
  return out
}

function computeChecksum(lower: string): Hex {
  const h = keccak256(Buffer.from(lower, 'latin1'))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const c = lower[i]!
    const nibble = (h[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nibble >= 8 ? c.toUpperCase() : c
  }
  return out as Hex
}

const recoverOut = new Uint8Array(65)

// The same signed bytes are verified more than once: a replay, a retry with the same nonce, or
// the explorer's target and oracle in one process. Recovery is a pure function of digest and
// signature and the server's dominant cost, so its result is memoised, bounded.
type Recovered = { ok: true; signer: Hex } | { ok: false; message: string }
let recoverCache = new Map<string, Recovered>()
onCryptoBackendChange(() => {
  recoverCache = new Map()
})

function recoverMemo(digest: Buffer, digestHex: string, r: string, s: string, recid: number): Recovered {
  const key = digestHex + r + s + recid
  let out = recoverCache.get(key)
  if (out === undefined) {
    try {
      const pub = cryptoBackend().secp.ecdsaRecover(Buffer.from(r + s, 'hex'), recid, digest, false, recoverOut)
      out = { ok: true, signer: addressOfPublicKey(pub) }
    } catch (err) {
      out = { ok: false, message: err instanceof Error ? err.message : String(err) }
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the memo bound; the signer is the same whether or when the memo is cleared
    if (recoverCache.size >= 8192) recoverCache = new Map()
    recoverCache.set(key, out)
  }
  return out
}

/**
 * Recovers the signer of a digest from r/s (64 hex digits each, lowercase or not) and v.
 * Synchronous and total: every failure is a typed result.
 */
export function recoverDigest(digest: Buffer, rHex: string, sHex: string, v: number, allowHighS: boolean): VerifyResult {
  const digestHex = toHex(digest)
  let recid: number
  if (v === 27 || v === 28) recid = v - 27
  else if (v === 0 || v === 1) recid = v
  else return { ok: false, digest: digestHex, reason: 'bad_v', message: `signature v must be 27 or 28 (or 0/1), got ${v}` }
  const r = rHex.toLowerCase()
  const s = sHex.toLowerCase()
  // Fixed-width lowercase hex compares like the numbers it encodes.
  if (r === ZERO_HEX || s === ZERO_HEX || r >= N_HEX || s >= N_HEX) {
    return { ok: false, digest: digestHex, reason: 'unrecoverable', message: 'signature r or s is zero or not below the curve order' }
  }
  if (!allowHighS && s > HALF_N_HEX) {
    return {
      ok: false,
      digest: digestHex,
      reason: 'high_s',
      message: 'signature s is in the upper half of the curve order (malleable high-s form)',
    }
  }
  const got = recoverMemo(digest, digestHex, r, s, recid)
  if (got.ok) return { ok: true, signer: got.signer, digest: digestHex }
  return { ok: false, digest: digestHex, reason: 'unrecoverable', message: `no public key recovers from this signature (${got.message})` }
}

/** Recovers from a 65-byte `0x` signature string; a malformed string is a typed failure. */
export function recoverSignature(digest: Buffer, signature: unknown, allowHighS: boolean): VerifyResult {
  const why = malformedSignatureReason(signature)
  if (why !== null)
    return {
      ok: false,
      digest: toHex(digest),
      reason: 'malformed_signature',
      message: `signature must be 0x + 130 hex digits (r ‖ s ‖ v), got ${why}`,
    }
  const sig = signature as string
  return recoverDigest(digest, sig.slice(2, 66), sig.slice(66, 130), parseInt(sig.slice(130, 132), 16), allowHighS)
}
