/**
 * The validator of a vector schema. Compiling the shipped schema with ajv took about 70 ms of
 * every run that loads vectors (`oec check server`, `check client`, `vectors verify`), so the
 * build compiles it once to ajv's standalone code (`vectors-schema.validate.cjs` beside this
 * module, which also exports the SHA-256 of the schema text it was compiled from) and a run whose
 * schema text has that hash uses the code instead. Any other schema (a user's directory, an edited file, running from
 * src/ where the build wrote nothing) is compiled as before, with the same options.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_VECTORS_DIR, SCHEMA_NAME } from './paths.ts'

export interface ValidateFn {
  (data: unknown): boolean
  errors?: { instancePath: string; message?: string }[] | null
}

type AjvInstance = { compile(schema: unknown): ValidateFn }
type AjvCtor = new (opts: Record<string, unknown>) => AjvInstance

/** One set of options for the run-time compile and the build's, so both validators agree. */
const OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true } as const

const CODE_PATH = fileURLToPath(new URL('./vectors-schema.validate.cjs', import.meta.url))
const require = createRequire(import.meta.url)

/** ajv, loaded only when a schema must be compiled (the build's code needs only its runtime helpers). */
function ajv(opts: Record<string, unknown>): AjvInstance {
  const mod = require('ajv') as { default?: AjvCtor } & AjvCtor
  return new (mod.default ?? mod)(opts)
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** The build's code for exactly this schema text, or undefined (exported for tests). */
export function precompiledValidator(schemaText: string): ValidateFn | undefined {
  let built: ValidateFn & { schemaSha256?: string }
  try {
    built = require(CODE_PATH) as typeof built
  } catch {
    return undefined // no build beside this module (a run from src/)
  }
  return built.schemaSha256 === sha256(schemaText) ? built : undefined
}

/** A validator for a schema's text: the build's code when it was compiled from this text, else ajv now. */
export function schemaValidator(schemaText: string): ValidateFn {
  return precompiledValidator(schemaText) ?? ajv(OPTIONS).compile(JSON.parse(schemaText))
}

/** Run by `npm run build` on the compiled module: the shipped schema as ajv standalone code. */
export async function writeSchemaValidator(): Promise<void> {
  const { default: standaloneCode } = (await import('ajv/dist/standalone/index.js')) as unknown as {
    default: { default?: (ajv: AjvInstance, v: ValidateFn) => string } & ((ajv: AjvInstance, v: ValidateFn) => string)
  }
  const write = standaloneCode.default ?? standaloneCode
  const text = readFileSync(join(DEFAULT_VECTORS_DIR, SCHEMA_NAME), 'utf8')
  const compiler = ajv({ ...OPTIONS, code: { source: true } })
  const code = write(compiler, compiler.compile(JSON.parse(text)))
  writeFileSync(CODE_PATH, `${code}\nmodule.exports.schemaSha256 = ${JSON.stringify(sha256(text))};\n`)
}
