/**
 * The order checks start in when up to `workers` run at once. Checks are independent unless
 * they say what they share (`Check.shares`): a check that reads the run's history runs alone,
 * once every earlier check is done, and no later check starts before it ends (it must see
 * exactly the exchanges before it); checks naming the same lock never overlap. Otherwise
 * checks start in registry order, a check whose lock is held letting later ones go first.
 */
import type { Shared } from './types.ts'

export interface Slot {
  readonly shares?: readonly Shared[]
}

export interface ScheduleHooks {
  /** Called with the number of running checks after each batch of starts (an end starts a batch): the virtual clock may move then. */
  readonly settle?: (running: number) => void
  /** Wraps each batch of starts (the virtual clock holds still until the batch has started). */
  readonly batch?: (start: () => void) => void
}

/** Runs `run(i)` for every slot; resolves when all have finished (rejects on the first crash of the runner itself). */
export function schedule(
  slots: readonly Slot[],
  workers: number,
  run: (i: number) => Promise<void>,
  hooks: ScheduleHooks = {},
): Promise<void> {
  const state: ('pending' | 'running' | 'done')[] = slots.map(() => 'pending')
  const held = new Set<string>()
  let running = 0
  let finished = 0
  const locksOf = (i: number) => (slots[i]!.shares ?? []).filter((s) => s !== 'history')
  const alone = (i: number) => (slots[i]!.shares ?? []).includes('history')

  return new Promise<void>((resolve, reject) => {
    const start = (i: number) => {
      state[i] = 'running'
      running++
      for (const l of locksOf(i)) held.add(l)
      run(i).then(() => finish(i), reject)
    }
    const startEligible = () => {
      let earlierPending = false
      for (let i = 0; i < slots.length && running < workers; i++) {
        if (state[i] === 'done') continue
        if (alone(i)) {
          // A barrier: nothing past it starts before it has run.
          if (state[i] === 'pending' && running === 0 && !earlierPending) start(i)
          return
        }
        if (state[i] === 'running') continue
        if (locksOf(i).some((l) => held.has(l))) {
          earlierPending = true
          continue
        }
        start(i)
      }
    }
    const pump = () => {
      if (hooks.batch) hooks.batch(startEligible)
      else startEligible()
      if (finished === slots.length) resolve()
      hooks.settle?.(running)
    }
    const finish = (i: number) => {
      state[i] = 'done'
      running--
      finished++
      for (const l of locksOf(i)) held.delete(l)
      pump()
    }
    pump()
  })
}
