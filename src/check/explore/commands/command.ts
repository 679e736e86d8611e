/**
 * What a step kind is, as fast-check models commands: which parties it touches (`parties`), how
 * it runs on both sides and what it shows (`run`), its one line (`toString`) and, for a kind a
 * burst may repeat, its request built once without sending (`burstBody`). A new step kind is one
 * file implementing this and a line in the registry (index.ts).
 */
import type { OperationId } from '../../../contract/generated/types.ts'
import type { Divergence } from '../compare.ts'
import { tookEffect, type AnswerKind, type Observed } from '../observe.ts'
import type { Step } from '../steps.ts'
import type { StepVerdict, World } from '../world.ts'

/** A step of one of the given kinds. */
export type StepOf<K extends Step['op']> = Extract<Step, { op: K }>

/** What a command runs with: the sequence's world, and the other commands (a burst runs another kind's request). */
export interface Ctx {
  readonly world: World
  command(op: Step['op']): Command
}

export interface Command<S extends Step = Step> {
  /** The step kinds it serves. */
  readonly ops: readonly S['op'][]
  /** The sequence's parties (`w<i>`, `a<j>`) the step acts for or reads: its wallet, its agent, the owner of an order it names. */
  parties(step: S, ctx: Ctx): string[]
  run(step: S, ctx: Ctx): Promise<StepVerdict>
  /** One line for reports and fast-check's counterexample (`describe`: any step's line, for a step inside this one). */
  toString(step: S, describe: (s: Step) => string): string
  /** The step's one request, built (nonces drawn, signed) but not sent, repeated n times at once by a burst. */
  burstBody?(step: S, ctx: Ctx, n: number): Promise<Built>
}

export interface BuiltBody {
  readonly text: string
  readonly account: string
  readonly nonce: bigint
  readonly wallet: number
  readonly clientId?: string
  /** The items of a batch body, in order. */
  readonly batch?: readonly { readonly nonce: bigint; readonly clientId?: string }[]
}

/** Requests sent at once to one operation (a burst's or a flood's). */
export interface Built {
  readonly op: OperationId
  readonly kind: AnswerKind
  readonly wallets: readonly number[]
  readonly bodies: readonly BuiltBody[]
}

/** The default line: the kind and the step's fields. */
export function plain(s: Step): string {
  const { op, ...rest } = s
  return `${op} ${JSON.stringify(rest)}`
}

/** Either side changed state: only then is there new visible state to compare. */
export function changed(t: Observed, o: Observed): boolean {
  return tookEffect(t) || tookEffect(o)
}

export function repeat(n: number, b: BuiltBody): BuiltBody[] {
  return Array.from({ length: n }, () => b)
}

export function uniqueByRule(ds: readonly Divergence[]): Divergence[] {
  const seen = new Set<string>()
  return ds.filter((d) => (seen.has(d.rule) ? false : (seen.add(d.rule), true)))
}
