/**
 * The concurrency checks: each race-faulty server is caught by its check in every one of several
 * runs, over real HTTP on loopback; the reference server, the embedded one and every
 * assumption-variant server pass all of them.
 */
import { describe, expect, it } from 'vitest'
import { runServerChecks } from '../../src/check/server/index.ts'
import type { CaseResult } from '../../src/report/model.ts'
import { createRateLimiter, type RateLimiter } from '../../src/server/index.ts'
import { reference, type Target } from '../fixtures/broken-servers.ts'
import { CONCURRENCY_CHECKS, RACE_SERVERS } from '../fixtures/race-servers.ts'
import { VARIANT_SERVERS } from '../fixtures/variant-servers.ts'

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

describe('a window that rolls over in the middle of a burst', () => {
  /** A correct limiter on a clock that moves to the next window once `after` units of `category` are charged. */
  function rolling(
    category: 'orders' | 'cancels',
    after: number,
  ): { limiter: RateLimiter; roll: { to?: () => void }; through: () => number } {
    const real = createRateLimiter(60)
    const roll: { to?: () => void } = {}
    let charged = 0
    return {
      roll,
      through: () => charged,
      limiter: {
        charge(wallet, cost, limits, nowMs) {
          const r = real.charge(wallet, cost, limits, nowMs)
          const n = cost[category] ?? 0
          if (r.ok && n > 0) {
            const before = charged
            charged += n
            if (before < after && charged >= after) roll.to?.()
          }
          return r
        },
        status: real.status,
      },
    }
  }

  for (const [id, category] of [
    ['rl.order-burst', 'orders'],
    ['rl.bulk-race', 'orders'],
    ['rl.cancel-burst', 'cancels'],
  ] as const) {
    it(`fails no correct server: ${id}, more than a window's limit through in two windows`, async () => {
      const r = rolling(category, 30)
      const t = await reference({}, { rateLimiter: r.limiter })
      r.roll.to = () => t.clock.advance(60_000)
      try {
        const results = await run(t, [id])
        expect(results.map((x) => `${x.id}=${x.outcome}${x.message ? ` (${x.message})` : ''}`)).toEqual([`${id}=pass`])
        // The burst really did straddle: more got through than one window allows.
        const limit = category === 'orders' ? 60 : 120
        expect(r.through()).toBeGreaterThan(limit)
      } finally {
        await t.close()
      }
    }, 60_000)
  }
})
