/**
 * Check ids are typed by the registry: code that names a check that does not exist (an --only
 * list, an expected failure, a "see check X" message) does not compile. The fixture is written
 * to a temporary ES module, outside the project's own type check, and compiled with its settings.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const registry = fileURLToPath(new URL('../../src/check/server/registry.ts', import.meta.url))
const lines = [
  `import type { CheckId, CheckSelector } from ${JSON.stringify(registry)}`,
  "export const known: CheckId[] = ['auth.domain', 'err.catalog-codes', 'mutate.place-order', 'vectors.nonce', 'perp.key-order']",
  "export const selectors: CheckSelector[] = ['rl', 'auth.chain-id/chain-1', 'vectors.nonce/3']",
  "export const misspelled: CheckId = 'auth.domian'",
  "export const unknownPrefix: CheckSelector = 'authx'",
  "export const misspelledCase: CheckSelector = 'nonce.reuse-after-sucess/x'",
]

describe('check ids are typed', () => {
  it('a misspelled check id or selector is a compile error, a real one is not', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'oec-check-ids-')), 'fixture.mts')
    writeFileSync(file, `${lines.join('\n')}\n`)
    const config = ts.getParsedCommandLineOfConfigFile(
      fileURLToPath(new URL('../../tsconfig.json', import.meta.url)),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!
    const program = ts.createProgram([file], { ...config.options, noEmit: true })
    const failing = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === file)
      .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1)
    expect([...new Set(failing)]).toEqual([4, 5, 6])
  }, 60_000)
})
