/** The next rate-limit window: both clocks moved a minute (only where the explorer moves the target's clock). */
import type { Command, StepOf } from './command.ts'

export const wait: Command<StepOf<'wait'>> = {
  ops: ['wait'],
  parties: () => [],
  toString: () => 'wait for the next rate-limit window',

  async run(step, { world: w }) {
    w.pair.advance?.(60_000)
    w.newWindow()
    w.record(step, [], [])
    return []
  },
}
