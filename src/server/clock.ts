/**
 * Time is a dependency: the rate-limit windows and order timestamps read `clock.now()`, so the
 * conformance runner can drive a simulated clock and test window resets without sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

/** A clock that moves only when told to: `advance(ms)` or `set(ms)`. */
export class SimulatedClock implements Clock {
  private ms: number
  constructor(startMs: number = Date.now()) {
    this.ms = startMs
  }
  now(): number {
    return this.ms
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`SimulatedClock.advance takes a non-negative number of ms, not ${ms}`)
    this.ms += ms
  }
  set(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`SimulatedClock.set takes a finite number of ms, not ${ms}`)
    this.ms = ms
  }
}
