/** The msgpack preparation's edges: 32/64-bit boundaries, refusals with their path, lossless numbers, undefined keys. */
import { isLosslessNumber, parse } from 'lossless-json'
import { describe, expect, it } from 'vitest'
import { packb } from '../../src/signing/msgpack.ts'
import { SigningInputError } from '../../src/signing/types.ts'

const hex = (v: unknown, path?: string) => Buffer.from(packb(v, path)).toString('hex')
const refusal = (v: unknown, path?: string): [string, string | null] => {
  try {
    packb(v, path)
  } catch (err) {
    if (!(err instanceof SigningInputError)) throw err
    return [err.message, err.field]
  }
  return ['no error', null]
}

describe('packb', () => {
  it('integers at the 32-bit and 64-bit edges, as numbers and as bigints', () => {
    expect(hex(0xffffffffn)).toBe('ceffffffff')
    expect(hex(0x100000000n)).toBe('cf0000000100000000')
    expect(hex(-0x80000000n)).toBe('d280000000')
    expect(hex(-0x80000001n)).toBe('d3ffffffff7fffffff')
    expect(hex(-(1n << 63n))).toBe('d38000000000000000')
    expect(hex((1n << 64n) - 1n)).toBe('cfffffffffffffffff')
    expect(hex(2 ** 53 - 1)).toBe('cf001fffffffffffff')
    expect(hex(-(2 ** 53 - 1))).toBe('d3ffe0000000000001')
    expect(hex(Number.MAX_SAFE_INTEGER)).toBe(hex(BigInt(Number.MAX_SAFE_INTEGER)))
  })

  it('refuses, naming the path: too wide, unsafe or fractional numbers, floats in lossless text, other types', () => {
    expect(refusal(1n << 64n)).toEqual(['action: integer 18446744073709551616 does not fit in 64 bits', 'action'])
    expect(refusal(-(1n << 63n) - 1n)).toEqual(['action: integer -9223372036854775809 does not fit in 64 bits', 'action'])
    expect(refusal({ a: [1, 2 ** 53] })).toEqual([
      'action.a[1]: 9007199254740992 is past 2^53 as a JS number and may have lost digits; pass it as a bigint',
      'action.a[1]',
    ])
    expect(refusal({ px: 1.5 })).toEqual([
      "action.px: 1.5 is not an integer; the venue's encoding has no floats (send prices and sizes as strings)",
      'action.px',
    ])
    expect(refusal(Number.NaN, 'x')).toEqual([
      "x: NaN is not an integer; the venue's encoding has no floats (send prices and sizes as strings)",
      'x',
    ])
    expect(refusal({ f: () => 1 })).toEqual(["action.f: a function cannot be encoded in the venue's msgpack", 'action.f'])
    expect(refusal(undefined)).toEqual(["action: a undefined cannot be encoded in the venue's msgpack", 'action'])
    expect(refusal(Symbol('s'))).toEqual(["action: a symbol cannot be encoded in the venue's msgpack", 'action'])
  })

  it('lossless-json numbers: integers exactly, anything else refused', () => {
    const doc = parse('{"big":18446744073709551615,"small":7,"neg":-3,"f":1.5,"e":1e3,"z":-0}') as Record<string, unknown>
    expect(isLosslessNumber(doc.big)).toBe(true)
    expect(hex(doc.big)).toBe('cfffffffffffffffff')
    expect(hex(doc.small)).toBe('07')
    expect(hex(doc.neg)).toBe('fd')
    expect(hex(doc.z)).toBe('00')
    expect(refusal(doc.f)).toEqual(["action: 1.5 is not an integer; the venue's encoding has no floats", 'action'])
    expect(refusal(doc.e)).toEqual(["action: 1e3 is not an integer; the venue's encoding has no floats", 'action'])
    // An object that merely has a value is a map, not a number.
    expect(hex({ value: 1 })).toBe('81a576616c756501')
    expect(hex({ isLosslessNumber: 'yes', value: 1 })).toBe('82b069734c6f73736c6573734e756d626572a3796573a576616c756501')
  })

  it('maps keep key order, skip undefined values and keep "__proto__" as a key; bytes and null pass through', () => {
    expect(hex({ b: 1, a: 2 })).toBe('82a16201a16102')
    expect(hex({ a: 1, u: undefined, c: null })).toBe('82a16101a163c0')
    expect(hex(JSON.parse('{"__proto__":1}'))).toBe('81a95f5f70726f746f5f5f01')
    expect(hex(Uint8Array.from([1, 2]))).toBe('c4020102')
    expect(hex([true, false, null, 'x'])).toBe('94c3c2c0a178')
  })
})
