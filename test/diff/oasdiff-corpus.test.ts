/**
 * Parity with oasdiff on its own test corpus (test/diff/oasdiff-corpus/README.md): every row of
 * table.json names a spec pair from oasdiff's `data/` folder, the rule oasdiff's Go tests expect
 * and its level; every clean pair is one its tests assert produces nothing (at or above a level,
 * within the rules of the check the test ran). Rows marked `skip` name a feature out of scope.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { diffSpecs, type DiffFinding, type DiffSeverity } from '../../src/diff/index.ts'
import { diffSource, diffSpecFromSource } from '../../src/diff/input.ts'
import { DIFF_SEVERITY_RANK } from '../../src/diff/index.ts'

const DIR = new URL('./oasdiff-corpus/', import.meta.url)

interface Row {
  readonly base: string
  readonly revision: string
  readonly id: string
  readonly level: DiffSeverity
  readonly test: string
  readonly skip?: string
}
interface CleanPair {
  readonly base: string
  readonly revision: string
  readonly test: string
  readonly minLevel: DiffSeverity
  /** The rules of the single check the test ran; absent: all rules. */
  readonly rules?: readonly string[]
  readonly skip?: string
}

const table = JSON.parse(readFileSync(new URL('table.json', DIR), 'utf8')) as { rows: Row[]; clean: CleanPair[] }

const results = new Map<string, DiffFinding[]>()
function diffPair(base: string, revision: string): DiffFinding[] {
  const key = `${base}\n${revision}`
  let found = results.get(key)
  if (!found) {
    const load = (f: string) => diffSpecFromSource(diffSource(readFileSync(new URL(`data/${f}`, DIR), 'utf8'), f))
    found = diffSpecs(load(base), load(revision), { today: '2026-11-23' })
    results.set(key, found)
  }
  return found
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`

describe('oasdiff corpus', () => {
  const rows = table.rows.filter((r) => !r.skip)
  const clean = table.clean.filter((c) => !c.skip)

  it('has at least 100 expectations in scope', () => {
    expect(rows.length).toBeGreaterThanOrEqual(100)
    expect(clean.length).toBeGreaterThan(0)
  })

  it('finds at least 95 % of the rules oasdiff expects, at least 90 % at its level', () => {
    const missed: string[] = []
    const offLevel: string[] = []
    for (const r of rows) {
      const hits = diffPair(r.base, r.revision).filter((f) => f.id === r.id)
      if (hits.length === 0) missed.push(`${r.id} (${r.base} → ${r.revision}, ${r.test})`)
      else if (!hits.some((f) => f.severity === r.level)) offLevel.push(`${r.id}: ${hits[0]!.severity}, oasdiff ${r.level}`)
    }
    const detected = rows.length - missed.length
    const atLevel = detected - offLevel.length
    const all = table.rows.length
    console.log(
      [
        `oasdiff corpus: ${rows.length} expectations in scope (${all - rows.length} of ${all} skipped as out of scope)`,
        `  detected ${detected}/${rows.length} = ${pct(detected, rows.length)}; at oasdiff's level ${atLevel}/${rows.length} = ${pct(atLevel, rows.length)}`,
        `  over all ${all} rows, skipped ones counted as missed: detected ${pct(detected, all)}`,
        ...missed.map((m) => `  missed ${m}`),
        ...offLevel.map((m) => `  level ${m}`),
      ].join('\n'),
    )
    expect(detected / rows.length).toBeGreaterThanOrEqual(0.95)
    expect(atLevel / rows.length).toBeGreaterThanOrEqual(0.9)
  })

  it('reports nothing on the pairs oasdiff calls clean', () => {
    const dirty: string[] = []
    for (const c of clean) {
      const found = diffPair(c.base, c.revision).filter(
        (f) => DIFF_SEVERITY_RANK[f.severity] >= DIFF_SEVERITY_RANK[c.minLevel] && (!c.rules || c.rules.includes(f.id)),
      )
      if (found.length > 0) dirty.push(`${c.test}: ${found.map((f) => `${f.id} (${f.severity})`).join(', ')}`)
    }
    console.log(
      `oasdiff corpus: ${clean.length - dirty.length}/${clean.length} clean pairs clean (${table.clean.length - clean.length} skipped)`,
    )
    expect(dirty).toEqual([])
  })
})
