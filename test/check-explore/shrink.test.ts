/**
 * Shrinking with its own budget, keeping the original divergence: a find made with the
 * exploration deadline all but spent is shrunk exactly as far as the same find made with time to
 * spare; the budget is counted in reruns; a candidate that diverges otherwise counts as passing,
 * so against a seeded fault whose sequences show several rules each shrunk find keeps the rule
 * and kind of step its unshrunk sequence showed.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { contractFor } from '../../src/contract/index.ts'
import { runShard, findingKey, type ShardPlan, type ShardResult } from '../../src/check/explore/shard.ts'
import { describeStep } from '../../src/check/explore/commands/index.ts'
import { shrinkFound } from '../../src/check/explore/shrink.ts'
import type { Found } from '../../src/check/explore/report.ts'
import type { Target } from '../fixtures/broken-servers.ts'
import { FAULTS } from './faults.ts'

const spec = contractFor(undefined, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'test')
const open: Target[] = []
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()))
})

/** One shard against a fresh server with `fault`, stopping at its first find. */
async function firstFind(
  fault: string,
  seed: number,
  plan: Partial<ShardPlan>,
  now?: () => number,
  maxFound = 1,
): Promise<{ result: ShardResult; found: Found }> {
  const t = await FAULTS.find((f) => f.name === fault)!.start()
  open.push(t)
  const result = await runShard(
    spec,
    {
      shard: 0,
      seed,
      target: t.url,
      config: { instruments: [...t.symbols] },
      symbols: t.symbols,
      headers: {},
      timeoutMs: 10_000,
      maxSteps: 10,
      maxFound,
      shrink: { runs: 200 },
      ...plan,
    },
    { clock: t.clock, ...(now ? { now } : {}) },
  )
  expect(result.found.length, `finds of "${fault}" with seed ${seed}`).toBe(maxFound)
  return { result, found: result.found[0]! }
}

const shown = (f: Found) => f.steps.map(describeStep)

// A seed whose first find against this fault is a long sequence (8 steps unshrunk): a seed that
// finds it in one step leaves nothing to shrink. Which seed that is depends on the step mix.
const SEED = 8

describe('shrinking has a budget of its own', () => {
  it('a find made with the deadline all but spent is shrunk as short as one made with time to spare', async () => {
    const fault = 'canceled orders stay in the book'
    const unshrunk = await firstFind(fault, SEED, { sequences: 200, shrink: { runs: 0 } })
    const early = await firstFind(fault, SEED, { sequences: 200 })
    // The clock says 1 ms is left from the first look on: every sequence until the find is drawn
    // at the very end of the exploration budget.
    const deadline = Date.now() + 60_000
    const late = await firstFind(fault, SEED, { deadline }, () => deadline - 1)
    expect(early.found.steps.length).toBeLessThan(unshrunk.found.steps.length)
    expect(shown(late.found)).toEqual(shown(early.found))
    expect(findingKey(late.found.divergence, late.found.steps.at(-1)!)).toBe(
      findingKey(unshrunk.found.divergence, unshrunk.found.steps.at(-1)!),
    )
  }, 180_000)

  it('stops at its own budget of reruns', async () => {
    const fault = 'canceled orders stay in the book'
    const unshrunk = await firstFind(fault, SEED, { sequences: 200, shrink: { runs: 0 } })
    const one = await firstFind(fault, SEED, { sequences: 200, shrink: { runs: 1 } })
    const three = await firstFind(fault, SEED, { sequences: 200, shrink: { runs: 3 } })
    // The budget is counted in reruns: exactly one, then three, more sequences than unshrunk.
    expect(unshrunk.found.steps.length).toBeGreaterThan(3)
    expect(one.result.sequences).toBe(unshrunk.result.sequences + 1)
    expect(three.result.sequences).toBe(unshrunk.result.sequences + 3)
  }, 180_000)
})

describe('shrinking keeps the original divergence', () => {
  it('a candidate that diverges otherwise counts as passing: the shrunk find keeps its rule and kind', async () => {
    // Steps labelled by letter; the original finding needs a then c; any candidate without a
    // diverges otherwise and is not the finding (reproduce answers undefined).
    const step = (label: string) => ({ op: 'wait', label }) as never
    const found = (labels: string[]): Found => ({
      divergence: { rule: 'SVC-2', level: 'stated', what: labels.join('') },
      steps: labels.map(step),
      trace: [],
    })
    const tried: string[] = []
    const shrunk = await shrinkFound(
      found(['x', 'a', 'y', 'z', 'c']),
      async (candidate) => {
        const labels = candidate.map((s) => (s as unknown as { label: string }).label)
        tried.push(labels.join(''))
        return labels.includes('a') && labels.at(-1) === 'c' ? found(labels) : undefined
      },
      { runs: 100 },
    )
    expect(shrunk.divergence.what).toBe('ac')
    expect(tried.some((t) => !t.includes('a'))).toBe(true)
  })

  it('against a fault whose sequences show several rules, every shrunk find keeps its unshrunk rule and kind', async () => {
    // "canceled orders stay in the book" leaves ghost sizes that also make other rules diverge
    // (SVC-2 then EP-3 with seed 1): a shorter candidate easily shows another one first.
    const fault = 'canceled orders stay in the book'
    const keys = (r: ShardResult) => r.found.map((f) => findingKey(f.divergence, f.steps.at(-1)!))
    const unshrunk = await firstFind(fault, 1, { sequences: 200, shrink: { runs: 0 } }, undefined, 2)
    const shrunk = await firstFind(fault, 1, { sequences: 200 }, undefined, 2)
    expect(new Set(keys(shrunk.result).map((k) => k.split('|')[0]!)).size).toBe(2)
    expect(keys(shrunk.result)).toEqual(keys(unshrunk.result))
    for (const [i, f] of shrunk.result.found.entries()) expect(f.steps.length).toBeLessThanOrEqual(unshrunk.result.found[i]!.steps.length)
  }, 300_000)
})
