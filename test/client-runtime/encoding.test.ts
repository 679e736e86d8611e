/**
 * The client runtime's encodings, run as the module they are (src/client-runtime/encoding.ts):
 * msgpack byte for byte against @msgpack/msgpack (smallest integer forms, str8, bin, key order),
 * toJson and parseJson against the toolkit's exact JSON (src/vectors/exact-json.ts), which reads
 * every number from its digits through lossless-json.
 */
import { encode } from '@msgpack/msgpack'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { integer, msgpack, parseJson, toJson } from '../../src/client-runtime/encoding.ts'
import { parseExactLossless, stringifyExact } from '../../src/vectors/exact-json.ts'
import { propertyRuns } from '../helpers/mutation.ts'
import { treeOf } from '../helpers/trees.ts'

const hex = (bytes: readonly number[] | Uint8Array) => Buffer.from(Uint8Array.from(bytes)).toString('hex')

function pack(value: unknown, at = 'action'): string {
  const out: number[] = []
  msgpack(value, out, at)
  return hex(out)
}

/** What @msgpack/msgpack writes once integers past 32 bits are bigints (its uint64/int64 then is the smallest form). */
function reference(value: unknown): string {
  const widen = (v: unknown): unknown => {
    if (typeof v === 'bigint') return v >= -0x80000000n && v <= 0xffffffffn ? Number(v) : v
    if (Array.isArray(v)) return v.map(widen)
    if (v instanceof Uint8Array || v === null || typeof v !== 'object') return v
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, widen(x)]))
  }
  return hex(encode(widen(value), { useBigInt64: true }))
}

const int64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 64n) - 1n })
const leaf = fc.oneof(
  int64,
  fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }),
  fc.boolean(),
  fc.constant(null),
)
const tree = treeOf(leaf)

describe('msgpack', () => {
  it('matches @msgpack/msgpack on trees of 64-bit integers, strings, byte arrays, booleans and null', () => {
    fc.assert(
      fc.property(tree, (v) => {
        expect(pack(v)).toBe(reference(v))
      }),
      { numRuns: propertyRuns(300), seed: 20261128 },
    )
  })

  it('writes each integer width at its boundary, both signs', () => {
    const edges = [0n, 127n, 128n, 255n, 256n, 65535n, 65536n, (1n << 32n) - 1n, 1n << 32n, (1n << 64n) - 1n]
    const negatives = [-1n, -32n, -33n, -128n, -129n, -32768n, -32769n, -(1n << 31n), -(1n << 31n) - 1n, -(1n << 63n)]
    for (const v of [...edges, ...negatives]) expect(pack(v), String(v)).toBe(reference(v))
  })

  it('writes str8, str16 and str32 headers by UTF-8 length', () => {
    for (const n of [31, 32, 255, 256, 65535, 65536])
      expect(pack('é'.repeat(n / 2) + 'a'.repeat(n % 2)).slice(0, 12)).toBe(reference('é'.repeat(n / 2) + 'a'.repeat(n % 2)).slice(0, 12))
  })

  it('writes fix, 16- and 32-bit headers of maps and arrays and the bin8/16/32 headers at their boundaries', () => {
    const map = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))
    for (const n of [15, 16, 65535, 65536]) {
      expect(pack(map(n)).slice(0, 10), `map of ${n}`).toBe(reference(map(n)).slice(0, 10))
      expect(pack(new Array(n).fill(true)), `array of ${n}`).toBe(reference(new Array(n).fill(true)))
    }
    for (const n of [0, 255, 256, 65535, 65536]) expect(pack(new Uint8Array(n)), `bin of ${n}`).toBe(reference(new Uint8Array(n)))
  })

  it('refuses what the venue cannot hash, naming the path', () => {
    expect(() => pack({ orders: [{ p: 1.5 }] })).toThrow(/^action\.orders\[0\]\.p must be an integer/)
    expect(() => pack(2 ** 53 + 2)).toThrow(/a bigint past 2\^53/)
    expect(() => pack(1n << 64n)).toThrow(/must be an integer in -9223372036854775808\.\.18446744073709551615/)
    expect(() => pack({ f: () => 1 })).toThrow(/^action\.f: a function cannot be hashed/)
    expect(() => pack(undefined)).toThrow(/a undefined cannot be hashed/)
  })

  it('leaves out undefined members, as JSON would', () => {
    expect(pack({ a: 1, b: undefined })).toBe(reference({ a: 1 }))
  })
})

describe('integer', () => {
  it('takes safe numbers and bigints in range and refuses the rest', () => {
    expect(integer(5, 'n')).toBe(5n)
    expect(integer(2n ** 64n - 1n, 'n')).toBe(2n ** 64n - 1n)
    expect(() => integer(-1, 'n')).toThrow(/^n must be an integer in 0\.\./)
    expect(() => integer('1', 'n')).toThrow(TypeError)
    expect(() => integer(1.5, 'n')).toThrow(TypeError)
  })
})

/** JSON values with integers anywhere in 64 bits and beyond: what the venue's bodies carry. */
const json = treeOf(
  fc.oneof(
    fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.boolean(),
    fc.constant(null),
  ),
  8,
)

/** A bigint that a number holds exactly reads back as that number, as both parsers give it. */
function normal(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v
  if (Array.isArray(v)) return v.map(normal)
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normal(x)]))
  return v
}

describe('toJson and parseJson', () => {
  it('toJson writes what the toolkit writes (integers as their digits, never through a double)', () => {
    fc.assert(
      fc.property(json, (v) => {
        expect(toJson(v)).toBe(stringifyExact(v))
      }),
      { numRuns: propertyRuns(300), seed: 20261128 },
    )
  })

  it('parseJson reads what the toolkit reads: integers past 2^53 exact, the rest as JSON.parse does', () => {
    fc.assert(
      fc.property(json, fc.boolean(), (v, spaced) => {
        const text = spaced ? stringifyExact(v, 2) : toJson(v)
        const mine = parseJson(text)
        expect(mine).toEqual(parseExactLossless(text))
        expect(mine).toEqual(normal(v))
      }),
      { numRuns: propertyRuns(300), seed: 20261128 },
    )
  })

  it('keeps digit runs inside strings, escaped quotes included, as text', () => {
    const text = '{"a":"9007199254740993 \\" 18446744073709551615","b":18446744073709551615,"c":[-9223372036854775808,1.5e3]}'
    expect(parseJson(text)).toEqual({
      a: '9007199254740993 " 18446744073709551615',
      b: 18446744073709551615n,
      c: [-9223372036854775808n, 1500],
    })
    expect(parseJson(text)).toEqual(parseExactLossless(text))
  })

  it('refuses text that is not JSON', () => {
    expect(() => parseJson('{"a":')).toThrow(SyntaxError)
    expect(() => parseJson('{"a":18446744073709551615,}')).toThrow(SyntaxError)
  })
})
