/**
 * Shrinking a found sequence, with a budget of its own: exploration stops drawing at its deadline,
 * but a find made just before it is still shrunk as far as one made early. A candidate counts as
 * failing only when it shows the original finding (the same rule and kind of step, `findingKey`):
 * one that diverges otherwise, or not at all, counts as passing, so shrinking never slides from
 * the divergence it was given onto another. Pure but for the `reproduce` callback.
 */
import type { Found } from './report.ts'
import type { Step } from './steps.ts'

/** Reruns of candidates at most, and milliseconds at most; either may be absent. */
export interface ShrinkBudget {
  readonly runs?: number
  readonly ms?: number
}

/** Enough for a 10-step sequence to lose every step it can; the time cap only guards a slow target. */
export const DEFAULT_SHRINK: ShrinkBudget = { runs: 200, ms: 30_000 }

/** Runs a candidate; the finding when it shows the original one again, else undefined. */
export type Reproduce = (steps: readonly Step[]) => Promise<Found | undefined>

/**
 * Removes blocks of steps, halves first then smaller ones down to single steps, keeping each
 * removal the finding survives (cut after its divergent step), until no removal survives or the
 * budget is spent. Deterministic: the candidates depend on the sequence only.
 */
export async function shrinkFound(found: Found, reproduce: Reproduce, budget: ShrinkBudget, now: () => number = Date.now): Promise<Found> {
  const start = now()
  let runs = 0
  const spent = () => (budget.runs !== undefined && runs >= budget.runs) || (budget.ms !== undefined && now() - start >= budget.ms)
  let best = found
  for (let size = best.steps.length >> 1; size >= 1; ) {
    let improved = false
    for (let at = 0; at + size <= best.steps.length; at += size) {
      if (spent()) return best
      runs++
      const shorter = await reproduce([...best.steps.slice(0, at), ...best.steps.slice(at + size)])
      if (shorter && shorter.steps.length < best.steps.length) {
        best = shorter
        improved = true
        break
      }
    }
    // After a removal that held, start again from the largest blocks of the shorter sequence.
    size = improved ? best.steps.length >> 1 : size >> 1
  }
  return best
}
