/**
 * Every deliberately broken server is caught: the named check fails (a stated rule) or warns
 * (an assumed one), over real HTTP on loopback. The runner drives each server's SimulatedClock.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { runServerChecks } from '../../src/check/server/index.ts'
import type { CaseResult } from '../../src/report/model.ts'
import { BROKEN_SERVERS, reference, type Target } from '../fixtures/broken-servers.ts'

const open: Target[] = []
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()))
})

function under(results: CaseResult[], id: string): CaseResult[] {
  return results.filter((r) => r.id === id || r.id.startsWith(`${id}/`))
}

describe('broken servers are caught', () => {
  it('has at least 22 broken servers, one per rule family', () => {
    expect(BROKEN_SERVERS.length).toBeGreaterThanOrEqual(22)
    expect(new Set(BROKEN_SERVERS.map((b) => b.name)).size).toBe(BROKEN_SERVERS.length)
  })

  for (const b of BROKEN_SERVERS) {
    it(`${b.name} (${b.how}) → ${b.caughtBy} ${b.outcome ?? 'fail'}s`, async () => {
      const t = await b.start()
      open.push(t)
      const { summary } = await runServerChecks({
        target: t.url,
        clock: t.clock,
        symbols: t.symbols,
        only: b.only,
        ...(t.tierWallets ? { tierWallets: t.tierWallets } : {}),
      })
      const caught = under(summary.results, b.caughtBy).filter((r) => r.outcome === (b.outcome ?? 'fail'))
      expect(
        caught.map((r) => r.id),
        `results: ${summary.results.map((r) => `${r.id}=${r.outcome}`).join(' ')}`,
      ).not.toEqual([])
      // A failure carries what was sent, what came back and how to reproduce it.
      const f = caught[0]!
      expect(f.message).toBeTruthy()
      expect(f.rules.length).toBeGreaterThan(0)
      if (f.details?.request) expect(f.details.curl).toMatch(/^curl /)
      await t.close()
      open.splice(open.indexOf(t), 1)
    })
  }

  // A warning catches a broken server only if the correct server does not earn the same one.
  for (const b of BROKEN_SERVERS.filter((x) => x.outcome === 'warn')) {
    it(`the reference server gets no warning from ${b.caughtBy} (the other direction of "${b.name}")`, async () => {
      const t = await reference()
      open.push(t)
      const { summary } = await runServerChecks({ target: t.url, clock: t.clock, symbols: t.symbols, only: b.only })
      const flagged = under(summary.results, b.caughtBy).filter((r) => r.outcome !== 'pass')
      expect(flagged.map((r) => `${r.id}=${r.outcome}: ${r.message}`)).toEqual([])
      expect(summary.results.length).toBeGreaterThan(0)
      await t.close()
      open.splice(open.indexOf(t), 1)
    })
  }
})
