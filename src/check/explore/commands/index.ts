/**
 * The registry of step kinds: each `Step['op']` to the command that serves it. The session runs a
 * step, names its parties and describes it through here; nothing else switches on the kind.
 */
import type { Step } from '../steps.ts'
import { agent } from './agent.ts'
import { bulk } from './bulk.ts'
import { burst } from './burst.ts'
import { cancel } from './cancel.ts'
import type { Command, Ctx } from './command.ts'
import { fill } from './fill.ts'
import { order } from './order.ts'
import { perp } from './perp.ts'
import { race } from './race.ts'
import { read } from './read.ts'
import { wait } from './wait.ts'

export type { Command, Ctx } from './command.ts'

/** Every command, each serving one or more kinds. */
export const COMMANDS: readonly Command[] = [order, cancel, bulk, agent, perp, read, burst, race, wait, fill]

const byOp = new Map<string, Command>()
for (const c of COMMANDS) for (const op of c.ops) byOp.set(op, c)

/** The command of a step kind. */
export function commandFor(op: Step['op']): Command {
  const c = byOp.get(op)
  if (!c) throw new Error(`no explorer command serves the step kind ${op}`)
  return c
}

/** One line per step, for reports and fast-check's counterexample. */
export function describeStep(s: Step): string {
  return commandFor(s.op).toString(s, describeStep)
}

/** What a command runs with in a sequence: its world and this registry. */
export function contextOf(world: Ctx['world']): Ctx {
  return { world, command: commandFor }
}
