/**
 * `x-stability-level` on operations (draft < alpha < beta < stable; none means stable). As in
 * oasdiff, an operation below beta promises nothing, so changes to it are not findings; a value
 * outside the four is reported, and so is a level going down or up.
 */
import type { JsonObject } from '../contract/model.ts'
import type { ChangeSink } from './collect.ts'

const LEVELS = ['draft', 'alpha', 'beta', 'stable'] as const
type Level = (typeof LEVELS)[number]

/** The operation's level, or undefined when `x-stability-level` holds something else. */
export function stabilityOf(op: JsonObject): Level | undefined {
  const v = op['x-stability-level']
  if (v === undefined) return 'stable'
  return LEVELS.find((l) => l === v)
}

/** Below the threshold (or unreadable): nothing about the operation is a promise. */
export const promisesNothing = (op: JsonObject) => {
  const level = stabilityOf(op)
  return level === undefined || level === 'draft' || level === 'alpha'
}

export function reportInvalidStability(c: ChangeSink, op: JsonObject, pointer: string, name: string): void {
  if (stabilityOf(op) !== undefined) return
  c.add(
    'api-invalid-stability-level',
    `${pointer}/x-stability-level`,
    `${name} has the x-stability-level ${JSON.stringify(op['x-stability-level'])}, not one of ${LEVELS.join(', ')}`,
    { detail: pointer },
  )
}

export function diffStability(c: ChangeSink, b: JsonObject, h: JsonObject, pointer: string, name: string): void {
  const lb = stabilityOf(b)
  const lh = stabilityOf(h)
  if (lb === undefined || lh === undefined || lb === lh) return
  const down = LEVELS.indexOf(lh) < LEVELS.indexOf(lb)
  c.add(down ? 'api-stability-decreased' : 'api-stability-increased', `${pointer}/x-stability-level`, `${name} went from ${lb} to ${lh}`, {
    before: lb,
    after: lh,
  })
}
