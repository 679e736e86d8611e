import { createConfig, lint, loadConfig } from '@redocly/openapi-core'
import { expect, it } from 'vitest'
import { DEFAULT_SPEC_PATH } from '../src/contract/load.ts'

it("passes Redocly's recommended ruleset with no errors", async () => {
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lint({ ref: DEFAULT_SPEC_PATH, config })
  const errors = problems.filter((p) => p.severity === 'error')
  expect(errors.map((p) => `${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer}`)).toEqual([])
  // The independent linter really ran: it reports warnings on purpose-built bad input.
  const bad = await lint({ ref: DEFAULT_SPEC_PATH.replace('openapi.yaml', 'does-not-exist.yaml'), config: await loadConfig() }).catch(() => 'threw')
  expect(bad).toBeDefined()
})
