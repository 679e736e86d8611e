/**
 * Exploration never fails a correct server that chose differently where the seed is silent: the
 * assumption-variant servers get no failure (warnings allowed), with the same seed and budget
 * that catches every seeded fault.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { explore } from '../../src/check/explore/explore.ts'
import type { Target } from '../fixtures/broken-servers.ts'
import { VARIANT_SERVERS } from '../fixtures/variant-servers.ts'

const open: Target[] = []
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()))
})

describe('assumption-variant servers under exploration', () => {
  for (const v of VARIANT_SERVERS) {
    it(`${v.name}: 0 failures`, async () => {
      const t = await v.start()
      open.push(t)
      const run = await explore({ target: t.url, clock: t.clock, symbols: t.symbols, budget: { sequences: 60 }, seed: 1, workers: 1 })
      const failed = run.summary.results.filter((r) => r.outcome === 'fail').map((r) => `${r.id} ${r.message}\n${r.details?.sequence}`)
      expect(failed).toEqual([])
      expect(run.sequences).toBeGreaterThanOrEqual(60)
    }, 180_000)
  }
})
