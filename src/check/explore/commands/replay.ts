/** An earlier signed write of the sequence sent again byte for byte (resend.ts). */
import { resend } from '../resend.ts'
import { plain, type Command, type StepOf } from './command.ts'
import { sequenceView } from './view.ts'

export const replay: Command<StepOf<'replay'>> = {
  ops: ['replay'],
  // Any party of the sequence may have sent it: judged on invariants alone once any is adopted.
  parties: (_step, { world: w }) => [...w.wallets.map((_x, i) => `w${i}`), ...w.agents.map((_a, j) => `a${j}`)],
  toString: plain,
  run: (step, { world: w }) => resend(sequenceView(w), step),
}
