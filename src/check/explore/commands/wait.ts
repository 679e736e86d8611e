/**
 * The next rate-limit window: both clocks moved a minute where the explorer moves the target's
 * clock; on a live target, a sleep until the target has crossed every window it announced (clock.ts).
 */
import type { Command, StepOf } from './command.ts'

export const wait: Command<StepOf<'wait'>> = {
  ops: ['wait'],
  parties: () => [],
  toString: () => 'wait for the next rate-limit window',

  async run(step, { world: w }) {
    if (w.pair.advance) w.pair.advance(60_000)
    if (w.pair.advance || (await w.time?.wait())) w.newWindow()
    w.record(step, [], [])
    return []
  },
}
