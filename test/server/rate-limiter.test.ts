/** The rate limiter itself (the seam behind 429s): window edges, all-or-nothing charges, exact bounds. */
import { describe, expect, it } from 'vitest'
import { createRateLimiter } from '../../src/server/limits.ts'

const LIMITS = { orders: 3, cancels: 2, api: 5 }
const MIN = 60_000

describe('createRateLimiter', () => {
  it('a fresh wallet has the whole limit in every category; reset is the end of the epoch-aligned window in seconds', () => {
    const rl = createRateLimiter(60)
    for (const cat of ['orders', 'cancels', 'api'] as const) {
      expect(rl.status('w', cat, 7, 10 * MIN + 1)).toEqual({ limit: 7, remaining: 7, reset: 660 })
    }
    // The last millisecond of a window still belongs to it; the next one opens the next window.
    expect(rl.status('w', 'orders', 7, 11 * MIN - 1).reset).toBe(660)
    expect(rl.status('w', 'orders', 7, 11 * MIN).reset).toBe(720)
    expect(createRateLimiter(10).status('w', 'orders', 1, 25_000).reset).toBe(30)
  })

  it('charges up to exactly the limit, then refuses the next unit naming category, limit and reset', () => {
    const rl = createRateLimiter(60)
    const t = 5 * MIN + 30_000
    expect(rl.charge('w', { orders: 2 }, LIMITS, t)).toEqual({ ok: true })
    expect(rl.charge('w', { orders: 1 }, LIMITS, t)).toEqual({ ok: true })
    expect(rl.status('w', 'orders', 3, t)).toEqual({ limit: 3, remaining: 0, reset: 360 })
    expect(rl.charge('w', { orders: 1 }, LIMITS, t)).toEqual({ ok: false, category: 'orders', limit: 3, reset: 360 })
    // Other categories and other wallets are untouched.
    expect(rl.status('w', 'cancels', 2, t).remaining).toBe(2)
    expect(rl.status('v', 'orders', 3, t).remaining).toBe(3)
  })

  it('all or nothing: a cost that overflows one category charges none of them', () => {
    const rl = createRateLimiter(60)
    expect(rl.charge('w', { cancels: 2 }, LIMITS, 0)).toEqual({ ok: true })
    expect(rl.charge('w', { api: 1, orders: 1, cancels: 1 }, LIMITS, 0)).toEqual({ ok: false, category: 'cancels', limit: 2, reset: 60 })
    expect(rl.status('w', 'api', 5, 0).remaining).toBe(5)
    expect(rl.status('w', 'orders', 3, 0).remaining).toBe(3)
    expect(rl.charge('w', { api: 4, orders: 3 }, LIMITS, 0)).toEqual({ ok: true })
    expect(rl.status('w', 'api', 5, 0).remaining).toBe(1)
    expect(rl.status('w', 'orders', 3, 0).remaining).toBe(0)
  })

  it('a zero cost in a category never refuses, even when that category is over a lowered limit', () => {
    const rl = createRateLimiter(60)
    expect(rl.charge('w', { orders: 3 }, LIMITS, 0).ok).toBe(true)
    const lowered = { ...LIMITS, orders: 1 }
    expect(rl.charge('w', { orders: 0, api: 1 }, lowered, 0)).toEqual({ ok: true })
    // Remaining never goes below zero when the limit drops under what was used.
    expect(rl.status('w', 'orders', 1, 0)).toEqual({ limit: 1, remaining: 0, reset: 60 })
  })

  it('a new window starts from zero', () => {
    const rl = createRateLimiter(60)
    expect(rl.charge('w', { orders: 3 }, LIMITS, MIN - 1).ok).toBe(true)
    expect(rl.charge('w', { orders: 1 }, LIMITS, MIN - 1).ok).toBe(false)
    expect(rl.charge('w', { orders: 3 }, LIMITS, MIN).ok).toBe(true)
    expect(rl.status('w', 'orders', 3, MIN).remaining).toBe(0)
  })

  it('a clock that steps back opens that window afresh; stepping forward again keeps the later window of other wallets', () => {
    const rl = createRateLimiter(60)
    const later = 10 * MIN
    const earlier = 9 * MIN
    expect(rl.charge('w', { orders: 2 }, LIMITS, later).ok).toBe(true)
    // Back one window: another wallet's charge there does not disturb w's later window.
    expect(rl.charge('x', { orders: 1 }, LIMITS, earlier)).toEqual({ ok: true })
    expect(rl.status('x', 'orders', 3, earlier)).toEqual({ limit: 3, remaining: 2, reset: 600 })
    // Forward again: the earlier window is swept, the later one still counts what it was charged.
    expect(rl.status('w', 'orders', 3, later)).toEqual({ limit: 3, remaining: 1, reset: 660 })
    expect(rl.status('x', 'orders', 3, later)).toEqual({ limit: 3, remaining: 3, reset: 660 })
    // And w back in the earlier window: fresh counters there, not the later window's.
    expect(rl.status('w', 'orders', 3, earlier)).toEqual({ limit: 3, remaining: 3, reset: 600 })
  })
})
