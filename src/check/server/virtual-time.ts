/**
 * Waiting on a simulated clock when several checks run at once. A check that waits for a time
 * (a rate-limit window reset) must not move the clock under a check that is counting requests
 * in the current window, so the clock moves only when every running check is waiting: to the
 * earliest time asked for, releasing the checks that asked for it. A check never sees the clock
 * move except inside its own wait, as in a sequential run, whatever runs beside it.
 */
import type { SimulatedClock } from '../../server/index.ts'

interface Waiter {
  readonly atMs: number
  readonly release: () => void
}

export class VirtualTime {
  private readonly waiters: Waiter[] = []
  private held = 0
  /** How many checks are running, as the scheduler last said (it says so after each start or end). */
  private running = 0
  /** How many times the clock moved, and by how much in all (tests show waits overlapping). */
  advances = 0
  advancedMs = 0

  constructor(private readonly clock: SimulatedClock) {}

  /** Returns once the clock has reached `atMs`. */
  waitUntil(atMs: number): Promise<void> {
    if (this.clock.now() >= atMs) return Promise.resolve()
    return new Promise((release) => {
      this.waiters.push({ atMs, release })
      this.settle(this.running)
    })
  }

  /**
   * Defers `settle` while the scheduler starts several checks in one go: a check that waits
   * first thing must not move the clock before the others of the batch have started.
   */
  hold<T>(fn: () => T): T {
    this.held++
    try {
      return fn()
    } finally {
      this.held--
    }
  }

  /** Moves the clock when every running check waits; the scheduler calls it with its count after each start or end. */
  settle(running: number): void {
    this.running = running
    if (this.held > 0 || this.waiters.length === 0 || this.waiters.length < running) return
    const atMs = Math.min(...this.waiters.map((w) => w.atMs))
    const from = this.clock.now()
    if (atMs > from) {
      this.clock.set(atMs)
      this.advances++
      this.advancedMs += atMs - from
    }
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i]!
      if (w.atMs <= atMs) {
        this.waiters.splice(i, 1)
        w.release()
      }
    }
  }
}
