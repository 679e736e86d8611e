/** Lossless body parsing: exact numbers, duplicate keys, depth, the first offending field. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseBody, readUint64, type ParsedBodyOk } from '../../src/signing/index.ts'
import { nonceArb, UINT64_MAX } from './arbitraries.ts'
import { propertyRuns } from '../helpers/mutation.ts'

function ok(text: string): ParsedBodyOk {
  const r = parseBody(text)
  if (!r.ok) throw new Error(`expected ok: ${r.message}`)
  return r
}

describe('parseBody', () => {
  it('parses any JSON like JSON.parse (numbers as JS numbers) and records every number text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        const text = JSON.stringify(v)
        const r = ok(text)
        expect(r.value).toEqual(JSON.parse(text))
        // Each recorded number text parses back to the number at its pointer.
        for (const [pointer, raw] of r.numbers) {
          let node: unknown = r.value
          for (const t of pointer.split('/').slice(1)) node = (node as Record<string, unknown>)[t.replace(/~1/g, '/').replace(/~0/g, '~')]
          expect(node).toBe(Number(raw))
        }
      }),
      { numRuns: propertyRuns(400), seed: 20261123 },
    )
  })

  it('keeps every digit of uint64 nonces (2^53+1, 2^64-1 included)', () => {
    fc.assert(
      fc.property(nonceArb, (n) => {
        const r = ok(`{"wallet":"0x00","nonce":${n}}`)
        expect(r.numbers.get('/nonce')).toBe(String(n))
        expect(readUint64(r, '/nonce')).toEqual({ ok: true, value: n })
      }),
      { numRuns: propertyRuns(500), seed: 20261123 },
    )
  })

  it('readUint64 refuses strings, negatives, fractions, exponents and values above 2^64-1, naming the field', () => {
    const cases = ['"5"', '-1', '1.0', '1e3', '1E3', `${UINT64_MAX + 1n}`, '-0', 'null', 'true', '[1]']
    for (const c of cases) {
      const r = readUint64(ok(`{"nonce":${c}}`), '/nonce')
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.message).toMatch(/^nonce /)
    }
    expect(readUint64(ok('{}'), '/nonce')).toEqual({ ok: false, message: 'nonce is missing' })
    expect(readUint64(ok('{"a":{"b/c":7}}'), '/a/b~1c')).toEqual({ ok: true, value: 7n })
  })

  it('duplicate keys are invalid_field naming the key, even with equal values or escaped spellings', () => {
    for (const [text, key] of [
      ['{"nonce":1,"nonce":2}', 'nonce'],
      ['{"nonce":1,"nonce":1}', 'nonce'],
      ['{"price":"1","\\u0070rice":"1"}', 'price'],
      ['{"orders":[{"a":1},{"b":1,"b":1}]}', 'b'],
      ['{"x":{"y":{"z":0,"z":0}}}', 'z'],
    ] as const) {
      const r = parseBody(text)
      expect(r).toMatchObject({ ok: false, code: 'invalid_field', field: key })
    }
    // The same key in sibling objects is fine.
    expect(parseBody('[{"a":1},{"a":1}]').ok).toBe(true)
  })

  it('duplicate keys are found wherever a generator puts them', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 6 }),
        fc.nat(),
        (obj, pick) => {
          const keys = Object.keys(obj)
          const dup = keys[pick % keys.length]!
          const text = `${JSON.stringify(obj).slice(0, -1)},${JSON.stringify(dup)}:${JSON.stringify(obj[dup])}}`
          expect(parseBody(text)).toMatchObject({ ok: false, code: 'invalid_field', field: dup })
        },
      ),
      { numRuns: propertyRuns(300), seed: 20261123 },
    )
  })

  it('depth beyond maxDepth is invalid_field; hostile nesting does not overflow the stack', () => {
    expect(parseBody('['.repeat(32) + ']'.repeat(32)).ok).toBe(true)
    expect(parseBody('['.repeat(33) + ']'.repeat(33))).toMatchObject({ ok: false, code: 'invalid_field' })
    expect(parseBody('{"a":'.repeat(5) + '1' + '}'.repeat(5), { maxDepth: 4 })).toMatchObject({ ok: false, code: 'invalid_field' })
    expect(parseBody('['.repeat(200000))).toMatchObject({ ok: false, code: 'invalid_field' })
    // Brackets inside strings do not count.
    expect(parseBody(JSON.stringify({ s: '['.repeat(100) })).ok).toBe(true)
  })

  it('non-JSON is invalid_json with a one-line message', () => {
    for (const t of ['', 'nope', '{"a":', '{"a":1,}', "{'a':1}", '{"a":1} x', '\u0000']) {
      const r = parseBody(t)
      expect(r).toMatchObject({ ok: false, code: 'invalid_json', field: null })
      if (!r.ok) expect(r.message).not.toContain('\n')
    }
  })
})

describe('"__proto__" is data', () => {
  it('parseBody keeps a "__proto__" key as an own property', () => {
    const r = parseBody('{"__proto__":{"polluted":1},"nonce":1}')
    if (!r.ok) throw new Error(r.message)
    const v = r.value as Record<string, unknown>
    expect(Object.keys(v)).toEqual(['__proto__', 'nonce'])
    expect(v.polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(r.numbers.get('/__proto__/polluted')).toBe('1')
  })
})
