/**
 * The pairing of `oec check client --http` scenarios with the checks that judge them
 * (src/check/client/http/plan.ts): one entry per scenario, in report order, and every check
 * judged somewhere. The pairing is its own module so that scenarios and checks do not import
 * each other (test/architecture/layers.test.ts holds that).
 */
import { describe, expect, it } from 'vitest'
import { CLIENT_CHECKS } from '../../src/check/client/http/checks/index.ts'
import { checksOf, EVERY_SCENARIO, SCENARIO_CHECKS } from '../../src/check/client/http/plan.ts'
import { scenarios } from '../../src/check/client/http/scenarios.ts'

describe('scenario-to-check plan', () => {
  const all = scenarios('X')

  it('has one entry per scenario, in report order, and none for a scenario that does not exist', () => {
    expect(Object.keys(SCENARIO_CHECKS)).toEqual(all.map((s) => s.id))
  })

  it('judges each scenario by the checks of every scenario first, then its own, each once', () => {
    for (const s of all) {
      const names = checksOf(s)
      expect(names.slice(0, EVERY_SCENARIO.length)).toEqual([...EVERY_SCENARIO])
      expect(new Set(names).size, s.id).toBe(names.length)
    }
  })

  it('judges every registered check on some scenario', () => {
    const judged = new Set(all.flatMap(checksOf))
    expect(CLIENT_CHECKS.map((c) => c.name).filter((n) => !judged.has(n))).toEqual([])
  })
})
