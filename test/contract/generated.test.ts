/**
 * src/contract/generated is `oec generate` run on the shipped spec and rules: the toolkit's own
 * types. A spec or rules change without `npm run generate:self` fails here with the diff.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, runOec } from '../helpers/cli.ts'

const GENERATED = join(ROOT, 'src/contract/generated')

describe('the toolkit types itself from its own spec', () => {
  it('src/contract/generated matches oec generate of spec/openapi.yaml and spec/rules.yaml', async () => {
    const r = await runOec(['generate', '--check', '--out', GENERATED])
    expect(r.stdout + r.stderr).toMatch(/match the spec/)
    expect(r.code).toBe(0)
  })
  it('--check fails on a stale copy, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oec-self-'))
    cpSync(GENERATED, dir, { recursive: true })
    const rules = join(dir, 'rules.ts')
    const text = readFileSync(rules, 'utf8')
    expect(text).toContain("'AUTH-1': 'stated'")
    writeFileSync(rules, text.replace("'AUTH-1': 'stated'", "'AUTH-1': 'assumed'"))
    const r = await runOec(['generate', '--check', '--out', dir])
    expect(r.code).toBe(1)
    expect(r.stdout + r.stderr).toMatch(/rules\.ts/)
  })
})
