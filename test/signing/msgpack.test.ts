/** The venue-compatible msgpack encoder: smallest integer forms, key order, str8, no floats. */
import { encode } from '@msgpack/msgpack'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { perpActionHash, perpMsgpack, SigningInputError } from '../../src/signing/index.ts'
import { propertyRuns } from '../helpers/mutation.ts'
import { treeOf } from '../helpers/trees.ts'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

describe('perp msgpack', () => {
  it('encodes integers in their smallest form (as Python msgpack.packb does)', () => {
    const cases: [number | bigint, string][] = [
      [0, '00'],
      [127, '7f'],
      [128, 'cc80'],
      [255, 'ccff'],
      [256, 'cd0100'],
      [65536, 'ce00010000'],
      [2 ** 32, 'cf0000000100000000'],
      [(1n << 64n) - 1n, 'cfffffffffffffffff'],
      [-1, 'ff'],
      [-32, 'e0'],
      [-33, 'd0df'],
      [-129, 'd1ff7f'],
      [-32769, 'd2ffff7fff'],
      [-(2 ** 31) - 1, 'd3ffffffff7fffffff'],
    ]
    for (const [v, want] of cases) expect(hex(perpMsgpack(v))).toBe(want)
  })

  it('strings: fixstr below 32 bytes, then str8 / str16 (UTF-8 length)', () => {
    expect(hex(perpMsgpack('a'.repeat(31))).slice(0, 2)).toBe('bf')
    expect(hex(perpMsgpack('a'.repeat(32))).slice(0, 4)).toBe('d920')
    expect(hex(perpMsgpack('é'.repeat(20))).slice(0, 4)).toBe('d928')
    expect(hex(perpMsgpack('a'.repeat(256))).slice(0, 6)).toBe('da0100')
  })

  it('keeps key insertion order: a re-ordered action hashes differently', () => {
    const a = { type: 'order', orders: [{ a: 1, b: true, p: '1', s: '1', r: false, t: { limit: { tif: 'Gtc' } } }], grouping: 'na' }
    const b = { grouping: 'na', type: 'order', orders: a.orders }
    expect(perpActionHash({ action: a, nonce: 1n })).not.toBe(perpActionHash({ action: b, nonce: 1n }))
  })

  it('matches @msgpack/msgpack on integer/string/bool/null trees', () => {
    const leaf = fc.oneof(
      fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.boolean(),
      fc.constant(null),
    )
    const tree = treeOf(leaf)
    fc.assert(
      fc.property(tree, (v) => {
        expect(hex(perpMsgpack(v))).toBe(hex(encode(v)))
      }),
      { numRuns: propertyRuns(200), seed: 20261123 },
    )
  })

  it('refuses floats and other values with the path to them', () => {
    expect(() => perpMsgpack({ orders: [{ p: 1.5 }] })).toThrow(SigningInputError)
    expect(() => perpMsgpack({ orders: [{ p: 1.5 }] })).toThrow(/action\.orders\[0\]\.p: 1\.5 is not an integer/)
    expect(() => perpMsgpack({ f: () => 1 })).toThrow(/action\.f/)
    expect(() => perpMsgpack(1n << 64n)).toThrow(/64 bits/)
  })
})
