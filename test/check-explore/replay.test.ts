/**
 * A saved file replays to the findings it holds: each saved sequence alone (fresh wallets, the
 * book it left cancelled), reported under its saved id and only when the saved rule diverges
 * again, so three findings come back as the same three ids.
 */
import { afterAll, expect, it } from 'vitest'
import { explore } from '../../src/check/explore/explore.ts'
import { parseSaved, savedFile } from '../../src/check/explore/saved.ts'
import type { Target } from '../fixtures/broken-servers.ts'
import { FAULTS } from './faults.ts'

const open: Target[] = []
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()))
})

it('a saved file with three findings replays to the same three ids, each still diverging under its rule', async () => {
  const fault = FAULTS.find((f) => f.name === 'decreasing nonces refused')!
  const t = await fault.start()
  open.push(t)
  // Seed 2: a seed whose 60 sequences find three (the step mix decides which seeds do).
  const run = await explore({ target: t.url, symbols: t.symbols, budget: { sequences: 60 }, seed: 2, workers: 1, maxFound: 3 })
  expect(run.found).toHaveLength(3)
  const saved = parseSaved(JSON.stringify(savedFile(2, run.found)), 'saved.json')
  const ids = saved.map((s) => s.id)
  expect(new Set(ids).size).toBe(3)

  const again = await explore({ target: t.url, symbols: t.symbols, budget: { sequences: 1 }, seed: 2, replay: saved })
  expect(again.summary.results.map((r) => r.id)).toEqual(ids)
  // Each as the exploration judged it: a failure fails again, a warning warns again.
  expect(again.summary.results.map((r) => r.outcome)).toEqual(run.found.map((f) => (f.divergence.level === 'stated' ? 'fail' : 'warn')))
  expect(again.summary.results.some((r) => r.outcome === 'fail')).toBe(true)
  expect(again.summary.results.map((r) => r.rules[0])).toEqual(saved.map((s) => s.rule))
})

it('a replay reports the saved finding only when its own rule diverges again', async () => {
  const t = await FAULTS.find((f) => f.name === 'decreasing nonces refused')!.start()
  open.push(t)
  const run = await explore({ target: t.url, symbols: t.symbols, budget: { sequences: 60 }, seed: 1, workers: 1, maxFound: 1 })
  const [first] = parseSaved(JSON.stringify(savedFile(1, run.found)), 'saved.json')
  // The same steps saved under a rule they do not break: no longer reproduced, so the case passes.
  const renamed = { ...first!, rule: 'AGENT-4', id: 'explore/AGENT-4/order' }
  const again = await explore({ target: t.url, symbols: t.symbols, budget: { sequences: 1 }, seed: 1, replay: [renamed] })
  expect(again.summary.results).toHaveLength(1)
  expect(again.summary.results[0]!.id).toBe('explore/AGENT-4/order')
  expect(again.summary.results[0]!.outcome).toBe('pass')
})
