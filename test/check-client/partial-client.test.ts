/**
 * A partial client: a signer that implements the options domain only and refuses every
 * perpetuals (Agent) request. Its perpetuals cases are partly failures, partly warnings (the
 * assumed ones); listing the family as expected failures makes the run pass, `--fix` reaches a
 * fixed point in one run, and `--skip` leaves the family out.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { CaseResult } from '../../src/report/index.ts'
import { runOec } from '../helpers/cli.ts'

// Each test starts the binary, some several times: a loaded machine gets the time it needs.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 })

const tmp = mkdtempSync(join(tmpdir(), 'oec-partial-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const testee = ['--', process.execPath, '--import', 'tsx', 'test/check-client/testees/options-only.mts']
const client = (...args: string[]) => runOec(['check', 'client', '--reporter', 'json', ...args, ...testee], { timeoutMs: 120_000 })
const outcomes = (stdout: string) => {
  const counts: Record<string, number> = {}
  for (const r of JSON.parse(stdout).results as CaseResult[]) {
    const key = `${r.id.split('/')[0]}:${r.outcome}`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

describe('an options-only client', () => {
  it('fails its perpetuals cases when nothing says it is partial, with failures and warnings both', async () => {
    const r = await client()
    expect(r.code, r.stderr).toBe(1)
    const c = outcomes(r.stdout)
    expect(c['perp-agent:fail']).toBeGreaterThan(0)
    expect(c['perp-agent:warn']).toBeGreaterThan(0)
    expect(Object.keys(c).filter((k) => !k.startsWith('perp-agent:') && !k.endsWith(':pass'))).toEqual([])
  })

  it('--expected-failures listing perp-agent exits 0: failures become expected, warnings stay warnings (not stale)', async () => {
    const list = join(tmp, 'options-only.txt')
    writeFileSync(list, 'perp-agent  # options only: no perpetuals signer\n')
    const r = await client('--expected-failures', list)
    expect(r.code, r.stdout.slice(0, 2000)).toBe(0)
    const c = outcomes(r.stdout)
    expect(c['perp-agent:xfail']).toBeGreaterThan(0)
    expect(c['perp-agent:warn']).toBeGreaterThan(0)
    expect(c['perp-agent:fail']).toBeUndefined()
  })

  it('--fix converges in one run: the second run writes the same file, and a run with the list exits 0', async () => {
    const list = join(tmp, 'fixed.txt')
    writeFileSync(list, '')
    const first = await client('--expected-failures', list, '--fix')
    expect(first.code, first.stderr).toBe(0)
    const once = readFileSync(list, 'utf8')
    expect(once).toMatch(/^perp-agent\/\d+ {2}# /m)
    const second = await client('--expected-failures', list, '--fix')
    expect(second.code, second.stderr).toBe(0)
    expect(readFileSync(list, 'utf8')).toBe(once)
    const checked = await client('--expected-failures', list)
    expect(checked.code, checked.stdout.slice(0, 2000)).toBe(0)
  })

  it('--fix keeps a family entry that still covers failures (the same line, not one per case)', async () => {
    const list = join(tmp, 'family.txt')
    writeFileSync(list, 'perp-agent  # options only\n')
    const r = await client('--expected-failures', list, '--fix')
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(list, 'utf8')).toMatch(/^# .*\nperp-agent {2}# options only\n$/)
  })

  it('--skip perp-agent leaves the family out and passes', async () => {
    const r = await client('--skip', 'perp-agent')
    expect(r.code, r.stderr).toBe(0)
    expect(Object.keys(outcomes(r.stdout)).some((k) => k.startsWith('perp-agent'))).toBe(false)
  })
})
