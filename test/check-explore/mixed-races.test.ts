/**
 * Mixed races against servers in processes of their own: each seeded fault is wrong only when
 * two different operations overlap (a cancel and a fill, two cancels of one order, an agent's
 * order and its revoke), so exploration catches it within a small budget (fixed seed) with the
 * full reach and misses it with `reach: 'basic'` (no mixed races, replays, earlier nonces,
 * agent-signed bulk items). A correct server gets no finding at all from the full reach, seed
 * after seed: the races are judged by invariants, never by which request won.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { explore } from '../../src/check/explore/explore.ts'
import { startRaceFault } from '../helpers/live-target.ts'

const stops: (() => void)[] = []
afterAll(() => {
  for (const stop of stops) stop()
})

async function run(name: string, reach: 'full' | 'basic', seed: number, sequences: number) {
  const t = await startRaceFault(name)
  stops.push(t.stop)
  // The races' reach alone, on or off: the read-back of other parties and the time reach have
  // their own tests (parties.test.ts, time.test.ts), and these fault servers pass no /ws upgrade.
  return explore({
    target: t.url,
    symbols: t.symbols,
    budget: { sequences },
    seed,
    workers: 1,
    maxFound: 10,
    reach,
    ...(name === 'reference' ? {} : { readBack: 'acting' as const, time: false }),
  })
}

const FAULTS = [
  { name: 'cancel-lost-to-fill', rule: 'EP-2', what: /answered 200 as done, and the order filled in full/ },
  { name: 'cancel-twice', rule: 'EP-2', what: /both of two cancels of order \S+ sent at once were answered as done/ },
  {
    name: 'revoke-answered-early',
    rule: 'AGENT-5',
    what: /answered 200 as done, and an order the agent signed and sent after that answer was accepted/,
  },
] as const

describe.each(FAULTS)('$name', (f) => {
  it('caught by the full reach (seed 1, 40 sequences), as a stated invariant of a short sequence', async () => {
    const r = await run(f.name, 'full', 1, 40)
    const hit = r.found.find((x) => x.divergence.rule === f.rule && f.what.test(x.divergence.what))
    expect(hit, r.found.map((x) => `${x.divergence.rule} ${x.divergence.what}`).join(' | ') || 'nothing found').toBeDefined()
    expect(hit!.divergence.invariant).toBe(true)
    expect(hit!.divergence.level).toBe('stated')
    expect(hit!.steps.length).toBeLessThanOrEqual(6)
    expect(r.summary.results.some((c) => c.outcome === 'fail' && c.rules.includes(f.rule))).toBe(true)
  }, 120_000)

  it('missed with the basic reach (same seed and budget)', async () => {
    const r = await run(f.name, 'basic', 1, 40)
    expect(r.sequences).toBeGreaterThanOrEqual(40)
    expect(r.found.filter((x) => f.what.test(x.divergence.what))).toEqual([])
    expect(r.summary.results.filter((c) => c.outcome === 'fail').map((c) => c.message)).toEqual([])
  }, 120_000)
})

describe('the reference server in its own process', () => {
  it('seeds 1-3, full reach: no finding at all', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await run('reference', 'full', seed, 60)
      expect(r.sequences).toBeGreaterThanOrEqual(60)
      expect(r.found.map((x) => `seed ${seed}: ${x.divergence.rule} ${x.divergence.what}`)).toEqual([])
    }
  }, 240_000)
})
