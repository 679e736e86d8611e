/**
 * MessagePack exactly as the perpetuals venue's reference SDKs produce it (Python
 * `msgpack.packb`): integers in their smallest form, map keys in insertion order, strings as
 * fixstr/str8/str16/str32, no floats (prices and sizes travel as strings). A float or an
 * unsupported value is refused with the path to it, never silently encoded differently.
 */
import { SigningInputError } from './types.ts'

class Writer {
  buf = Buffer.allocUnsafe(256)
  len = 0
  ensure(n: number): void {
    if (this.len + n <= this.buf.length) return
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n))
    this.buf.copy(next, 0, 0, this.len)
    this.buf = next
  }
  u8(v: number): void {
    this.ensure(1)
    this.buf[this.len++] = v
  }
  head(tag: number, v: number, bytes: 1 | 2 | 4): void {
    this.ensure(1 + bytes)
    this.buf[this.len++] = tag
    if (bytes === 1) this.buf.writeUInt8(v, this.len)
    else if (bytes === 2) this.buf.writeUInt16BE(v, this.len)
    else this.buf.writeUInt32BE(v, this.len)
    this.len += bytes
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length)
    this.buf.set(b, this.len)
    this.len += b.length
  }
}

const I64_MIN = -(1n << 63n)
const U64_MAX = (1n << 64n) - 1n

function int(w: Writer, v: bigint, path: string): void {
  if (v >= 0n) {
    if (v <= 0x7fn) w.u8(Number(v))
    else if (v <= 0xffn) w.head(0xcc, Number(v), 1)
    else if (v <= 0xffffn) w.head(0xcd, Number(v), 2)
    else if (v <= 0xffffffffn) w.head(0xce, Number(v), 4)
    else if (v <= U64_MAX) {
      w.ensure(9)
      w.buf[w.len++] = 0xcf
      w.buf.writeBigUInt64BE(v, w.len)
      w.len += 8
    } else throw new SigningInputError(`${path}: integer ${v} does not fit in 64 bits`, path)
    return
  }
  if (v >= -32n) w.u8(Number(v) & 0xff)
  else if (v >= -0x80n) {
    w.ensure(2)
    w.buf[w.len++] = 0xd0
    w.buf.writeInt8(Number(v), w.len++)
  } else if (v >= -0x8000n) {
    w.ensure(3)
    w.buf[w.len++] = 0xd1
    w.buf.writeInt16BE(Number(v), w.len)
    w.len += 2
  } else if (v >= -0x80000000n) {
    w.ensure(5)
    w.buf[w.len++] = 0xd2
    w.buf.writeInt32BE(Number(v), w.len)
    w.len += 4
  } else if (v >= I64_MIN) {
    w.ensure(9)
    w.buf[w.len++] = 0xd3
    w.buf.writeBigInt64BE(v, w.len)
    w.len += 8
  } else throw new SigningInputError(`${path}: integer ${v} does not fit in 64 bits`, path)
}

function str(w: Writer, s: string): void {
  const b = Buffer.from(s, 'utf8')
  const n = b.length
  if (n < 32) w.u8(0xa0 | n)
  else if (n <= 0xff) w.head(0xd9, n, 1)
  else if (n <= 0xffff) w.head(0xda, n, 2)
  else w.head(0xdb, n, 4)
  w.bytes(b)
}

function container(w: Writer, n: number, fix: number, t16: number, t32: number): void {
  if (n < 16) w.u8(fix | n)
  else if (n <= 0xffff) w.head(t16, n, 2)
  else w.head(t32, n, 4)
}

function value(w: Writer, v: unknown, path: string): void {
  if (v === null) return w.u8(0xc0)
  switch (typeof v) {
    case 'boolean':
      return w.u8(v ? 0xc3 : 0xc2)
    case 'string':
      return str(w, v)
    case 'bigint':
      return int(w, v, path)
    case 'number':
      if (!Number.isSafeInteger(v)) {
        throw new SigningInputError(`${path}: ${v} is not an integer; the venue's encoding has no floats (send prices and sizes as strings)`, path)
      }
      return int(w, BigInt(v), path)
    case 'object': {
      if (v instanceof Uint8Array) {
        const n = v.length
        if (n <= 0xff) w.head(0xc4, n, 1)
        else if (n <= 0xffff) w.head(0xc5, n, 2)
        else w.head(0xc6, n, 4)
        return w.bytes(v)
      }
      if (Array.isArray(v)) {
        container(w, v.length, 0x90, 0xdc, 0xdd)
        v.forEach((item, i) => value(w, item, `${path}[${i}]`))
        return
      }
      // A lossless-json number that reached here must be an integer.
      if ((v as { isLosslessNumber?: unknown }).isLosslessNumber === true) {
        const text = String((v as { value: unknown }).value)
        if (!/^-?(0|[1-9][0-9]*)$/.test(text)) throw new SigningInputError(`${path}: ${text} is not an integer; the venue's encoding has no floats`, path)
        return int(w, BigInt(text), path)
      }
      const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined)
      container(w, entries.length, 0x80, 0xde, 0xdf)
      for (const [k, x] of entries) {
        str(w, k)
        value(w, x, `${path}.${k}`)
      }
      return
    }
    default:
      throw new SigningInputError(`${path}: a ${typeof v} cannot be encoded in the venue's msgpack`, path)
  }
}

/** Encodes `v` (path names the root in error messages). */
export function packb(v: unknown, path = 'action'): Buffer {
  const w = new Writer()
  value(w, v, path)
  return w.buf.subarray(0, w.len)
}
