/**
 * The concurrency checks: each race-faulty server is caught by its check in every one of several
 * runs, over real HTTP on loopback; the reference server, the embedded one and every
 * assumption-variant server pass all of them.
 */
import { describe, expect, it } from 'vitest'
import { runServerChecks } from '../../src/check/server/index.ts'
import type { CaseResult } from '../../src/report/model.ts'
import { reference, type Target } from './broken-servers.ts'
import { CONCURRENCY_CHECKS, RACE_SERVERS } from './race-servers.ts'
import { VARIANT_SERVERS } from './variant-servers.ts'

const RUNS = 3

const line = (results: readonly CaseResult[]) => results.map((r) => `${r.id}=${r.outcome}${r.message ? ` (${r.message})` : ''}`).join('; ')

async function run(t: Target, only: readonly string[]): Promise<readonly CaseResult[]> {
  const { summary } = await runServerChecks({
    target: t.url,
    clock: t.clock,
    symbols: t.symbols,
    only,
    slow: true,
    ...(t.tierWallets ? { tierWallets: t.tierWallets } : {}),
  })
  return summary.results
}

describe('race-faulty servers are caught', () => {
  for (const server of RACE_SERVERS) {
    for (const id of server.caughtBy) {
      it(`${server.name} (${server.how}) → ${id} fails in ${RUNS} runs of ${RUNS}`, async () => {
        for (let i = 0; i < RUNS; i++) {
          const t = await server.start()
          try {
            const results = await run(t, [id])
            const failed = results.filter((r) => r.id === id && r.outcome === 'fail')
            expect(failed, `run ${i + 1}: ${line(results)}`).toHaveLength(1)
            expect(failed[0]!.details?.request).toBeTruthy()
          } finally {
            await t.close()
          }
        }
      }, 60_000)
    }
  }
})

describe('correct servers pass every concurrency check', () => {
  const expectAllPass = (results: readonly CaseResult[]) => {
    expect(results.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}=${r.outcome}: ${r.message}`)).toEqual([])
    expect(results.map((r) => r.id).sort()).toEqual([...CONCURRENCY_CHECKS].sort())
  }

  it('the reference server on loopback', async () => {
    const t = await reference()
    try {
      expectAllPass(await run(t, CONCURRENCY_CHECKS))
    } finally {
      await t.close()
    }
  }, 60_000)

  it('the embedded server (the default run)', async () => {
    const { summary } = await runServerChecks({ only: CONCURRENCY_CHECKS })
    expectAllPass(summary.results)
  }, 60_000)

  for (const v of VARIANT_SERVERS) {
    it(`the variant "${v.name}"`, async () => {
      const t = await v.start()
      try {
        expect(await v.effect(t), 'the variant choice is in effect').toBe(true)
        const results = await run(t, CONCURRENCY_CHECKS)
        expect(results.filter((r) => r.outcome === 'fail').map((r) => `${r.id}: ${r.message}`)).toEqual([])
        expect(results).toHaveLength(CONCURRENCY_CHECKS.length)
      } finally {
        await t.close()
      }
    }, 60_000)
  }
})
