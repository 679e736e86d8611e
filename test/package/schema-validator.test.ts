/**
 * The vector schema's validator from the build (ajv standalone code, used when the schema text has
 * the hash the build recorded) against ajv compiling the same schema now (what a run from src/,
 * or with any other schema, does): the same verdict and the same errors, on the shipped files
 * and on those files with a value replaced anywhere; and an edited schema is never served the
 * build's code.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseExact } from '../../src/vectors/exact-json.ts'
import { vectorFileNames } from '../../src/vectors/load.ts'
import { DEFAULT_VECTORS_DIR, SCHEMA_NAME } from '../../src/vectors/paths.ts'
import { schemaValidator as compileNow, type ValidateFn } from '../../src/vectors/schema-validator.ts'
import { ROOT } from '../helpers/cli.ts'
import { propertyRuns } from '../helpers/mutation.ts'
import { paths, replaced } from '../helpers/tree.ts'

type Built = typeof import('../../src/vectors/schema-validator.ts')
const built = (await import(pathToFileURL(join(ROOT, 'dist', 'src', 'vectors', 'schema-validator.js')).href)) as Built

const schemaText = readFileSync(join(DEFAULT_VECTORS_DIR, SCHEMA_NAME), 'utf8')
const docs = vectorFileNames().map((n) => parseExact(readFileSync(join(DEFAULT_VECTORS_DIR, n), 'utf8')))

function verdict(v: ValidateFn, doc: unknown) {
  const ok = v(doc)
  return { ok, errors: (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`) }
}

describe('the build-time vector schema validator', () => {
  const precompiled = built.precompiledValidator(schemaText)
  // The run from src/ has no build output beside it: it compiles (the other side of each comparison).
  const now = compileNow(schemaText)

  it('is used for the shipped schema and never for another text', () => {
    expect(precompiled).toBeTypeOf('function')
    expect(built.schemaValidator(schemaText)).toBe(precompiled)
    expect(built.precompiledValidator(`${schemaText} `)).toBeUndefined()
    expect(built.schemaValidator(schemaText.replace('"minItems": 1', '"minItems": 2'))).not.toBe(precompiled)
  })

  it('passes every shipped file, as ajv compiling now does', () => {
    for (const doc of docs) expect(verdict(precompiled!, doc)).toEqual({ ok: true, errors: [] })
    for (const doc of docs) expect(verdict(now, doc).ok).toBe(true)
  })

  it('gives the verdict and errors ajv gives, whatever value is replaced wherever', () => {
    const all = docs.map((d) => ({ doc: d, paths: paths(d) }))
    let refused = 0
    fc.assert(
      fc.property(
        fc.nat(all.length - 1).chain((f) => fc.tuple(fc.constant(f), fc.nat(all[f]!.paths.length - 1))),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('', 'x', -1, 0, 1.5, null, [], {})),
        ([f, p], value) => {
          const doc = replaced(all[f]!.doc, all[f]!.paths[p]!, value)
          const a = verdict(precompiled!, doc)
          expect(a).toEqual(verdict(now, doc))
          if (!a.ok) refused++
        },
      ),
      { numRuns: propertyRuns(400), seed: 20261123 },
    )
    // The replacements reach the schema's rules, not only places it leaves open.
    expect(refused).toBeGreaterThan(20)
  })
})
