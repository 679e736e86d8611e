/**
 * `not` in a plain (third-party) spec: as in openapi-typescript, `oec generate` writes the type of
 * the rest of the schema (`unknown` when `not` stands alone) with a comment naming the pointer,
 * exits 0, and the output compiles under strict tsc; `lint` and `diff` read the same file.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runOec, type RunResult } from '../helpers/cli.ts'
import { freshProject, runTsc, tempDir, writeStrictTsconfig, type Diagnostic } from './helpers.ts'

const SPEC = `openapi: 3.0.3
info: { title: Pets, version: 1.0.0 }
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Pet" }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Pet" }
components:
  schemas:
    Pet:
      type: object
      required: [name, kind]
      properties:
        name: { type: string }
        kind:
          type: string
          not: { enum: [dragon] }
        tags:
          type: array
          items:
            anyOf:
              - type: string
              - type: integer
            not: { type: integer, minimum: 100 }
    NotAString:
      not: { type: string }
`

const USE = `import type { NotAString, Pet } from './gen/types.ts'
export const pet: Pet = { name: 'Rex', kind: 'dog', tags: ['a', 1] }
export const anything: NotAString = 42
`

const tmp = tempDir('not')
const spec = join(tmp.dir, 'pets.yaml')
let gen: RunResult
let lint: RunResult
let diff: RunResult
let tsc: { code: number | null; diagnostics: Diagnostic[]; output: string }

beforeAll(async () => {
  writeFileSync(spec, SPEC)
  ;[gen, lint, diff] = await Promise.all([
    runOec(['generate', '--spec', spec, '--out', join(tmp.dir, 'gen')], { timeoutMs: 60_000 }),
    runOec(['lint', spec], { timeoutMs: 60_000 }),
    runOec(['diff', spec, spec], { timeoutMs: 60_000 }),
  ])
  freshProject(tmp.dir)
  writeFileSync(join(tmp.dir, 'use.ts'), USE)
  writeStrictTsconfig(tmp.dir, ['gen/*.ts', 'use.ts'])
  tsc = await runTsc(tmp.dir, ['-p', 'tsconfig.json', '--pretty', 'false', '--allowImportingTsExtensions'])
}, 120_000)
afterAll(() => tmp.cleanup())

describe('generate on a spec with not', () => {
  it('exits 0 and writes the rest of the schema with a comment naming the pointer', () => {
    expect(gen.code, gen.stderr).toBe(0)
    const types = readFileSync(join(tmp.dir, 'gen', 'types.ts'), 'utf8')
    expect(types).toMatch(/kind: \/\* JSON Schema "not" at #\/components\/schemas\/Pet\/properties\/kind: .*\*\/ string;/)
    expect(types).toMatch(/\/\* JSON Schema "not" at #\/components\/schemas\/Pet\/properties\/tags\/items: .*\*\/ \(string \| number\)/)
    expect(types).toMatch(/export type NotAString = \/\* JSON Schema "not" at #\/components\/schemas\/NotAString: .*\*\/ unknown;/)
  })

  it('the generated files and a consumer of them compile under strict tsc', () => {
    expect(tsc.diagnostics, tsc.output).toEqual([])
    expect(tsc.code, tsc.output).toBe(0)
  })

  it('lint and diff read the same file (no usage or input error)', () => {
    expect(lint.code, lint.stderr).not.toBe(2)
    expect(lint.stderr).not.toMatch(/not/)
    expect(diff.code, diff.stderr).toBe(0)
  })
})
