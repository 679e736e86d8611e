/** Small hex helpers with the validation every signing entry point shares. */
import { SigningInputError, type Hex } from './types.ts'

const HEX_RE = /^0x[0-9a-fA-F]*$/

export function isHex(value: unknown, bytes?: number): value is Hex {
  if (typeof value !== 'string' || !HEX_RE.test(value) || value.length % 2 !== 0) return false
  return bytes === undefined || value.length === 2 + bytes * 2
}

export function toHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`
}

export function hexBytes(value: Hex): Buffer {
  return Buffer.from(value.slice(2), 'hex')
}

/** A private key as 32 bytes, or a one-line error that never echoes the key itself. */
export function privateKeyBytes(key: unknown, isValid: (k: Uint8Array) => boolean): Buffer {
  if (typeof key !== 'string')
    throw new SigningInputError(`privateKey must be a 0x-prefixed hex string of 32 bytes, got ${typeOf(key)}`, 'privateKey')
  if (!/^0x[0-9a-fA-F]*$/.test(key)) throw new SigningInputError('privateKey is not 0x-prefixed hex', 'privateKey')
  if (key.length !== 66) {
    const n = (key.length - 2) / 2
    throw new SigningInputError(
      `privateKey must be 32 bytes (64 hex digits), got ${Number.isInteger(n) ? `${n} byte${n === 1 ? '' : 's'}` : `${key.length - 2} hex digits`}`,
      'privateKey',
    )
  }
  const bytes = Buffer.from(key.slice(2), 'hex')
  if (!isValid(bytes))
    throw new SigningInputError('privateKey is not a valid secp256k1 key (zero or not below the curve order)', 'privateKey')
  return bytes
}

export function typeOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  return typeof v
}
