/**
 * One wallet's consumed nonces as an interval set: sorted, disjoint, non-adjacent runs
 * `[start, end]` (inclusive). A client that counts its nonces up one by one costs one run however
 * many orders it sends, which is what lets the `--data` store stop growing (a consumed nonce must
 * stay consumed forever, so it cannot simply be dropped). Gaps stay free and a lower nonce is
 * still accepted once: it becomes a run of its own, or joins a neighbour. Sparse nonces
 * (milliseconds, say) cost one run each, as one record each did before.
 *
 * Pure: `add` reports which run to write and which runs' starts are gone, for the store to journal.
 */

/** `[start, end]`, both consumed, every nonce between too. */
export type Run = readonly [start: bigint, end: bigint]

/** The change `add` made, as the store journals it: write `put` (keyed by its start), delete `gone`. */
export interface RunChange {
  readonly put: Run
  readonly gone: readonly bigint[]
}

/** Index of the last run starting at or before `n`, -1 when none. */
function floorIndex(runs: readonly Run[], n: bigint): number {
  let lo = 0
  let hi = runs.length - 1
  // Nonces mostly increase: the last run is the usual answer.
  if (hi >= 0 && runs[hi]![0] <= n) return hi
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (runs[mid]![0] <= n) lo = mid + 1
    else hi = mid - 1
  }
  return hi
}

export function covers(runs: readonly Run[], n: bigint): boolean {
  const i = floorIndex(runs, n)
  return i >= 0 && runs[i]![1] >= n
}

/** Adds `n` to `runs` in place; undefined when it was there already. */
export function addNonce(runs: Run[], n: bigint): RunChange | undefined {
  const i = floorIndex(runs, n)
  const left = i >= 0 ? runs[i] : undefined
  if (left && left[1] >= n) return undefined
  const right = runs[i + 1]
  const joinsLeft = left !== undefined && left[1] === n - 1n
  const joinsRight = right !== undefined && right[0] === n + 1n
  if (joinsLeft && joinsRight) {
    const merged: Run = [left[0], right[1]]
    runs.splice(i, 2, merged)
    return { put: merged, gone: [right[0]] }
  }
  if (joinsLeft) {
    const grown: Run = [left[0], n]
    runs[i] = grown
    return { put: grown, gone: [] }
  }
  if (joinsRight) {
    const grown: Run = [n, right[1]]
    runs[i + 1] = grown
    return { put: grown, gone: [right[0]] }
  }
  const alone: Run = [n, n]
  runs.splice(i + 1, 0, alone)
  return { put: alone, gone: [] }
}
