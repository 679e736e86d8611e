/**
 * Time on a live target: the target's own clock, read from the `Date` header of its answers, and
 * what its rate-limit headers say about time, held against that clock. A `wait` step sleeps until
 * the target has crossed the end of every window it announced in the sequence, so that the next
 * request meets fresh counters (and the oracle's clock moves one window with it).
 *
 * The tolerance: `Date` has one-second resolution and `X-RateLimit-Reset` / `Retry-After` are
 * whole seconds rounded up, so a correct answer's values sit within one second of what its own
 * `Date` implies; TIME_TOLERANCE_S allows one second more for the time the answer took.
 */
import type { Divergence } from './compare.ts'
import { invariant } from './compare.ts'
import type { HttpExchange } from '../target/http.ts'
import type { Observed } from './observe.ts'

/** Seconds a rate-limit time value may be off what the answer's own `Date` implies (see the header). */
export const TIME_TOLERANCE_S = 2

/** Under a sequence budget (no deadline bounds a wait), waits are drawn only for windows this short. */
export const MAX_UNBOUNDED_WINDOW_S = 10

/**
 * The target's clock as seen from here: the largest `Date − local receipt time` over its answers
 * (each one a lower bound of the offset, since `Date` is the second the answer was made in).
 */
export class TargetClock {
  private offset: number | undefined

  /** Takes one answer's `Date` header, received at local time `atMs`. */
  observe(date: string | undefined, atMs: number): void {
    const ms = date === undefined ? Number.NaN : Date.parse(date)
    if (!Number.isFinite(ms)) return
    const lower = ms - atMs
    if (this.offset === undefined || lower > this.offset) this.offset = lower
  }

  /** The target's time now (ms), never ahead of it by more than the answers' latency; undefined before any `Date`. */
  now(atMs: number = Date.now()): number | undefined {
    return this.offset === undefined ? undefined : atMs + this.offset
  }
}

/** Steps judged by invariants, not answer by answer: what they charge is not seen by the watch. */
const UNSEEN = new Set(['burst', 'flood', 'race', 'mixed', 'replay', 'fill'])
/** Where `heard` keeps the windows of answers not tied to a wallet here. */
const UNSEEN_KEY = '(unseen)'

/** What a sequence on a live target needs to move through time. */
export interface LiveTime {
  readonly clock: TargetClock
  /** The target's window length in seconds (its profile, `--rate-window`; default the spec's). */
  readonly windowSeconds: number
  /** `Date.now()` time no wait may pass (a time budget); absent: a sequence budget. */
  readonly deadline?: number | undefined
  /**
   * Sleeps until `wake` (a `Date.now()` time); when it resolves, the oracle's clock has moved one
   * window (lanes.ts: other sequences of the shard may run meanwhile).
   */
  sleep(wake: number): Promise<void>
}

/**
 * Each side's own time, for a perp action's `expiresAfter` (steps.ts `ExpiryPick`): the target's
 * as read from its answers (a live target) or as the explorer sets it, the oracle's as the
 * explorer sets it.
 */
export interface SideClocks {
  /** The target's time now (ms); undefined before its first `Date`. */
  target(): number | undefined
  oracle(): number
  /**
   * How far ahead of each side's now an `ahead` expiry is set: more than a step takes on that
   * side's clock, less than one wait moves it (a live wait sleeps past it, TimeWatch.expiry).
   */
  readonly ahead: { readonly target: number; readonly oracle: number }
}

const int = (v: string | undefined): number | undefined => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : undefined)

/** The answer's own time in whole Unix seconds, from its `Date` header. */
function dateOf(t: Observed): number | undefined {
  const d = t.headers.date
  const ms = d === undefined ? Number.NaN : Date.parse(d)
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined
}

/**
 * The time values of one target answer against its own `Date`: the Reset within one window ahead
 * (RL-9), on a window boundary (RL-11, assumed), and a 429's Retry-After the seconds until that
 * Reset (RL-8). Pure.
 */
export function timeDivergences(t: Observed, windowSeconds: number): Divergence[] {
  const now = dateOf(t)
  const reset = int(t.headers['x-ratelimit-reset'])
  if (now === undefined || reset === undefined) return []
  const out: Divergence[] = []
  const ahead = reset - now
  if (ahead < -TIME_TOLERANCE_S || ahead > windowSeconds + TIME_TOLERANCE_S)
    out.push(invariant('RL-9', `X-RateLimit-Reset ${reset} is ${ahead} s from the answer's Date (${now}); a window is ${windowSeconds} s`))
  else if (reset % windowSeconds !== 0)
    out.push(invariant('RL-11', `X-RateLimit-Reset ${reset} is not on a ${windowSeconds} s boundary of the epoch`))
  const retry = int(t.headers['retry-after'])
  if (t.status === 429 && retry !== undefined && Math.abs(retry - ahead) > TIME_TOLERANCE_S)
    out.push(
      invariant('RL-8', `Retry-After ${retry} s, but the window resets ${ahead} s after the answer's Date (X-RateLimit-Reset ${reset})`),
    )
  return out
}

/**
 * One sequence's view of the target's time: the windows each wallet was told about, and after a
 * wait, whether each wallet's first answer past its announced end shows fresh counters (RL-1:
 * counters reset every window, whatever the wallet did just before).
 */
export class TimeWatch {
  /** The latest X-RateLimit-Reset told to each wallet. */
  private readonly announced = new Map<string, number>()
  /** After a wait: the end each wallet's first answer must be past. */
  private armed = new Map<string, number>()
  /** The latest perp `expiresAfter` set ahead on the target's clock (ms): the next wait sleeps past it. */
  private expiry = 0

  constructor(private readonly live: LiveTime) {}

  /**
   * Called as each step starts. Steps whose requests are not answered one by one through
   * `answer` (bursts, floods, races, mixed races, replays, fills) charge wallets unseen: no first
   * answer after them is judged.
   */
  step(op: string): void {
    if (UNSEEN.has(op)) this.armed.clear()
  }

  /** The time divergences of one answer of the target for `account` (the wallet charged); `units` at most what it could charge in one category. */
  answer(t: Observed, account: string, units: number): Divergence[] {
    this.live.clock.observe(t.headers.date, Date.now())
    const out = timeDivergences(t, this.live.windowSeconds)
    const key = account.toLowerCase()
    const reset = int(t.headers['x-ratelimit-reset'])
    const end = this.armed.get(key)
    this.armed.delete(key)
    const now = dateOf(t)
    const [limit, left] = [int(t.headers['x-ratelimit-limit']), int(t.headers['x-ratelimit-remaining'])]
    if (end !== undefined && now !== undefined && now >= end + 1 && limit !== undefined && left !== undefined && left < limit - units)
      out.push(
        invariant(
          'RL-1',
          `the window announced to end at ${end} had ended (Date ${now}), yet the first answer after it leaves ${left} of ${limit}`,
        ),
      )
    if (reset !== undefined) this.announced.set(key, Math.max(reset, this.announced.get(key) ?? 0))
    return out
  }

  /**
   * A target answer judged by invariants, not through `answer` (a fill's floods): its clock and
   * the window it announces still count for the next wait, and what it charged was unseen, so no
   * first answer after it is judged.
   */
  heard(e: HttpExchange): void {
    const headers = e.response?.headers ?? {}
    this.live.clock.observe(headers.date, Date.now())
    const reset = int(headers['x-ratelimit-reset'])
    if (reset !== undefined) this.announced.set(UNSEEN_KEY, Math.max(reset, this.announced.get(UNSEEN_KEY) ?? 0))
    this.armed.clear()
  }

  /**
   * A step's target exchanges, as recorded: those of a step judged by invariants are heard, so
   * that the window they charged counts for the next wait (a wait after a burst sleeps past the
   * window the burst charged, not only past the one announced before it).
   */
  recorded(op: string, exchanges: readonly HttpExchange[]): void {
    if (UNSEEN.has(op)) for (const e of exchanges) this.heard(e)
  }

  /** A perp `expiresAfter` (target ms, at most a window ahead) that the next wait must cross. */
  expiresAt(ms: number): void {
    this.expiry = Math.max(this.expiry, ms)
  }

  /**
   * Sleeps until the target's clock is past the end of every window it announced in this sequence
   * and every expiry set ahead (at most a window and a second; never past the deadline), then
   * moves the oracle one window. False when there was nothing to cross or no time to cross it.
   */
  async wait(): Promise<boolean> {
    const last = Math.max(0, ...this.announced.values()) * 1000
    const now = this.live.clock.now()
    if ((last === 0 && this.expiry === 0) || now === undefined) return false
    // 50 ms past the second after the end: the answer's Date (whole seconds) then shows the
    // crossing too; the clock read is a lower bound of the target's, so an expiry is past as well.
    const sleep = Math.min(Math.max(last, this.expiry) + 1050 - now, (this.live.windowSeconds + 1) * 1000 + 50)
    if (this.live.deadline !== undefined && Date.now() + sleep > this.live.deadline) return false
    await this.live.sleep(Date.now() + Math.max(0, sleep))
    this.armed = new Map(this.announced)
    this.expiry = 0
    return true
  }
}
