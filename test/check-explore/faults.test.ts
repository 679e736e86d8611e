/**
 * The explorer against seeded faults: with a fixed seed and a small budget it finds every one,
 * with a divergence under one of the fault's rules and a shrunk sequence of at most 6 steps; and
 * the named checks (the whole default suite, slow checks included) find nothing wrong with the
 * faults marked `namedMiss`: only exploration catches those.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { explore } from '../../src/check/explore/explore.ts'
import { runServerChecks } from '../../src/check/server/index.ts'
import type { Target } from '../fixtures/broken-servers.ts'
import { FAULTS } from './faults.ts'

const open: Target[] = []
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()))
})

async function started(start: () => Promise<Target>): Promise<Target> {
  const t = await start()
  open.push(t)
  return t
}

describe('seeded faults', () => {
  it('has at least 25 distinct faults, at least 10 of them missed by the named checks', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(25)
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length)
    expect(FAULTS.filter((f) => f.namedMiss).length).toBeGreaterThanOrEqual(10)
  })

  for (const f of FAULTS) {
    it(`explore catches "${f.name}" (${f.how})`, async () => {
      const t = await started(f.start)
      const run = await explore({
        target: t.url,
        clock: t.clock,
        symbols: t.symbols,
        budget: { sequences: 300 },
        seed: f.seed ?? 1,
        workers: 1,
        maxFound: 6,
      })
      const hit = run.found.find((x) => f.rules.includes(x.divergence.rule))
      expect(hit, `found: ${run.found.map((x) => `${x.divergence.rule} ${x.divergence.what}`).join(' | ') || 'nothing'}`).toBeDefined()
      expect(hit!.steps.length).toBeLessThanOrEqual(6)
      // The case the reporters show: its rule, both answers, a curl line per request.
      const c = run.summary.results.find((r) => r.rules.includes(hit!.divergence.rule) && r.id.startsWith('explore/'))!
      expect(c.outcome).toBe(hit!.divergence.level === 'stated' ? 'fail' : 'warn')
      expect(c.details?.sequence).toContain('reference:')
      expect(c.details?.sequence).toContain('curl ')
    }, 180_000)
  }
})

describe('named checks miss what only exploration finds', () => {
  for (const f of FAULTS.filter((x) => x.namedMiss)) {
    it(`the named checks pass "${f.name}"`, async () => {
      const t = await started(f.start)
      const { summary } = await runServerChecks({ target: t.url, clock: t.clock, symbols: t.symbols, slow: true })
      const failed = summary.results.filter((r) => r.outcome === 'fail').map((r) => `${r.id}: ${r.message}`)
      expect(failed).toEqual([])
      expect(summary.results.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(250)
    }, 240_000)
  }
})
