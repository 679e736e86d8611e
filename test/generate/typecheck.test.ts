/**
 * Type-level proof, with one real `tsc --strict --noEmit` run over a fresh project that holds only
 * the generated files (two specs), viem and typescript: the positive cases compile, every
 * `@ts-expect-error` is needed, and with the directives removed each expected error lands on
 * the line it names. Also: the ErrorCode union keeps autocompletion (language service).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateFiles, writeGenerated } from '../../src/generate/index.ts'
import { acmeSpec, freshProject, runTsc, tempDir, writeStrictTsconfig, type Diagnostic } from './helpers.ts'

const template = readFileSync(new URL('./fixture-template.ts.txt', import.meta.url), 'utf8')
const tmp = tempDir('tsc')
let result: { code: number | null; diagnostics: Diagnostic[]; output: string }
/** The same project with exactOptionalPropertyTypes off: a consumer may compile either way. */
let loose: { code: number | null; diagnostics: Diagnostic[]; output: string }
const expectedLines: { line: number; why: string }[] = []

beforeAll(async () => {
  const dir = tmp.dir
  freshProject(dir)
  const acme = acmeSpec(dir)
  // In process (the CLI path has its own tests): the same generateFiles the command runs.
  writeGenerated(join(dir, 'gen'), await generateFiles())
  writeGenerated(join(dir, 'gen-acme'), await generateFiles({ spec: acme, service: 'acme' }))

  // The raw copy: each directive becomes a plain comment, so its next line must error.
  const lines = template.split('\n')
  const raw = lines.map((l, i) => {
    const m = /^(\s*)\/\/ @ts-expect-error (.*)$/.exec(l)
    if (!m) return l
    expectedLines.push({ line: i + 2, why: m[2]! })
    return `${m[1]}// expected error: ${m[2]}`
  })
  writeFileSync(join(dir, 'fixture.ts'), template)
  writeFileSync(join(dir, 'fixture-raw.ts'), raw.join('\n'))
  writeStrictTsconfig(dir, ['gen/*.ts', 'gen-acme/*.ts', 'fixture.ts', 'fixture-raw.ts'], ['ES2022', 'DOM'])
  ;[result, loose] = await Promise.all([
    runTsc(dir, ['-p', 'tsconfig.json', '--pretty', 'false']),
    runTsc(dir, ['-p', 'tsconfig.json', '--pretty', 'false', '--exactOptionalPropertyTypes', 'false']),
  ])
  if (process.env.OEC_DEBUG_TSC) console.log(result.output)
}, 120_000)

afterAll(() => tmp.cleanup())

describe('generated files in a fresh project (tsc --strict --noEmit)', () => {
  it('the generated files of both specs compile with no error of their own', () => {
    const own = result.diagnostics.filter((d) => d.file.startsWith('gen'))
    expect(own).toEqual([])
    expect(result.output).not.toMatch(/^gen(-acme)?\/[\w-]+\.ts\(/m)
  })

  it('they compile with exactOptionalPropertyTypes off as well (the flag is for the consumer to set)', () => {
    expect(loose.diagnostics.filter((d) => d.file.startsWith('gen'))).toEqual([])
    // The run did type-check: the raw fixture's planted errors are still reported.
    expect(loose.diagnostics.some((d) => d.file === 'fixture-raw.ts')).toBe(true)
  })

  it('the fixture compiles: positive cases pass and every @ts-expect-error is needed', () => {
    const fixture = result.diagnostics.filter((d) => d.file === 'fixture.ts')
    expect(fixture).toEqual([])
  })

  it('without the directives, exactly the marked lines fail', () => {
    expect(expectedLines.length).toBeGreaterThanOrEqual(15)
    const raw = result.diagnostics.filter((d) => d.file === 'fixture-raw.ts')
    const failing = [...new Set(raw.map((d) => d.line))].sort((a, b) => a - b)
    expect(failing).toEqual(expectedLines.map((e) => e.line))
    // Only the raw file fails, so tsc as a whole reports failure.
    expect(result.code).not.toBe(0)
  })

  it('a numeric price and a misspelled field are rejected by viem signTypedData for the reason given', () => {
    const raw = result.diagnostics.filter((d) => d.file === 'fixture-raw.ts')
    const at = (why: string) => {
      const e = expectedLines.find((x) => x.why.startsWith(why))!
      return raw
        .filter((d) => d.line === e.line)
        .map((d) => d.message)
        .join(' ')
    }
    expect(at('price is a string')).toMatch(/number.*not assignable to type 'string'/)
    expect(at('the typed-data field is clientId')).toMatch(/client_id/)
    expect(at('signature is required')).toMatch(/signature/)
  })
})

describe('ErrorCode keeps autocompletion of the known codes', () => {
  it('the language service offers the catalog codes where an ErrorCode is expected', () => {
    const dir = join(tmp.dir, 'gen')
    const probe = join(dir, 'probe.ts')
    const text = "import type { ErrorCode } from './errors.js';\nexport const c: ErrorCode = '"
    const files = new Map([
      [probe, text],
      [join(dir, 'errors.ts'), readFileSync(join(dir, 'errors.ts'), 'utf8')],
    ])
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [...files.keys()],
      getScriptVersion: () => '1',
      getScriptSnapshot: (f) =>
        files.has(f)
          ? ts.ScriptSnapshot.fromString(files.get(f)!)
          : ts.sys.fileExists(f)
            ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)!)
            : undefined,
      getCurrentDirectory: () => dir,
      // ES5 lib only: the completion needs no DOM, and loading it would dominate the test.
      getCompilationSettings: () => ({
        strict: true,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        types: [],
        lib: ['lib.es5.d.ts'],
      }),
      getDefaultLibFileName: (o) => join(ts.getDefaultLibFilePath(o), '..', 'lib.es5.d.ts'),
      fileExists: (f) => files.has(f) || ts.sys.fileExists(f),
      readFile: (f) => files.get(f) ?? ts.sys.readFile(f),
    }
    const service = ts.createLanguageService(host)
    const completions = service.getCompletionsAtPosition(probe, text.length, {})
    const names = completions?.entries.map((e) => e.name) ?? []
    expect(names).toEqual(expect.arrayContaining(['invalid_field', 'rate_limit_exceeded', 'signature_verification_failed']))
    expect(names).not.toContain('string')
  })
})
