/**
 * What no answer order can excuse, checked on the target alone: one acceptance per nonce, no more
 * orders taken in a window than its limit, and a cancel answered as done never losing to a fill.
 */
import { cmp, parseDec } from '../../server/decimal.ts'
import type { Observed } from './observe.ts'
import { invariant, type Divergence } from './compare.ts'

export class Invariants {
  private readonly takenNonces = new Map<string, Set<bigint>>()
  private readonly windowCounts = new Map<string, number>()

  /** @param defaultLimit orders a minute of the default tier (where the target sends no limit header). */
  constructor(private readonly defaultLimit: number | undefined) {}

  /** The target took a nonce of an account: a second time is NONCE-2. */
  nonceTaken(account: string, nonce: bigint): Divergence[] {
    const key = account.toLowerCase()
    let set = this.takenNonces.get(key)
    if (!set) this.takenNonces.set(key, (set = new Set()))
    if (set.has(nonce)) return [invariant('NONCE-2', `the target took nonce ${nonce} of ${account} a second time`)]
    set.add(nonce)
    return []
  }

  /** The target took `units` orders of an account in the window its answer names: past the limit is RL-1. */
  ordersTaken(account: string, t: Observed, units: number): Divergence[] {
    if (units === 0) return []
    const limit = Number(t.headers['x-ratelimit-limit'] ?? this.defaultLimit)
    const key = `${account.toLowerCase()}:${t.headers['x-ratelimit-reset'] ?? 'window'}`
    const n = (this.windowCounts.get(key) ?? 0) + units
    this.windowCounts.set(key, n)
    return n > limit ? [invariant('RL-1', `the target took ${n} orders of ${account} in one window of limit ${limit}`)] : []
  }
}

/** A race's lost update: the cancel answered as done, and the order filled in full all the same. */
export function lostUpdate(
  id: string,
  cancelStatus: number,
  cancelDone: boolean,
  end: { readonly status: string; readonly size: string; readonly filled_size: string } | undefined,
): Divergence[] {
  if (cancelDone && end && (end.status === 'FILLED' || cmp(parseDec(end.filled_size), parseDec(end.size)) === 0))
    return [
      invariant(
        'EP-2',
        `the cancel of order ${id} was answered ${cancelStatus} as done, and the order filled in full (${end.status}, ${end.filled_size} of ${end.size})`,
      ),
    ]
  return []
}
