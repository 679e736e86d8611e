/**
 * Ajv's errors for a document, reduced to one per mistake at the place it was made. A Schema
 * Object is `oneOf: [Schema, Reference]` in the OAI schema, so one wrong `type` also yields
 * "must have required property '$ref'" and "must match exactly one schema in oneOf" at the
 * schema and at every enclosing alternative: those only restate that a deeper error exists.
 */
import type { ErrorObject } from 'ajv'
import { toPointer } from '../contract/source.ts'

export interface SchemaError {
  /** Where the fix belongs: the offending value, or the unexpected key. */
  readonly pointer: string
  readonly message: string
}

const ALTERNATIVES = new Set(['oneOf', 'anyOf', 'if', 'then', 'else', 'not'])

/** Pointer of the value the error is about (an unexpected key points at the key itself). */
function pointerOf(e: ErrorObject): string {
  const extra =
    (e.params as { additionalProperty?: unknown; unevaluatedProperty?: unknown }).additionalProperty ??
    (e.params as { unevaluatedProperty?: unknown }).unevaluatedProperty
  return typeof extra === 'string' ? e.instancePath + toPointer([extra]) : e.instancePath
}

function describe(e: ErrorObject): string {
  const params = Object.values(e.params ?? {})
    .map((v) => (Array.isArray(v) ? v.join(', ') : String(v)))
    .join(', ')
  return `${e.message ?? 'is invalid'}${params ? ` (${params})` : ''}`
}

const isUnder = (pointer: string, ancestor: string) => pointer !== ancestor && pointer.startsWith(`${ancestor}/`)

/**
 * One error per pointer, keeping the deepest: an alternative that failed because a member did,
 * the Reference branch's missing `$ref`, and a branch's complaint about a value that has a deeper
 * error are noise. When only alternatives failed (no branch had a deeper error), the shallowest stays.
 */
export function schemaErrors(errors: readonly ErrorObject[]): SchemaError[] {
  const located = errors.map((e) => ({ e, pointer: pointerOf(e) }))
  const specific = located.filter(
    ({ e }) =>
      !ALTERNATIVES.has(e.keyword) && !(e.keyword === 'required' && (e.params as { missingProperty?: unknown }).missingProperty === '$ref'),
  )
  const pool = specific.length > 0 ? specific : located
  // Only a branch of an alternative gives way to a deeper error; two real mistakes on one path both stay.
  const inBranch = (e: ErrorObject) => /\/(oneOf|anyOf)\//.test(e.schemaPath)
  const leaves = pool.filter(({ e, pointer }) => !inBranch(e) || !pool.some((o) => isUnder(o.pointer, pointer)))
  const byPointer = new Map<string, ErrorObject[]>()
  for (const { e, pointer } of leaves) byPointer.set(pointer, [...(byPointer.get(pointer) ?? []), e])
  return [...byPointer].map(([pointer, es]) => {
    // Two branches may disagree about the same value (e.g. `type` as a name or a list): say both once.
    const messages = [...new Set(es.map(describe))]
    return { pointer, message: messages.join('; ') }
  })
}
