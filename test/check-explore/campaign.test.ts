/**
 * Campaigns across machines: `--shard I/N` runs part I of N of an exploration and `oec report
 * merge` joins the parts. Shown here: parts 1/4 … 4/4 run exactly the shards of the whole run,
 * each the same sequences (digest of every step), on the embedded server and against a seeded
 * fault on a live target (same finding ids, with the cap on findings reached: the parts find
 * more than the whole run keeps); the merged JSON report equals the whole run's (ids, outcomes,
 * order and the summary case), deduplicates ids found by several parts and refuses what
 * is not a part of the same run; bad `--shard` values and modes that cannot split are one line
 * and exit 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { explore, type ExploreOptions, type ExploreResult } from '../../src/check/explore/explore.ts'
import { mergeReports } from '../../src/check/explore/merge.ts'
import { createReporter, type RunSummary } from '../../src/report/index.ts'
import { runOec } from '../helpers/cli.ts'
import type { Target } from '../fixtures/broken-servers.ts'
import { FAULTS } from './faults.ts'

const dir = mkdtempSync(join(tmpdir(), 'oec-campaign-'))
const open: Target[] = []
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()))
})

const PARTS = [1, 2, 3, 4]

/** The JSON reporter's text of a run, as a part writes it with --reporter json. */
function jsonText(summary: RunSummary): string {
  const out = new PassThrough()
  let text = ''
  out.on('data', (d) => (text += d))
  createReporter('json', out).finish(summary)
  return text
}

const idsAndOutcomes = (s: RunSummary) => s.results.map((r) => `${r.id} ${r.outcome}`).sort()

/** The whole run and its four parts, one after the other. */
async function wholeAndParts(opts: ExploreOptions): Promise<{ whole: ExploreResult; parts: ExploreResult[] }> {
  const whole = await explore(opts)
  const parts: ExploreResult[] = []
  for (const index of PARTS) parts.push(await explore({ ...opts, part: { index, of: PARTS.length } }))
  return { whole, parts }
}

function expectSameSequences(whole: ExploreResult, parts: readonly ExploreResult[]): void {
  const ran = parts.flatMap((p) => p.shards).sort((a, b) => a.shard - b.shard)
  // Disjoint parts that together run every shard of the whole run, each with the same sequences.
  expect(ran.map((s) => s.shard)).toEqual(whole.shards.map((s) => s.shard))
  expect(ran).toEqual([...whole.shards])
  expect(parts.reduce((n, p) => n + p.sequences, 0)).toBe(whole.sequences)
  expect(parts.reduce((n, p) => n + p.steps, 0)).toBe(whole.steps)
}

describe('--shard I/N: the parts run exactly the whole run', () => {
  it('on the embedded server: the union of parts 1/4 … 4/4 is the whole run, shard by shard', async () => {
    const { whole, parts } = await wholeAndParts({ budget: { sequences: 16 }, seed: 7, workers: 2 })
    expect(whole.shards.length).toBe(8)
    expectSameSequences(whole, parts)
    const merged = mergeReports(parts.map((p, i) => ({ file: `part${i + 1}.json`, text: jsonText(p.summary) })))
    expect(idsAndOutcomes(merged)).toEqual(idsAndOutcomes(whole.summary))
    // The summary case says what the whole run would: sequences, steps, divergences, median.
    expect(merged.results[0]).toEqual(whole.summary.results[0])
    expect(parts[0]!.summary.results[0]!.message).toContain('part 1 of 4')
  }, 240_000)

  it('against a seeded fault on a live target, with the cap on findings reached: the same finding ids, found by several parts and merged once', async () => {
    const CAP = 2
    const t = await FAULTS.find((f) => f.name === 'nonce reuse allowed')!.start()
    open.push(t)
    // A live target's shards are its instruments dealt to --workers: four here, one per part.
    const { whole, parts } = await wholeAndParts({
      target: t.url,
      symbols: t.symbols.slice(0, 4),
      budget: { sequences: 40 },
      seed: 3,
      workers: 4,
      // Below what the parts find together: the whole run keeps the first CAP of all its shards
      // in shard order, a part the first of its own; the merge cuts to the whole run's.
      maxFound: CAP,
    })
    expect(whole.shards.length).toBe(4)
    expectSameSequences(whole, parts)
    const ids = (r: ExploreResult) => r.summary.results.map((c) => c.id)
    expect(whole.found.length).toBe(CAP)
    const partIds = new Set(parts.flatMap(ids).filter((id) => id !== 'explore'))
    expect(partIds.size).toBeGreaterThan(CAP)
    const merged = mergeReports(parts.map((p, i) => ({ file: `part${i + 1}.json`, text: jsonText(p.summary) })))
    expect(idsAndOutcomes(merged)).toEqual(idsAndOutcomes(whole.summary))
    expect(merged.results.map((r) => r.id)).toEqual(whole.summary.results.map((r) => r.id))
    expect(merged.results[0]).toEqual(whole.summary.results[0])
    expect(merged.campaign!.found).toEqual(whole.summary.campaign!.found)
    // Deduplicated: some id was found by more than one part, and is in the merged report once.
    const all = parts.flatMap(ids)
    expect(all.length).toBeGreaterThan(merged.results.length + PARTS.length - 1)
    expect(new Set(merged.results.map((r) => r.id)).size).toBe(merged.results.length)
  }, 240_000)
})

describe('oec check server --shard and oec report merge, as a user runs them', () => {
  const part = (i: number) => join(dir, `part${i}.json`)
  const base = ['check', 'server', '--explore', '16', '--seed', '5', '--reporter', 'json']

  it('the merged reports of --shard 1/4 … 4/4 equal the unsharded report; every reporter; deduplicated', async () => {
    const runs = await Promise.all([
      runOec([...base, '--out', join(dir, 'whole.json')], { timeoutMs: 170_000 }),
      ...PARTS.map((i) => runOec([...base, '--shard', `${i}/4`, '--out', part(i)], { timeoutMs: 170_000 })),
    ])
    for (const r of runs) expect(r.code, r.stderr).toBe(0)
    const merged = await runOec(['report', 'merge', ...PARTS.map(part), '--reporter', 'json'])
    expect(merged.code, merged.stderr).toBe(0)
    const whole = JSON.parse(readFileSync(join(dir, 'whole.json'), 'utf8')) as RunSummary
    const doc = JSON.parse(merged.stdout) as RunSummary
    expect(idsAndOutcomes(doc)).toEqual(idsAndOutcomes(whole))
    expect(doc.results[0]).toEqual(whole.results[0])
    expect(doc.campaign!.part).toEqual({ parts: PARTS, of: 4, shards: [0, 1, 2, 3, 4, 5, 6, 7] })
    for (const [reporter, mark] of [
      ['junit', '<testsuite'],
      ['html', '<html'],
      ['pretty', 'PASSED'],
    ] as const) {
      const r = await runOec(['report', 'merge', ...PARTS.map(part), '--reporter', reporter])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toContain(mark)
    }
    // A finding in two parts (an id, here from a doctored copy) is merged once, the shortest kept.
    const finding = (steps: number) => ({
      id: 'explore/NONCE-2/order',
      title: `explored sequence of ${steps} step(s) diverges from the reference server`,
      rules: ['NONCE-2'],
      level: 'stated',
      outcome: 'fail',
      message: 'a reused nonce accepted',
      details: { sequence: Array.from({ length: steps }, (_, k) => `${k + 1}. order`).join('\n') },
      durationMs: 0,
    })
    for (const [i, steps] of [
      [1, 4],
      [2, 2],
    ] as const) {
      const doc = JSON.parse(readFileSync(part(i), 'utf8')) as RunSummary
      writeFileSync(join(dir, `found${i}.json`), JSON.stringify({ ...doc, results: [...doc.results, finding(steps)] }))
    }
    const dedup = await runOec(['report', 'merge', join(dir, 'found1.json'), join(dir, 'found2.json'), '--reporter', 'json'])
    expect(dedup.code).toBe(1)
    const found = (JSON.parse(dedup.stdout) as RunSummary).results.filter((r) => r.id === 'explore/NONCE-2/order')
    expect(found).toHaveLength(1)
    expect(found[0]!.title).toContain('2 step(s)')
    expect(dedup.stderr).toContain('only part(s) 1, 2 of 4')
  }, 360_000)

  it('refuses what is not a part of the same run: one line, exit 2', async () => {
    const one = JSON.parse(readFileSync(part(1), 'utf8')) as RunSummary
    const variants: [string, unknown, string][] = [
      ['not-json.json', 'not json', 'not a JSON report of oec'],
      ['no-results.json', { suite: 'x' }, 'not a JSON report of oec'],
      ['other-seed.json', { ...one, campaign: { ...one.campaign, seed: 99, part: { ...one.campaign!.part, parts: [2] } } }, 'seed 99'],
      [
        'other-spec.json',
        { ...one, campaign: { ...one.campaign, spec: { version: '9', digest: 'ffff' }, part: { ...one.campaign!.part, parts: [2] } } },
        'spec ffff',
      ],
      [
        'other-cap.json',
        { ...one, campaign: { ...one.campaign, maxFound: 5, part: { ...one.campaign!.part, parts: [2] } } },
        'a cap on findings of 5',
      ],
      ['named.json', { ...one, campaign: undefined }, 'one is a part of an --explore campaign'],
    ]
    for (const [name, content, says] of variants) {
      writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content))
      const r = await runOec(['report', 'merge', part(1), join(dir, name)])
      expect(r.code, name).toBe(2)
      expect(r.stderr.trim().split('\n'), name).toHaveLength(1)
      expect(r.stderr, name).toContain(says)
    }
    const twice = await runOec(['report', 'merge', part(1), part(1)])
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain('give each part once')
  }, 120_000)

  it('a bad --shard, or a mode that cannot split, is one line and exit 2', async () => {
    for (const [args, says] of [
      [['--explore', '8', '--shard', '0/4'], '--shard takes I/N'],
      [['--explore', '8', '--shard', '5/4'], '--shard takes I/N'],
      [['--explore', '8', '--shard', 'a/b'], '--shard takes I/N'],
      [['--explore', '8', '--shard', '1/9'], 'at most 8 parts'],
      [['--shard', '1/4'], 'the named checks do not take it'],
      [['--replay', part(1), '--shard', '1/4'], '--replay does not take it'],
      [['--shrink', '10'], 'the named checks do not take it'],
      [['--explore', '8', '--shrink', 'lots'], '--shrink takes'],
    ] as const) {
      const r = await runOec(['check', 'server', ...args])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
      expect(r.stderr, args.join(' ')).toContain(says)
    }
  }, 120_000)
})
