/**
 * Checks run at the same time (--workers): window waits overlap on the target's clock, the
 * report stays in registry order and byte-identical for a seed whatever the number of workers,
 * the checks that read the run's history still see every check before them, and shared state
 * (locks) is never used by two checks at once.
 */
import { describe, expect, it } from 'vitest'
import { runServerChecks } from '../../src/check/server/index.ts'
import { allChecks } from '../../src/check/server/registry.ts'
import { schedule, type Slot } from '../../src/check/server/schedule.ts'
import { VirtualTime } from '../../src/check/server/virtual-time.ts'
import { walletDeriver } from '../../src/check/target/wallets.ts'
import { SimulatedClock } from '../../src/server/index.ts'
import { shippedContract } from '../../src/contract/index.ts'
import type { CaseResult } from '../../src/report/model.ts'
import { runOec } from '../helpers/cli.ts'
import { reference } from '../fixtures/broken-servers.ts'

const outcomes = (results: readonly CaseResult[]) => results.map((r) => `${r.id}=${r.outcome}`)

describe('window waits overlap', () => {
  // rl.reset and cap.open-orders each wait for the next window; run one after the other they
  // wait for two, side by side for one. The clock is the target's, so nothing waits for real.
  const only = ['rl.headers', 'rl.order-limit', 'rl.reset', 'cap.open-orders'] as const
  async function elapsed(workers: number): Promise<{ ms: number; results: readonly CaseResult[] }> {
    const t = await reference()
    try {
      const start = t.clock.now()
      const { summary } = await runServerChecks({ target: t.url, clock: t.clock, symbols: t.symbols, slow: true, only, workers })
      return { ms: t.clock.now() - start, results: summary.results }
    } finally {
      await t.close()
    }
  }

  it('with workers > 1 the run waits for one window, with --workers 1 for one per waiting check', async () => {
    const sequential = await elapsed(1)
    const concurrent = await elapsed(4)
    expect(sequential.ms).toBeGreaterThanOrEqual(120_000)
    expect(concurrent.ms).toBeLessThanOrEqual(60_000)
    expect(concurrent.ms).toBeGreaterThan(0)
    // The same judgement either way: every check passes, in the same order.
    expect(outcomes(concurrent.results)).toEqual(outcomes(sequential.results))
    expect(concurrent.results.filter((r) => r.outcome !== 'pass')).toEqual([])
    expect(new Set(concurrent.results.map((r) => r.id.split('/')[0]))).toEqual(new Set(only))
  }, 60_000)
})

describe('checks that read the run history', () => {
  it('see the exchanges of every earlier check, even one that waits for a window', async () => {
    // The open-order cap refusal comes after cap.open-orders has waited for the next window: a
    // history reader that ran beside it would end before that refusal exists and pass.
    const t = await reference(
      {},
      {
        transformReply: (reply) => {
          const body = reply.body as Record<string, unknown> | undefined
          if (reply.status < 400 || !body || typeof body !== 'object' || body.error !== 'limit_exceeded') return reply
          const { code: _code, ...rest } = body
          return { ...reply, body: rest }
        },
      },
    )
    try {
      const { summary } = await runServerChecks({
        target: t.url,
        clock: t.clock,
        symbols: t.symbols,
        slow: true,
        only: ['cap.open-orders', 'err.body-shape'],
        workers: 8,
      })
      const shape = summary.results.filter((r) => r.id === 'err.body-shape' || r.id.startsWith('err.body-shape/'))
      expect(
        shape.filter((r) => r.outcome === 'fail'),
        outcomes(summary.results).join(' '),
      ).not.toEqual([])
    } finally {
      await t.close()
    }
  }, 60_000)
})

describe('the virtual clock', () => {
  it('moves only when every running check waits, to the earliest time asked for, releasing only those', async () => {
    const clock = new SimulatedClock(1_000_000)
    const vt = new VirtualTime(clock)
    vt.settle(3)
    const released: string[] = []
    const a = vt.waitUntil(1_060_000).then(() => released.push(`a@${clock.now()}`))
    const b = vt.waitUntil(1_030_000).then(() => released.push(`b@${clock.now()}`))
    await Promise.resolve()
    // The third check is still sending requests in the current window: the clock holds still.
    expect(clock.now()).toBe(1_000_000)
    expect(released).toEqual([])
    // It ends: the two left both wait, so the clock goes to the earlier time, then to the later.
    vt.settle(2)
    await b
    expect(released).toEqual(['b@1030000'])
    vt.settle(1)
    await a
    expect(released).toEqual(['b@1030000', 'a@1060000'])
    expect(vt.advances).toBe(2)
    // A time already reached is no wait at all.
    await vt.waitUntil(1_000_000)
    expect(clock.now()).toBe(1_060_000)
  })
})

describe('the schedule', () => {
  const delays = [5, 1, 8, 2, 0, 6, 3, 7, 1, 4, 2, 9]
  const slots: Slot[] = delays.map((_, i) =>
    i === 9 ? { shares: ['history'] } : i === 2 || i === 5 || i === 11 ? { shares: ['book', 'tier-wallets'] } : {},
  )

  async function trace(workers: number): Promise<{ events: string[]; peak: number }> {
    const events: string[] = []
    let running = 0
    let peak = 0
    await schedule(slots, workers, async (i) => {
      events.push(`start ${i}`)
      peak = Math.max(peak, ++running)
      await new Promise((r) => setTimeout(r, delays[i]))
      running--
      events.push(`end ${i}`)
    })
    return { events, peak }
  }

  it('runs up to `workers` at once, a history reader alone between the checks before and after it, a lock held by one check at a time', async () => {
    const { events, peak } = await trace(4)
    expect(peak).toBe(4)
    const at = (e: string) => events.indexOf(e)
    for (let i = 0; i < slots.length; i++) expect(at(`end ${i}`), `slot ${i} ran`).toBeGreaterThan(at(`start ${i}`))
    for (let i = 0; i < 9; i++) expect(at(`end ${i}`)).toBeLessThan(at('start 9'))
    for (let i = 10; i < slots.length; i++) expect(at(`start ${i}`)).toBeGreaterThan(at('end 9'))
    const locked = [2, 5, 11].map((i) => [at(`start ${i}`), at(`end ${i}`)] as const).sort((a, b) => a[0] - b[0])
    for (let k = 1; k < locked.length; k++) expect(locked[k]![0], 'two lock holders overlap').toBeGreaterThan(locked[k - 1]![1])
  })

  it('runs one at a time, in order, with one worker', async () => {
    const { events, peak } = await trace(1)
    expect(peak).toBe(1)
    expect(events).toEqual(slots.flatMap((_, i) => [`start ${i}`, `end ${i}`]))
  })
})

describe('the same seed, the same report', () => {
  /** The json report without what differs by nature between runs: durations, start time, the embedded server's port. */
  function normalized(stdout: string): string {
    const doc = JSON.parse(stdout) as Record<string, unknown>
    return JSON.stringify({ ...doc, startedAt: '', target: '', durationMs: 0 }, (k, v) => (k === 'durationMs' ? 0 : v), 1)
  }
  const run = async (workers: number, seed = 5) => {
    const r = await runOec(['check', 'server', '--reporter', 'json', '--seed', String(seed), '--workers', String(workers)], {
      timeoutMs: 90_000,
    })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    return normalized(r.stdout)
  }

  it('--workers 1 and --workers 8 give the same json report, in registry order, and so does a second run', async () => {
    const one = await run(1)
    const eight = await run(8)
    const again = await run(8)
    expect(eight).toBe(one)
    expect(again).toBe(one)
    const order = new Map<string, number>(allChecks({ spec: shippedContract() }).map((c, i) => [c.id, i]))
    const ranks = (JSON.parse(one) as { results: CaseResult[] }).results.map((r) => order.get(r.id.split('/')[0]!) ?? -1)
    expect(ranks.length).toBeGreaterThan(700)
    expect(ranks.every((k, i) => k >= 0 && (i === 0 || k >= ranks[i - 1]!))).toBe(true)
  }, 240_000)

  it('derives wallet keys from the seed and the case, and from a per-run salt when there is one', () => {
    const a = walletDeriver(5)
    expect(a('auth.direct-order#0')).toBe(walletDeriver(5)('auth.direct-order#0'))
    expect(a('auth.direct-order#0')).toMatch(/^0x[0-9a-f]{64}$/)
    expect(a('auth.direct-order#1')).not.toBe(a('auth.direct-order#0'))
    expect(walletDeriver(6)('auth.direct-order#0')).not.toBe(a('auth.direct-order#0'))
    expect(walletDeriver(5, 'run-1')('auth.direct-order#0')).not.toBe(a('auth.direct-order#0'))
  })
})

describe('--workers', () => {
  for (const bad of ['0', 'abc', '1.5']) {
    it(`--workers ${bad} is a one-line usage error (exit 2)`, async () => {
      const r = await runOec(['check', 'server', '--workers', bad])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).toContain('--workers')
    })
  }

  it('is listed in --help with its defaults', async () => {
    const r = await runOec(['check', 'server', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/--workers <n>[\s\S]*default 8 with --target/)
  })
})
