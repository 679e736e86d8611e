/**
 * MessagePack exactly as the perpetuals venue's reference SDKs produce it (Python
 * `msgpack.packb`): integers in their smallest form, map keys in insertion order, strings as
 * fixstr/str8/str16/str32, no floats (prices and sizes travel as strings).
 *
 * The encoder is the generated client's own (src/client-runtime/encoding.ts): one implementation
 * for both, held byte-equal to `@msgpack/msgpack` by the tests. This module only prepares the
 * value: lossless-json numbers are read exactly, and a float or an unsupported value is refused
 * with the path to it as a SigningInputError, never silently encoded differently.
 */
import { msgpack } from '../client-runtime/encoding.ts'
import { SigningInputError } from './types.ts'

const I64_MIN = -(1n << 63n)
const U64_MAX = (1n << 64n) - 1n

function integer(v: bigint, path: string): number | bigint {
  if (v < I64_MIN || v > U64_MAX) throw new SigningInputError(`${path}: integer ${v} does not fit in 64 bits`, path)
  return v >= -0x80000000n && v <= 0xffffffffn ? Number(v) : v
}

function prepare(v: unknown, path: string): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || v instanceof Uint8Array) return v
  if (typeof v === 'bigint') return integer(v, path)
  if (typeof v === 'number') {
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
      throw new SigningInputError(`${path}: ${v} is past 2^53 as a JS number and may have lost digits; pass it as a bigint`, path)
    }
    if (!Number.isSafeInteger(v)) {
      throw new SigningInputError(
        `${path}: ${v} is not an integer; the venue's encoding has no floats (send prices and sizes as strings)`,
        path,
      )
    }
    return integer(BigInt(v), path)
  }
  if (Array.isArray(v)) return v.map((item, i) => prepare(item, `${path}[${i}]`))
  if (typeof v === 'object') {
    // A lossless-json number that reached here must be an integer.
    if ((v as { isLosslessNumber?: unknown }).isLosslessNumber === true) {
      const text = String((v as { value: unknown }).value)
      if (!/^-?(0|[1-9][0-9]*)$/.test(text))
        throw new SigningInputError(`${path}: ${text} is not an integer; the venue's encoding has no floats`, path)
      return integer(BigInt(text), path)
    }
    // Key order is the object's own order. (JavaScript puts integer-like keys first; the venue's
    // actions have none.) A null prototype keeps a "__proto__" key as data.
    const out: Record<string, unknown> = Object.create(null)
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x !== undefined) out[k] = prepare(x, `${path}.${k}`)
    }
    return out
  }
  throw new SigningInputError(`${path}: a ${typeof v} cannot be encoded in the venue's msgpack`, path)
}

/** Encodes `v` (path names the root in error messages). */
export function packb(v: unknown, path = 'action'): Uint8Array {
  const out: number[] = []
  msgpack(prepare(v, path), out, path)
  return new Uint8Array(out)
}
