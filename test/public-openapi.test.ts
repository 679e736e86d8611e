/**
 * Public OpenAPI 3.0 and 3.1 documents that carry no toolkit extension (the OAI's own examples,
 * test/fixtures/public-openapi/, CC BY 4.0): `lint` lints them, `generate` emits types that
 * compile under strict tsc, and the commands that implement a layer (serve, check server, sign,
 * vectors generate) refuse them in one line.
 * Every command runs through the CLI entry in process.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshProject, runTsc, tempDir, writeStrictTsconfig, type Diagnostic } from './generate/helpers.ts'
import { ROOT } from './helpers/cli.ts'
import { runMain } from './helpers/main.ts'

const FIXTURES = join(ROOT, 'test/fixtures/public-openapi')
const docs = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => join(FIXTURES, f))
const versionOf = (path: string) => /^openapi: ["']?(3\.[01])\./m.exec(readFileSync(path, 'utf8'))?.[1]

it('the fixtures are at least two OpenAPI 3.0 and one 3.1 document, none with an x-<toolkit> layer', () => {
  const versions = docs.map(versionOf)
  expect(versions.filter((v) => v === '3.0').length).toBeGreaterThanOrEqual(2)
  expect(versions.filter((v) => v === '3.1').length).toBeGreaterThanOrEqual(1)
  for (const d of docs) expect(readFileSync(d, 'utf8')).not.toMatch(/^x-(eip712|rate-limits|websocket|[a-z]+-error-codes):/m)
  expect(existsSync(join(FIXTURES, 'LICENSE'))).toBe(true)
})

describe.each(docs.map((d) => [basename(d), d]))('oec lint %s', (_name, doc) => {
  it('exits 0 or 1 (never 2), with one info line naming the absent layers', async () => {
    const r = await runMain(['lint', doc])
    expect(r.stderr).toBe('')
    expect([0, 1]).toContain(r.code)
    // The toolkit's house rules are warnings on a document without its layers: they never fail it.
    expect(r.stdout).toMatch(new RegExp(`: ${r.code === 0 ? 0 : '[1-9]\\d*'} error\\(s\\), \\d+ warning\\(s\\)\\n$`))
    const info = r.stdout.split('\n').filter((l) => l.includes(': info: '))
    expect(info).toHaveLength(1)
    for (const key of ['x-service-error-codes', 'x-eip712', 'x-rate-limits', 'x-websocket']) expect(info[0]).toContain(`no ${key} layer`)
    // Findings are ones a layer-less document can have; no skipped rule ran.
    for (const line of r.stdout.split('\n').filter((l) => /:\d+ /.test(l))) {
      expect(line).toMatch(/:\d+ (openapi-valid|request-additional-properties|assumed-why-missing) /)
    }
  })
})

describe('oec generate on the public documents (tsc --strict --noEmit)', () => {
  const tmp = tempDir('public')
  let tsc: { code: number | null; diagnostics: Diagnostic[]; output: string }
  const written: Record<string, string[]> = {}

  beforeAll(async () => {
    freshProject(tmp.dir)
    for (const doc of docs) {
      const name = basename(doc, '.yaml')
      const r = await runMain(['generate', '--spec', doc, '--out', join(tmp.dir, name)])
      expect(r.code, r.stderr).toBe(0)
      written[name] = readdirSync(join(tmp.dir, name)).sort()
    }
    // A consumer of the petstore types: right values compile, a wrong one must not.
    writeFileSync(
      join(tmp.dir, 'consumer.ts'),
      [
        "import type { Pet, Operations } from './petstore/index.js';",
        "export const pet: Pet = { id: 1, name: 'Rex' };",
        "export const path: Operations['showPetById']['path'] = '/pets/{petId}';",
        '// @ts-expect-error name is required',
        'export const nameless: Pet = { id: 2 };',
        '',
      ].join('\n'),
    )
    writeStrictTsconfig(tmp.dir, [...docs.map((d) => `${basename(d, '.yaml')}/*.ts`), 'consumer.ts'])
    tsc = await runTsc(tmp.dir, ['-p', 'tsconfig.json', '--pretty', 'false'])
  }, 120_000)
  afterAll(() => tmp.cleanup())

  it('writes types.ts, contract.ts and index.ts, and no file of an absent layer', () => {
    expect(Object.keys(written)).toHaveLength(docs.length)
    for (const files of Object.values(written)) expect(files).toEqual(['contract.ts', 'index.ts', 'types.ts'])
    expect(readFileSync(join(tmp.dir, 'petstore', 'types.ts'), 'utf8')).toMatch(/^export interface Pet \{$/m)
  })

  it('the generated files and their consumer compile with no error', () => {
    expect(tsc.diagnostics).toEqual([])
    expect(tsc.code, tsc.output).toBe(0)
  })
})

describe('commands that implement a layer refuse a document without it: one line, exit 2, nothing written', () => {
  const doc = docs.find((d) => basename(d) === 'petstore.yaml')!
  const tmp = tempDir('public-refusals')
  const vectorsOut = join(tmp.dir, 'vectors')
  afterAll(() => tmp.cleanup())
  const cases: [string, string[], string][] = [
    ['serve', ['serve', '--spec', doc, '--port', '0'], 'oec serve needs x-service-error-codes'],
    ['check server', ['check', 'server', '--spec', doc, '--target', 'http://127.0.0.1:9'], 'oec check server needs x-service-error-codes'],
    ['sign --jsonl', ['sign', '--spec', doc, '--jsonl'], 'oec sign needs x-eip712'],
    ['vectors generate', ['vectors', 'generate', '--spec', doc, '--out', vectorsOut], 'oec vectors generate needs x-service-error-codes'],
  ]
  it.each(cases)('%s', async (_name, args, needs) => {
    const r = await runMain(args, '{"id":1,"kind":"PlaceOrder"}\n')
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr.split('\n')).toEqual([expect.stringMatching(/^oec: /), ''])
    expect(r.stderr).toContain(`${doc}: ${needs}`)
    expect(r.stderr).toMatch(/which this spec does not have\n$/)
    expect(readdirSync(tmp.dir)).toEqual([])
  })
})

describe('oec diff between two public documents (no toolkit layer on either side)', () => {
  const petstore = join(FIXTURES, 'petstore.yaml')
  const expanded = join(FIXTURES, 'petstore-expanded.yaml')
  it('reports the OpenAPI findings of the revision, exit 1 on breaking ones', async () => {
    const r = await runMain(['diff', petstore, expanded, '--format', 'json'])
    expect(r.code).toBe(1)
    const findings = JSON.parse(r.stdout) as { id: string; severity: string; pointer: string }[]
    expect(findings).toContainEqual(expect.objectContaining({ id: 'endpoint-added', pointer: '/paths/~1pets~1{id}/delete' }))
    expect(findings).toContainEqual(expect.objectContaining({ id: 'api-operation-id-removed', severity: 'breaking' }))
    // No layer on either side: no catalog, EIP-712, limit or layer finding.
    expect(findings.filter((f) => /^(layer-|error-code-|eip712-|rate-limit-)/.test(f.id))).toEqual([])
  })
  it('--format html writes one self-contained page of the same findings', async () => {
    const r = await runMain(['diff', petstore, expanded, '--format', 'html'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^<!doctype html>/i)
    expect(r.stdout).toContain('api-operation-id-removed')
    expect(r.stdout).not.toMatch(/<script[^>]+src=|<link[^>]+href=["']https?:/i)
  })
  it('a document against itself is clean, exit 0', async () => {
    const r = await runMain(['diff', expanded, expanded])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/0 breaking, 0 warning, 0 info/)
  })
})
