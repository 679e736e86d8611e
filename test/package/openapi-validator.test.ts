/**
 * The OAI schema validators from the build (Ajv standalone code, used when the installed schema
 * has the hash the build recorded) against Ajv compiling the same schema now (what a run from
 * src/ does): the same verdict and the same errors on a 3.0 and a 3.1 public document, as written
 * and with a value replaced anywhere; and a schema other than the one built is never served the
 * build's code.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import type { ValidateFunction } from 'ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadCoreYaml } from '../../src/contract/js-yaml.ts'
import { compileOpenApiValidator, type OpenApiVersion } from '../../src/lint/openapi-validator.ts'
import { ROOT } from '../helpers/cli.ts'
import { propertyRuns } from '../helpers/mutation.ts'
import { paths, replaced } from '../helpers/tree.ts'

type Built = typeof import('../../src/lint/openapi-validator.ts')
const built = (await import(pathToFileURL(join(ROOT, 'dist', 'src', 'lint', 'openapi-validator.js')).href)) as Built

const corpus = (name: string) =>
  loadCoreYaml(gunzipSync(readFileSync(join(ROOT, 'test/fixtures/public-openapi/corpus', name, 'head.yaml.gz'))).toString()) as Record<
    string,
    unknown
  >
const DOCS: Record<OpenApiVersion, Record<string, unknown>> = { '3.0': corpus('twilio-conversations'), '3.1': corpus('adyen-management') }

function verdict(v: ValidateFunction, doc: unknown) {
  const ok = v(doc)
  return { ok, errors: (v.errors ?? []).map((e) => `${e.instancePath} ${e.schemaPath} ${e.message}`) }
}

describe.each(['3.0', '3.1'] as const)('the build-time OpenAPI %s validator', (version) => {
  const precompiled = built.precompiledOpenApiValidator(version)
  const now = compileOpenApiValidator(version)
  const doc = DOCS[version]

  it('is used for the installed schema and never for another', () => {
    expect(precompiled).toBeTypeOf('function')
    expect(built.openApiValidator(version)).toBe(precompiled)
    expect(built.precompiledOpenApiValidator(version, '{"type":"object"}')).toBeUndefined()
  })

  it('passes the public document, as Ajv compiling now does', () => {
    expect(verdict(precompiled!, doc)).toEqual({ ok: true, errors: [] })
    expect(verdict(now, doc).ok).toBe(true)
  })

  it('gives the verdict and errors Ajv gives, whatever value is replaced wherever', () => {
    const all = paths(doc)
    let refused = 0
    fc.assert(
      fc.property(
        fc.nat(all.length - 1),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('', 'x', -1, 0, 1.5, null, [], {}, 'strin', { type: 'strin' })),
        (p, value) => {
          const changed = replaced(doc, all[p]!, value)
          const a = verdict(precompiled!, changed)
          expect(a).toEqual(verdict(now, changed))
          if (!a.ok) refused++
        },
      ),
      { numRuns: propertyRuns(60), seed: 20261126 },
    )
    // The replacements reach the schema's rules, not only places it leaves open.
    expect(refused).toBeGreaterThan(5)
  })
})
