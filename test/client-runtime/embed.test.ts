/**
 * The client runtime is one text in two places: src/client-runtime/ (compiled, unit-tested, used by
 * the toolkit's perp signing) and the string generators/client-runtime.ts that `oec generate`
 * pastes into client.ts. These tests hold the two equal, hold the runtime to the ES2022 lib
 * alone (what a consumer's client.ts may assume), and check the one rewrite on the way in.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { emitAll } from '../../generators/index.ts'
import { RUNTIME_TEXT } from '../../generators/client-runtime.ts'
import { EMBEDDED_PATH, embeddable, embeddedModule, runtimeText } from '../../scripts/embed-runtime.ts'
import { loadContract, loadContractText } from '../../src/contract/load.ts'
import { ROOT } from '../helpers/cli.ts'
import { runTsc } from '../generate/helpers.ts'

describe('the embedded runtime', () => {
  it('is the source of src/client-runtime/ (run `npm run embed:runtime` after editing it)', () => {
    expect(RUNTIME_TEXT).toBe(runtimeText())
    expect(readFileSync(EMBEDDED_PATH, 'utf8')).toBe(embeddedModule(runtimeText()))
  })

  it('is what client.ts carries, after the tables it walks', () => {
    const contract = loadContract(join(ROOT, 'spec', 'openapi.yaml'))
    const client = emitAll(contract).find((f) => f.name === 'client.ts')!.text
    expect(client).toContain(RUNTIME_TEXT)
    expect(client.indexOf('const runtimeTables = ')).toBeLessThan(client.indexOf(RUNTIME_TEXT))
    // What users of client.ts do not see: the runtime's shared helpers and its stand-in tables.
    expect(client).not.toMatch(/^export (async )?function (msgpack|toJson|integer|build|buildPerp|caller)\b/m)
    expect(client).not.toContain('./tables.ts')
  })

  it("keeps the runtime's names: an operation named like one gets a renamed builder, a schema named like an export is refused", () => {
    const text = readFileSync(join(ROOT, 'spec', 'openapi.yaml'), 'utf8')
    const emitted = emitAll(loadContractText(text.replace('operationId: placeOrder\n', 'operationId: build\n'), 'spec.yaml'))
    const client = emitted.find((f) => f.name === 'client.ts')!.text
    expect([...client.matchAll(/^(?:export )?(?:async )?function (build\d*)\(/gm)].map((m) => m[1])).toEqual(['build', 'build2'])
    expect(client).toContain('build: (input?: unknown) => call(')
    const clash = text.replace('\n    PlaceOrderRequest:\n', '\n    Signer:\n      type: string\n    PlaceOrderRequest:\n')
    expect(() => emitAll(loadContractText(clash, 'spec.yaml'))).toThrow(/a declaration named Signer collides with client\.ts's own Signer/)
  })

  it('drops a file header and the imports, and the export of an @internal declaration only', () => {
    const source =
      "/**\n * Header.\n */\nimport { a } from './a.ts';\n\n/** @internal Shared. */\nexport function b(): void {}\n\n/** Public. */\nexport function c(): void {}\n"
    expect(embeddable(source, 'x.ts')).toBe('/** Shared. */\nfunction b(): void {}\n\n/** Public. */\nexport function c(): void {}\n')
    expect(() => embeddable('/** h */\n/** @internal stray */\nconst d = 1;\n', 'x.ts')).toThrow(
      /@internal must open a doc comment right above an export/,
    )
    expect(() => embeddable("import { a } from './a.ts';\n/** Header. */\n", 'x.ts')).toThrow(/x\.ts: must open with its header comment/)
  })
})

describe('the runtime stands alone', () => {
  it('imports nothing outside src/client-runtime/, so the text client.ts carries needs no package', () => {
    const dir = join(ROOT, 'src', 'client-runtime')
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'))
    expect(files).toEqual(expect.arrayContaining(['client.ts', 'encoding.ts', 'model.ts', 'tables.ts']))
    const outside = files.flatMap((f) =>
      [...readFileSync(join(dir, f), 'utf8').matchAll(/\bfrom\s*'([^']+)'|\bimport\s*\(\s*'([^']+)'/g)]
        .map((m) => m[1] ?? m[2]!)
        .filter((spec) => !/^\.\/[\w-]+\.ts$/.test(spec))
        .map((spec) => `${f} -> ${spec}`),
    )
    expect(outside).toEqual([])
  })
})

describe('the runtime under the ES2022 lib alone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oec-runtime-lib-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('compiles with no DOM and no @types/node (src/client-runtime/tsconfig.json)', async () => {
    const result = await runTsc(ROOT, ['-p', 'src/client-runtime/tsconfig.json', '--pretty', 'false'])
    expect(result.diagnostics).toEqual([])
    expect(result.code).toBe(0)
  })

  it('would not compile if it reached for a host API past ES2022', async () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'src', 'client-runtime', 'tsconfig.json'), 'utf8')) as { compilerOptions: object }
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}')
    writeFileSync(join(dir, 'host.ts'), 'export const bytes = new TextEncoder().encode("x");\n')
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: config.compilerOptions, files: ['host.ts'] }))
    const result = await runTsc(ROOT, ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false'])
    expect(result.diagnostics.map((d) => d.code)).toEqual(['TS2304'])
  })
})
