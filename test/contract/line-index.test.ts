/**
 * The js-yaml line index (src/contract/line-index.ts) against the `yaml` package's tree, the
 * locator it replaces: the same line for every pointer of generated documents in block, flow and
 * JSON layouts, and of a public spec; a path it cannot match (through an empty sequence item) has no
 * answer and the locator still answers through the tree.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { lineIndex } from '../../src/contract/line-index.ts'
import { lineLocator, parseSpecText, pointerTokens, toPointer } from '../../src/contract/source.ts'
import { ROOT } from '../helpers/cli.ts'

function pointers(value: unknown, tokens: string[] = [], out: string[] = []): string[] {
  out.push(toPointer(tokens))
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) pointers(v, [...tokens, k], out)
  }
  return out
}

/** Every pointer of the text, and some that are not there: the index's line equals the tree's. */
function expectSameLines(text: string): void {
  const index = lineIndex(text)
  expect(index).toBeDefined()
  const tree = parseSpecText(text, 'doc.yaml')
  for (const p of [...pointers(tree.doc), '/nope', '/0/missing/deeper']) {
    expect([p, index!(pointerTokens(p))]).toEqual([p, tree.lineOf(p)])
  }
}

// Keys that YAML reads as something else unless quoted (numbers, booleans, null, `-`, `?`...)
// exercise the matching of keys to the values js-yaml built.
const key = fc.oneof(
  fc.string({ minLength: 1, maxLength: 6 }),
  fc.constantFrom('200', '404', 'default', 'true', 'null', '~', '1.5', '-', 'a/b', 'x~y', '$ref', 'b'),
)
const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom('b', 'default'))
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
}))
const docArb = fc.dictionary(key, value, { minKeys: 1, maxKeys: 6 })

describe('line index', () => {
  it('agrees with the yaml tree on block-style documents', () => {
    fc.assert(
      fc.property(docArb, (doc) => expectSameLines(stringify(doc))),
      { numRuns: 300 },
    )
  })

  it('agrees with the yaml tree on flow-style and JSON documents', () => {
    fc.assert(
      fc.property(docArb, fc.boolean(), (doc, json) =>
        expectSameLines(json ? JSON.stringify(doc, null, 2) : stringify(doc, { collectionStyle: 'flow', lineWidth: 20 })),
      ),
      { numRuns: 200 },
    )
  })

  it('gives a key without a value, and a value that spells the next key, their own lines', () => {
    const text = 'a:\nb: 1\nc: d\nd:\n  - x\n  - null\n  - e: f\n'
    expectSameLines(text)
    const index = lineIndex(text)!
    expect([index(['b']), index(['d']), index(['d', '1']), index(['d', '2', 'e'])]).toEqual([2, 4, 6, 7])
  })

  it('agrees with the yaml tree on a public spec', () => {
    const text = gunzipSync(readFileSync(join(ROOT, 'test/fixtures/public-openapi/corpus/twilio-conversations/head.yaml.gz'))).toString()
    expectSameLines(text)
  })

  it('has no answer through a sequence with an item left empty (js-yaml reads no node for it); the locator then answers from the yaml tree', () => {
    const text = 'a: 1\nd:\n  - x\n  -\n  - e: f\n'
    const index = lineIndex(text)!
    expect([index(['a']), index(['d']), index(['d', '2', 'e'])]).toEqual([1, 2, undefined])
    expect(lineLocator(text)('/d/2/e')).toBe(5)
  })

  it('spells a pointer that reads back as its tokens (`~` and `/` escaped, RFC 6901)', () => {
    expect(toPointer(['paths', '/pets/{id}', 'a~b', 0])).toBe('/paths/~1pets~1{id}/a~0b/0')
    fc.assert(
      fc.property(fc.array(fc.oneof(key, fc.string())), (tokens) => {
        expect(pointerTokens(toPointer(tokens))).toEqual(tokens)
      }),
    )
  })

  it('declines text js-yaml refuses', () => {
    expect(lineIndex('a: [1,\n')).toBeUndefined()
  })
})
