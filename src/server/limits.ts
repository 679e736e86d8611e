/**
 * Per-wallet rate limits: fixed windows aligned to the epoch (`floor(now / window) * window`),
 * three independent categories. A charge is all-or-nothing so that a batch that would cross a
 * limit consumes nothing.
 */
import type { RateCategory } from '../contract/index.ts'

export type { RateCategory }
export type CategoryLimits = Readonly<Record<RateCategory, number>>
export type Cost = Partial<Record<RateCategory, number>>

export interface WindowStatus {
  readonly limit: number
  readonly remaining: number
  /** Unix time in seconds at which the current window ends. */
  readonly reset: number
}

export type ChargeResult = { ok: true } | { ok: false; category: RateCategory; limit: number; reset: number }

/** The rate-limit seam: a broken test server wraps or replaces it (shared counters, batch counted once...). */
export interface RateLimiter {
  /** Charges every category of `cost` if each has room in the current window, else nothing. */
  charge(wallet: string, cost: Cost, limits: CategoryLimits, nowMs: number): ChargeResult
  /** The wallet's counters in one category, without charging. */
  status(wallet: string, category: RateCategory, limit: number, nowMs: number): WindowStatus
}

/** One wallet's counters in one window (`start` in ms since the epoch). */
export interface Window {
  start: number
  used: Record<RateCategory, number>
}

/** A data directory keeps the windows across restarts: it is told every charge and hands back the saved windows. */
export interface WindowJournal {
  charged(wallet: string, window: Readonly<Window>): void
  /** Windows saved before a restart; those of a past window are ignored. */
  readonly saved: Iterable<[string, Window]>
}

export function createRateLimiter(windowSeconds: number, journal?: WindowJournal): RateLimiter {
  const windowMs = windowSeconds * 1000
  const windows = new Map<string, Window>()
  let lastSweep = 0
  for (const [wallet, w] of journal?.saved ?? []) windows.set(wallet, { start: w.start, used: { ...w.used } })

  const current = (wallet: string, nowMs: number): Window => {
    const start = Math.floor(nowMs / windowMs) * windowMs
    if (start !== lastSweep) {
      // Forget wallets whose window has ended, once per window, so memory follows live wallets.
      for (const [k, w] of windows) if (w.start < start) windows.delete(k)
      lastSweep = start
    }
    let w = windows.get(wallet)
    if (!w || w.start !== start) {
      w = { start, used: { orders: 0, cancels: 0, api: 0 } }
      windows.set(wallet, w)
    }
    return w
  }

  return {
    charge(wallet, cost, limits, nowMs) {
      const w = current(wallet, nowMs)
      const reset = (w.start + windowMs) / 1000
      // for-in, not Object.entries: no pair arrays per request on the order path.
      for (const cat in cost) {
        const c = cat as RateCategory
        const n = cost[c]!
        if (n > 0 && w.used[c] + n > limits[c]) return { ok: false, category: c, limit: limits[c], reset }
      }
      for (const cat in cost) w.used[cat as RateCategory] += cost[cat as RateCategory]!
      journal?.charged(wallet, w)
      return { ok: true }
    },
    status(wallet, category, limit, nowMs) {
      const w = current(wallet, nowMs)
      return { limit, remaining: Math.max(0, limit - w.used[category]), reset: (w.start + windowMs) / 1000 }
    },
  }
}
