import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createConfig, lint } from '@redocly/openapi-core'
import { expect, it } from 'vitest'
import { DEFAULT_SPEC_PATH } from '../src/contract/load.ts'

it("passes Redocly's recommended ruleset with no errors", async () => {
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lint({ ref: DEFAULT_SPEC_PATH, config })
  const errors = problems.filter((p) => p.severity === 'error')
  expect(errors.map((p) => `${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer}`)).toEqual([])
  // The independent linter really runs with this configuration: a purpose-built bad document
  // (an unresolved $ref, an operation with no responses) gets errors from it.
  const bad = join(mkdtempSync(join(tmpdir(), 'oec-redocly-')), 'bad.yaml')
  writeFileSync(
    bad,
    'openapi: 3.1.0\ninfo: {title: bad, version: "1"}\npaths:\n  /x:\n    get:\n      responses:\n        "200":\n          $ref: "#/components/responses/Missing"\n',
  )
  const badErrors = (await lint({ ref: bad, config })).filter((p) => p.severity === 'error').map((p) => p.ruleId)
  expect(badErrors).toContain('no-unresolved-refs')
})
