/**
 * `oec check server --explore` as a user runs it: the same --seed on the embedded server gives a
 * byte-identical JSON report with --workers 1 and 8 (the start time and duration aside); a found
 * sequence saved with --explore-out reruns with --replay against the same target; the JUnit and
 * HTML reporters carry the explored case; a bad budget is one line and exit 2.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runOec } from '../helpers/cli.ts'
import type { Target } from '../fixtures/broken-servers.ts'
import { FAULTS } from './faults.ts'

const dir = mkdtempSync(join(tmpdir(), 'oec-explore-'))
const open: Target[] = []
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()))
})

/** The JSON report without the two fields that say when and how long. */
function stable(text: string): string {
  const { startedAt: _s, durationMs: _d, ...rest } = JSON.parse(text) as Record<string, unknown>
  return JSON.stringify(rest)
}

describe('oec check server --explore', () => {
  it('the same --seed on the embedded server: the same JSON report with --workers 1 and 8', async () => {
    const run = async (workers: number) => {
      const out = join(dir, `w${workers}.json`)
      const r = await runOec(
        ['check', 'server', '--explore', '24', '--seed', '7', '--workers', String(workers), '--reporter', 'json', '--out', out],
        {
          timeoutMs: 170_000,
        },
      )
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toMatch(/explore: \d+ sequences \([\d.]+\/s\), \d+ steps, 0 divergence/)
      return readFileSync(out, 'utf8')
    }
    const one = await run(1)
    const eight = await run(8)
    expect(stable(eight)).toBe(stable(one))
    expect(JSON.parse(one).results[0].title).toMatch(/^explored 24 sequences/)
  }, 360_000)

  it('--explore-out saves the shrunk sequence; --replay reruns it; JUnit and HTML show the case', async () => {
    const fault = FAULTS.find((f) => f.name === 'nonce reuse allowed')!
    const t = await fault.start()
    open.push(t)
    const saved = join(dir, 'found.json')
    const args = ['check', 'server', '--target', t.url, '--symbol', t.symbols[0]!]
    const first = await runOec([...args, '--explore', '40', '--explore-out', saved, '--reporter', 'junit'], { timeoutMs: 120_000 })
    expect(first.code, first.stderr).toBe(1)
    expect(first.stdout).toContain('<failure')
    expect(first.stdout).toContain('explore/NONCE-2/')
    const file = JSON.parse(readFileSync(saved, 'utf8')) as { sequences: { id: string; steps: unknown[] }[] }
    expect(file.sequences.length).toBeGreaterThan(0)
    const again = await runOec([...args, '--replay', saved, '--reporter', 'html'], { timeoutMs: 120_000 })
    expect(again.code, again.stderr).toBe(1)
    expect(again.stdout).toContain(file.sequences[0]!.id)
  }, 300_000)

  it('a budget that is neither a duration nor a count is one line and exit 2', async () => {
    const r = await runOec(['check', 'server', '--explore', '10x'])
    expect(r.code).toBe(2)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain('--explore takes a duration')
  })
})
