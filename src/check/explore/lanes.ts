/**
 * The lanes of a shard on a live target: several sequences in flight, one of them sending at a
 * time. A sequence holds the turn from its first request to its last, so the target and the
 * oracle see every request in the same order (they share the shard's books and clock); it gives
 * the turn up only while it sleeps through a `wait`, the one step that spends real time doing
 * nothing, and another lane's sequence runs meanwhile.
 *
 * The oracle's clock moves one window for the sleepers, and only while no sequence holds the turn
 * (so it never jumps under a sequence between two of its steps). The sleepers due then resume;
 * one not yet due stays asleep past that move, and its wallets are fresh on both sides when it
 * resumes: the target's window it was told about has ended, and the oracle's has too.
 */

interface Sleeper {
  readonly wake: number
  readonly resume: () => void
}

export class Lanes {
  private held = false
  /** Lanes waiting for the turn, first come first served; a resumed sleeper goes first. */
  private readonly queue: (() => void)[] = []
  private sleepers: Sleeper[] = []
  private timer: NodeJS.Timeout | undefined

  /**
   * @param advance Moves the oracle's clock one window (no sequence holds the turn then).
   * @param now The time wakes are measured in.
   */
  constructor(
    private readonly advance: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves once this lane holds the turn. */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push(resolve)
      this.next()
    })
  }

  /** The holder gives the turn up (its sequence ended). */
  release(): void {
    this.held = false
    this.next()
  }

  /**
   * The holder sleeps until `wake` (a `Date.now()` time) and the oracle's clock has moved one
   * window since; the turn is its again when this resolves.
   */
  sleep(wake: number): Promise<void> {
    return new Promise((resume) => {
      this.sleepers.push({ wake, resume })
      this.release()
    })
  }

  private next(): void {
    if (this.held) return
    const now = this.now()
    const due = this.sleepers.filter((s) => s.wake <= now)
    if (due.length) {
      this.advance()
      this.sleepers = this.sleepers.filter((s) => s.wake > now)
      this.queue.unshift(...due.map((s) => s.resume))
    }
    const go = this.queue.shift()
    if (go) {
      this.held = true
      go()
    }
    this.arm()
  }

  /** A timer for the earliest sleeper, so that it wakes when nobody releases the turn. */
  private arm(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    if (!this.sleepers.length) return
    const wake = Math.min(...this.sleepers.map((s) => s.wake))
    this.timer = setTimeout(() => this.next(), Math.max(0, wake - this.now()))
  }
}
