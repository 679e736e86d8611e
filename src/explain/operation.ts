/**
 * Which operation a body belongs to (named by path and method, or guessed from its keys) and
 * where its signed parts are: the body itself, one branch of a oneOf, or each item of a batch.
 */
import type { Contract } from '../contract/load.ts'
import { deref, isObject, readSignedSchema, type JsonObject, type Operation, type SignedSchema } from '../contract/model.ts'
import { InputError } from '../errors.ts'

export interface SignedPart {
  /** JSON pointer of the part inside the body ('' for the body itself). */
  readonly pointer: string
  readonly value: Record<string, unknown>
  readonly signed: SignedSchema
  /** The part's schema, refs resolved one level. */
  readonly schema: JsonObject
  readonly properties: Readonly<Record<string, unknown>>
}

const token = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1')

function propsOf(doc: unknown, schema: JsonObject): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (!isObject(schema.properties)) return out
  for (const [k, v] of Object.entries(schema.properties)) out[k] = deref(doc, v)
  return out
}

/** Keys the schema does not name plus required keys the value lacks: 0 is a perfect fit. */
function misfit(doc: unknown, schema: unknown, value: unknown): number {
  const s = deref(doc, schema)
  if (!isObject(s)) return 0
  if (Array.isArray(s.oneOf)) return Math.min(...s.oneOf.map((b) => misfit(doc, b, value)))
  if (!isObject(value)) return 10
  const props = isObject(s.properties) ? s.properties : {}
  const required = Array.isArray(s.required) ? s.required.map(String) : []
  let n = 0
  for (const k of Object.keys(value)) if (!(k in props)) n++
  for (const k of required) if (!(k in value)) n++
  return n
}

/** The signed parts of `value` under `schema`: found by walking objects, arrays and oneOf branches. */
export function signedParts(doc: unknown, schema: unknown, value: unknown, pointer = ''): SignedPart[] {
  let s = deref(doc, schema)
  if (!isObject(s)) return []
  if (Array.isArray(s.oneOf)) {
    let best: unknown
    let bestScore = Infinity
    for (const b of s.oneOf) {
      const score = misfit(doc, b, value)
      if (score < bestScore) {
        bestScore = score
        best = b
      }
    }
    s = deref(doc, best)
    if (!isObject(s)) return []
  }
  const signed = readSignedSchema(s)
  if (signed && isObject(value)) return [{ pointer, value, signed, schema: s, properties: propsOf(doc, s) }]
  if (Array.isArray(value)) return value.flatMap((v, i) => signedParts(doc, (s as JsonObject).items, v, `${pointer}/${i}`))
  if (isObject(value) && isObject(s.properties)) {
    return Object.entries(s.properties).flatMap(([k, p]) => (k in value ? signedParts(doc, p, value[k], `${pointer}/${token(k)}`) : []))
  }
  return []
}

function signedOperations(contract: Contract): Operation[] {
  return contract.operations.filter((op) => op.requestSchema !== undefined && hasSigned(contract.doc, op.requestSchema, 0))
}

function hasSigned(doc: unknown, schema: unknown, depth: number): boolean {
  const s = deref(doc, schema)
  if (!isObject(s) || depth > 6) return false
  if (readSignedSchema(s)) return true
  if (Array.isArray(s.oneOf) && s.oneOf.some((b) => hasSigned(doc, b, depth + 1))) return true
  if (s.items !== undefined && hasSigned(doc, s.items, depth + 1)) return true
  return isObject(s.properties) && Object.values(s.properties).some((p) => hasSigned(doc, p, depth + 1))
}

/**
 * The operations a request may be: the one path and method name, or the signed operations whose
 * body schema fits the body best (several when shapes coincide, as ApproveAgent and RevokeAgent do).
 */
export function resolveOperations(
  contract: Contract,
  value: unknown,
  named: { operationId?: string | undefined; method?: string | undefined; path?: string | undefined },
): Operation[] {
  const signed = signedOperations(contract)
  const list = signed.map((o) => `${o.method} ${o.path}`).join(', ')
  if (named.operationId !== undefined) {
    const op = signed.find((o) => o.operationId === named.operationId)
    if (!op)
      throw new InputError(
        `unknown operation ${JSON.stringify(named.operationId)}: signed operations are ${signed.map((o) => o.operationId).join(', ')}`,
      )
    return [op]
  }
  if (named.path !== undefined) {
    const path = named.path.split('?')[0]!
    const method = named.method?.toUpperCase()
    const ops = signed.filter((o) => o.path === path && (method === undefined || o.method === method))
    if (ops.length === 0)
      throw new InputError(`unknown operation ${method ?? ''}${method ? ' ' : ''}${path}: signed operations are ${list}`)
    if (ops.length === 1) return ops
    return best(contract, ops, value)
  }
  if (named.method !== undefined) throw new InputError('--method needs --path')
  const fits = best(contract, signed, value)
  if (fits.length === 0)
    throw new InputError(`unknown operation: the body fits none of the signed operations (${list}); name it with --path and --method`)
  return fits
}

function best(contract: Contract, ops: readonly Operation[], value: unknown): Operation[] {
  if (!isObject(value)) return []
  const scored = ops.map((op) => ({ op, score: misfit(contract.doc, op.requestSchema, value) }))
  const min = Math.min(...scored.map((x) => x.score))
  // A body that misses most of every shape is not a request of this contract.
  if (min > Math.max(1, Math.floor(Object.keys(value).length / 2))) return []
  return scored.filter((x) => x.score === min).map((x) => x.op)
}
