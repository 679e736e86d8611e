/**
 * Reads vector files and checks them against their JSON Schema (vectors/vectors.schema.json).
 * Runners use `loadVectorCases` to get every case with its stable id `<family>/<tcId>`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { InputError } from '../errors.ts'
import { parseExact } from './exact-json.ts'
import { DEFAULT_VECTORS_DIR, SCHEMA_NAME } from './paths.ts'
import { caseId, type VectorCase, type VectorFile } from './model.ts'
import { schemaValidator, type ValidateFn } from './schema-validator.ts'

export { SCHEMA_NAME }

const validators = new Map<string, ValidateFn>()
function validatorFor(dir: string): ValidateFn {
  let v = validators.get(dir)
  if (!v) {
    const path = join(dir, SCHEMA_NAME)
    if (!existsSync(path)) throw new InputError(`no ${SCHEMA_NAME} in ${dir}`)
    v = schemaValidator(readFileSync(path, 'utf8'))
    validators.set(dir, v)
  }
  return v
}

/** Schema errors of one parsed file, as "pointer message" lines (empty when it validates). */
export function schemaErrors(doc: unknown, dir: string = DEFAULT_VECTORS_DIR): string[] {
  const validate = validatorFor(dir)
  if (validate(doc)) return []
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
}

export function vectorFileNames(dir: string = DEFAULT_VECTORS_DIR): string[] {
  if (!existsSync(dir)) throw new InputError(`no vector directory ${dir}`)
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== SCHEMA_NAME)
    .sort()
}

export interface LoadedFile {
  readonly name: string
  readonly text: string
  readonly file: VectorFile
}

/** Loads every vector file of a directory; a file that breaks the schema is an input error. */
export function loadVectorFiles(dir: string = DEFAULT_VECTORS_DIR): LoadedFile[] {
  return vectorFileNames(dir).map((name) => {
    const text = readFileSync(join(dir, name), 'utf8')
    let doc: unknown
    try {
      doc = parseExact(text)
    } catch {
      throw new InputError(`${join(dir, name)}: not JSON`)
    }
    const errors = schemaErrors(doc, dir)
    if (errors.length) throw new InputError(`${join(dir, name)}: breaks ${SCHEMA_NAME}: ${errors[0]}`)
    return { name, text, file: doc as VectorFile }
  })
}

export interface LoadedCase {
  readonly id: string
  readonly family: string
  readonly case: VectorCase
}

/** Every case of some vector files, each with its stable id `<family>/<tcId>`. */
export function casesOf(files: Iterable<VectorFile>): LoadedCase[] {
  return [...files].flatMap((file) =>
    file.testGroups.flatMap((g) => g.tests.map((t) => ({ id: caseId(file.family, t.tcId), family: file.family, case: t }))),
  )
}

export function loadVectorCases(dir: string = DEFAULT_VECTORS_DIR): LoadedCase[] {
  return casesOf(loadVectorFiles(dir).map((f) => f.file))
}
