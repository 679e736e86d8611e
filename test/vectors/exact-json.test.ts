/**
 * `parseExact` (native JSON.parse when a round trip through JSON.stringify, compact or with the
 * generator's two-space indent, proves nothing was lost) against `parseExactLossless`, which reads
 * every number from its digits with lossless-json: the same tree (integers past 2^53 as bigints,
 * keys in order, `__proto__` as data) or the same error, on texts built token by token and on
 * texts laid out exactly as the vector generator writes them.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseExact, parseExactLossless, stringifyExact } from '../../src/vectors/exact-json.ts'
import { loadVectorFiles, vectorFileNames } from '../../src/vectors/load.ts'
import { DEFAULT_VECTORS_DIR } from '../../src/vectors/paths.ts'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { propertyRuns } from '../helpers/mutation.ts'
import { nodeArb, outcome, shape, styleArb, write, type Node } from '../signing/json-text.ts'

/** The node's own tokens in JSON.stringify's two-space layout: the fast path's shape, any token. */
function writeIndented(n: Node, depth = 0): string {
  if (n.t === 'raw') return n.text
  const items =
    n.t === 'arr'
      ? n.items.map((x) => writeIndented(x, depth + 1))
      : n.entries.map(([k, v]) => `${JSON.stringify(k)}: ${writeIndented(v, depth + 1)}`)
  const [open, close] = n.t === 'arr' ? ['[', ']'] : ['{', '}']
  if (items.length === 0) return `${open}${close}`
  const inner = '  '.repeat(depth + 1)
  return `${open}\n${inner}${items.join(`,\n${inner}`)}\n${'  '.repeat(depth)}${close}`
}

describe('parseExact', () => {
  it('gives the lossless tree or its exact error on any text, in any layout', () => {
    fc.assert(
      fc.property(nodeArb, styleArb, fc.boolean(), (node, style, indented) => {
        const text = indented ? `${writeIndented(node)}\n` : write(node, style)
        expect(outcome(parseExact, text)).toEqual(outcome(parseExactLossless, text))
      }),
      { numRuns: propertyRuns(3000), seed: 20261123 },
    )
  })

  it('reads back what the generator writes, bigints included', () => {
    fc.assert(
      fc.property(nodeArb, (node) => {
        let tree: unknown
        try {
          tree = parseExactLossless(write(node, { comma: ',', colon: ':', pad: '' }))
        } catch {
          return // not JSON (a repeated key): nothing to write back
        }
        const text = `${stringifyExact(tree, 2)}\n`
        expect(outcome(parseExact, text)).toEqual(outcome(parseExactLossless, text))
        // What is read writes back byte for byte: bigints stayed bigints (-0 was written as 0).
        expect(`${stringifyExact(parseExact(text), 2)}\n`).toBe(text)
      }),
      { numRuns: propertyRuns(2000), seed: 20261124 },
    )
  })

  it('keeps what a double cannot, in either layout', () => {
    // 2^60 is a double exactly and JSON.stringify writes it back digit for digit: still a bigint.
    for (const text of [
      '{"id":1152921504606846976}',
      '{\n  "id": 1152921504606846976\n}\n',
      '[18446744073709551615]',
      '{"a":-0}',
      '{"a":1.0}',
    ]) {
      expect(outcome(parseExact, text)).toEqual(outcome(parseExactLossless, text))
    }
    expect(parseExact('{\n  "id": 1152921504606846976\n}\n')).toEqual({ id: 1152921504606846976n })
    expect(() => parseExact('{\n  "a": 1,\n  "a": 2\n}\n')).toThrow(/Duplicate key 'a'/)
    expect(() => parseExact('{"a":')).toThrow()
  })

  it('reads every shipped vector file as lossless-json does', () => {
    const names = vectorFileNames()
    expect(names.length).toBeGreaterThan(5)
    for (const name of names) {
      const text = readFileSync(join(DEFAULT_VECTORS_DIR, name), 'utf8')
      expect(shape(parseExact(text)), name).toEqual(shape(parseExactLossless(text)))
    }
    expect(loadVectorFiles().length).toBe(names.length)
  })
})
