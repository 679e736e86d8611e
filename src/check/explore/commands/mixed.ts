/** Two different operations on one piece of state at once, judged by invariants (races.ts). */
import { runMixed } from '../races.ts'
import { AGENTS } from '../steps.ts'
import { plain, type Command, type StepOf } from './command.ts'
import { sequenceView } from './view.ts'

export const mixed: Command<StepOf<'mixed'>> = {
  ops: ['mixed'],
  parties: (step) => (step.race === 'cancel-cancel' ? [`w${step.wallet}`] : [`w${step.wallet}`, `a${step.agent % AGENTS}`]),
  toString: plain,
  run: (step, { world: w }) => runMixed(sequenceView(w), step),
}
