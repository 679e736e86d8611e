/**
 * The read-back `parties` (read-back.ts): every party a step may have touched, error codes, and the
 * `/ws` updates. Each seeded fault of party-faults.ts runs in a process of its own; with a fixed
 * seed and a small budget exploration catches it under one of its rules, and with read-back `acting`
 * the same run does not.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { explore } from '../../src/check/explore/explore.ts'
import { PARTY_FAULTS } from '../fixtures/party-faults.ts'
import { startPartyFault, type LiveTarget } from '../helpers/live-target.ts'

const running: LiveTarget[] = []
afterAll(() => {
  for (const r of running) r.stop()
})

const BUDGET = 100
/** A seed whose first 100 sequences cross two wallets of one sequence on the one book they trade. */
const SEED = 3

describe('the readBack and reach options', () => {
  it('a value the explorer does not know is an input error naming the ones it knows', async () => {
    await expect(explore({ budget: { sequences: 1 }, readBack: 'everything' as never })).rejects.toThrow(
      /readBack "everything" is not one of acting, parties/,
    )
    await expect(explore({ budget: { sequences: 1 }, reach: 'everything' as never })).rejects.toThrow(
      /reach "everything" is not one of full, basic/,
    )
  })
})

describe('faults only the read-back parties sees', () => {
  for (const f of PARTY_FAULTS) {
    it(`"${f.name}" (${f.how}): caught with read-back parties, missed with read-back acting`, async () => {
      const t = await startPartyFault(f.name)
      running.push(t)
      const run = (readBack: 'parties' | 'acting') =>
        explore({
          target: t.url,
          symbols: t.symbols.slice(0, 1),
          budget: { sequences: BUDGET },
          seed: SEED,
          workers: 1,
          maxFound: 6,
          readBack,
        })
      const said = (r: Awaited<ReturnType<typeof run>>) => r.found.map((x) => `${x.divergence.rule} ${x.divergence.what}`).join(' | ')
      const wide = await run('parties')
      const hit = wide.found.find((x) => f.rules.includes(x.divergence.rule))
      expect(hit, `found: ${said(wide) || 'nothing'}`).toBeDefined()
      const c = wide.summary.results.find((r) => r.rules.includes(hit!.divergence.rule) && r.id.startsWith('explore/'))!
      expect(c.outcome).toBe(hit!.divergence.level === 'stated' ? 'fail' : 'warn')
      const narrow = await run('acting')
      expect(narrow.sequences).toBeGreaterThanOrEqual(BUDGET)
      expect(
        narrow.found.filter((x) => f.rules.includes(x.divergence.rule)),
        `found with reach acting: ${said(narrow)}`,
      ).toEqual([])
    }, 240_000)
  }
})
