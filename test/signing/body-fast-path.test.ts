/**
 * parseBody's fast path (native JSON.parse when a round trip proves nothing was lost) against
 * its lossless-json path: the same verdict, the same plain value, the same number texts by
 * pointer, the same refusals (duplicate keys, depth), on texts that vary token by token.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { propertyRuns } from '../helpers/mutation.ts'
import { parseBody, type ParsedBody } from '../../src/signing/index.ts'
import { nodeArb, styleArb, write } from './json-text.ts'

/** A parse result as data: own keys in order (`__proto__` included), prototypes named. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return { a: v.map(shape) }
  if (v !== null && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v) === Object.prototype ? 'Object' : 'other'
    return { o: Object.keys(v).map((k) => [k, shape((v as Record<string, unknown>)[k])]), proto }
  }
  return { v: Object.is(v, -0) ? '-0' : v }
}

function outcome(r: ParsedBody): unknown {
  return r.ok ? { value: shape(r.value), numbers: [...r.numbers] } : r
}

const both = (text: string, maxDepth: number) => {
  const fast = outcome(parseBody(text, { maxDepth }))
  const lossless = outcome(parseBody(text, { maxDepth, fastPath: false }))
  expect(fast).toEqual(lossless)
}

describe('parseBody fast path', () => {
  it('agrees with the lossless path on texts varied token by token', () => {
    fc.assert(
      fc.property(nodeArb, styleArb, fc.integer({ min: 1, max: 5 }), (node, style, maxDepth) => {
        both(`${style.pad}${write(node, style)}${style.pad}`, maxDepth)
      }),
      { numRuns: propertyRuns(3000), seed: 20261123 },
    )
  })

  it('agrees on canonical texts (the fast path taken), at every depth limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 1, max: 8 }), (v, maxDepth) => {
        both(JSON.stringify(v), maxDepth)
      }),
      { numRuns: propertyRuns(2000), seed: 20261123 },
    )
  })

  it('keeps the digits of a signed body and refuses its duplicate keys on either path', () => {
    const body = '{"wallet":"0x00","nonce":18446744073709551615,"size":"1"}'
    for (const fastPath of [true, false]) {
      const r = parseBody(body, { fastPath })
      expect(r.ok && r.numbers.get('/nonce')).toBe('18446744073709551615')
      expect(parseBody('{"nonce":1,"nonce":1}', { fastPath })).toMatchObject({ ok: false, code: 'invalid_field', field: 'nonce' })
      expect(parseBody('[[[1]]]', { maxDepth: 2, fastPath })).toMatchObject({ ok: false, code: 'invalid_field' })
    }
    const canonical = parseBody('{"nonce":42,"a":[1.5,{"b/c":-3}]}')
    expect(canonical.ok && [...canonical.numbers]).toEqual([
      ['/nonce', '42'],
      ['/a/0', '1.5'],
      ['/a/1/b~1c', '-3'],
    ])
  })
})
