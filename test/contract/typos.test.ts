/**
 * The toolkit types itself from its own spec: a misspelled error code, rule id or message kind
 * in internal code is a compile error. Each fixture under typos/ marks the line that must fail
 * with `// expect-error: TSnnnn`; the test type-checks them with the project's settings and
 * demands exactly those errors (and no others).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const dir = join(import.meta.dirname, 'typos')
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => join(dir, f))

function expectedErrors(file: string): { line: number; code: number }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((text, i) => {
      const m = /\/\/ expect-error: TS(\d+)/.exec(text)
      return m ? [{ line: i + 1, code: Number(m[1]) }] : []
    })
}

describe('contract literals are typed', () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(import.meta.dirname, '../../tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!
  const program = ts.createProgram(files, { ...config.options, noEmit: true })
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file && files.includes(d.file.fileName))

  it('has a fixture per typo kind', () => {
    expect(files.map((f) => f.slice(dir.length + 1)).sort()).toEqual(['error-code.ts', 'message-kind.ts', 'rule-id.ts', 'vector-rule.ts'])
  })
  for (const file of files) {
    it(`${file.slice(dir.length + 1)} fails to compile exactly where marked`, () => {
      const got = diagnostics
        .filter((d) => d.file!.fileName === file)
        .map((d) => ({ line: d.file!.getLineAndCharacterOfPosition(d.start!).line + 1, code: d.code }))
      const want = expectedErrors(file)
      expect(want.length).toBeGreaterThan(0)
      expect(got).toEqual(want)
    })
  }
})
