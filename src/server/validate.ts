/**
 * Request validation compiled once at start-up from the spec: one ajv validator per operation
 * body (and per batch item where a batch is validated item by item), one per query parameter.
 * Errors become one line naming the field.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { deref, getPointer, isObject, type JsonObject, type Operation, type FullContract } from '../contract/index.ts'
import type { Code } from '../contract/codes.ts'
import { UINT64_MAX } from '../signing/index.ts'

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020

const SPEC_ID = 'oec-spec'

export interface FieldProblem {
  /** Dotted path of the offending field (`orders[0].price`), or `body` for the whole body. */
  readonly field: string
  readonly message: string
  /** The refusal's code when it is not `invalid_field` (a price sent as a number is a signature failure). */
  readonly code?: Code<'signature_verification_failed'>
}

export interface BodyValidator {
  /** Validates the whole body (for batches: the envelope with items unchecked). */
  check(value: unknown): FieldProblem | null
  /** Batches: the array property validated item by item, and its item checker. */
  readonly items?: { readonly property: string; check(value: unknown): FieldProblem | null }
  /** oneOf bodies (DELETE /order): the index of the branch that matched. */
  branch?(value: unknown): number
}

export interface QueryParam {
  readonly name: string
  readonly required: boolean
  check(value: string): FieldProblem | null
}

/** Rewrites local `#/...` refs to point into the spec document registered with ajv. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase)
  if (!isObject(node)) return node
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${SPEC_ID}${v}` : rebase(v)
  }
  return out
}

function fieldName(path: string, extra?: string): string {
  const tokens = path
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (extra !== undefined) tokens.push(extra)
  let out = ''
  for (const t of tokens) out += /^\d+$/.test(t) ? `[${t}]` : out === '' ? t : `.${t}`
  if (out === '') return 'body'
  // A client can send a 60 KiB key: name it, but never echo it whole.
  return out.length > 80 ? `${out.slice(0, 77)}...` : out
}

const COMBINATORS = new Set(['oneOf', 'anyOf', 'allOf', 'if', 'not'])

/**
 * The most telling ajv error: an unknown field first (a typo such as `clientId` also makes
 * `client_id` missing, and the typo is the news), then the deepest path; combinators last.
 */
function pickError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  let best: ErrorObject | undefined
  const rank = (e: ErrorObject) =>
    (e.keyword === 'additionalProperties' ? 1000 : 0) + e.instancePath.split('/').length + (e.keyword === 'required' ? 1 : 0)
  for (const e of errors) {
    if (COMBINATORS.has(e.keyword)) continue
    if (!best || rank(e) > rank(best)) best = e
  }
  return best ?? errors[0]
}

/**
 * Drops the errors of oneOf branches whose discriminator (`const`, e.g. `action.type`) failed, so
 * that a bad perp order is reported inside the order action, not as "not a cancel action".
 */
function liveBranches(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  const oneOfs = errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath)
  if (oneOfs.length === 0) return errors
  const consts = errors.filter((e) => e.keyword === 'const' && oneOfs.some((p) => e.instancePath.startsWith(`${p}/`)))
  const losing = consts.map((e) => e.schemaPath.replace(/\/properties\/[^/]+\/const$/, ''))
  const kept = errors.filter((e) => !COMBINATORS.has(e.keyword) && !losing.some((l) => e.schemaPath.startsWith(`${l}/`)))
  return kept.length > 0 ? kept : consts.length > 0 ? consts : errors
}

export function describe(errors: readonly ErrorObject[] | null | undefined, prefix = ''): FieldProblem {
  const e = errors ? pickError(liveBranches(errors)) : undefined
  if (!e) return { field: 'body', message: 'invalid body' }
  const path = prefix + e.instancePath
  const params = e.params as Record<string, unknown>
  if (e.keyword === 'additionalProperties') {
    const field = fieldName(path, String(params.additionalProperty))
    return { field, message: `unknown field "${field}"` }
  }
  if (e.keyword === 'required') {
    const field = fieldName(path, String(params.missingProperty))
    return { field, message: `missing field "${field}"` }
  }
  const field = fieldName(path)
  let why = e.message ?? 'is invalid'
  if (e.keyword === 'enum' && Array.isArray(params.allowedValues))
    why = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
  if (e.keyword === 'const') why = `must be ${JSON.stringify(params.allowedValue)}`
  // The spec's uint64 bound reaches ajv as a double (18446744073709552000); say the exact 2^64-1.
  if (
    (e.keyword === 'maximum' || e.keyword === 'minimum') &&
    (params.limit === Number(UINT64_MAX) || e.keyword === 'minimum') &&
    e.parentSchema?.format === 'uint64'
  ) {
    why = `must be an integer in 0..${UINT64_MAX}`
  }
  return { field, message: field === 'body' ? `invalid body: ${why}` : `invalid field "${field}": ${why}` }
}

export interface Validators {
  body(operationId: string): BodyValidator | undefined
  query(operationId: string): readonly QueryParam[]
  /** A validator for any schema in the spec by JSON pointer (the WebSocket subscribe message). */
  schema(pointer: string): (value: unknown) => FieldProblem | null
}

const compiled = new WeakMap<FullContract, Validators>()

/** Compiled once per spec document: servers started in one process share the validators. */
export function compileValidators(spec: FullContract): Validators {
  let v = compiled.get(spec)
  if (!v) compiled.set(spec, (v = compileFresh(spec)))
  return v
}

function compileFresh(spec: FullContract): Validators {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, allowUnionTypes: true, verbose: true })
  addFormats(ajv)
  // The nonce is read exactly by readUint64; for ajv it is an integer with bounds.
  ajv.addFormat('uint64', true)
  ajv.addSchema(spec.doc as object, SPEC_ID)

  const compile = (schema: unknown): ValidateFunction => ajv.compile(rebase(schema) as object)
  const checker =
    (fn: ValidateFunction, prefix = '') =>
    (value: unknown) =>
      fn(value) ? null : describe(fn.errors, prefix)

  const bodies = new Map<string, BodyValidator>()
  const queries = new Map<string, QueryParam[]>()

  for (const op of spec.operations) {
    if (op.requestSchema) bodies.set(op.operationId, bodyValidator(spec, op, compile, checker))
    queries.set(op.operationId, queryParams(spec, op, compile, checker))
  }

  return {
    body: (id) => bodies.get(id),
    query: (id) => queries.get(id) ?? [],
    schema: (pointer) => checker(compile({ $ref: `#${pointer}` })),
  }
}

function bodyValidator(
  spec: FullContract,
  op: Operation,
  compile: (s: unknown) => ValidateFunction,
  checker: (fn: ValidateFunction, prefix?: string) => (v: unknown) => FieldProblem | null,
): BodyValidator {
  const schema = deref(spec.doc, op.requestSchema) as JsonObject
  const perItem = op.rateLimit?.perItem
  const props = isObject(schema.properties) ? schema.properties : undefined
  const arrayProp = perItem && props ? (deref(spec.doc, props[perItem]) as JsonObject | undefined) : undefined
  if (perItem && props && arrayProp && isObject(arrayProp) && arrayProp.type === 'array' && arrayProp.items !== undefined) {
    // A batch is validated item by item: the envelope accepts any items, each item is checked alone.
    const envelope = { ...schema, properties: { ...props, [perItem]: { ...arrayProp, items: true } } }
    const item = checker(compile(arrayProp.items))
    return {
      check: checker(compile(envelope)),
      items: { property: perItem, check: item },
    }
  }
  if (Array.isArray(schema.oneOf)) {
    // Try each branch; report the branch with the fewest problems so the message names a field.
    const branches = schema.oneOf.map((b) => compile(b))
    return {
      check(value) {
        let best: FieldProblem | null = null
        let bestCount = Infinity
        for (const fn of branches) {
          if (fn(value)) return null
          const n = fn.errors?.length ?? 0
          if (n < bestCount) {
            bestCount = n
            best = describe(fn.errors)
          }
        }
        return best
      },
      branch: (value) => branches.findIndex((fn) => fn(value)),
    }
  }
  return { check: checker(compile(op.requestSchema)) }
}

function queryParams(
  spec: FullContract,
  op: Operation,
  compile: (s: unknown) => ValidateFunction,
  checker: (fn: ValidateFunction, prefix?: string) => (v: unknown) => FieldProblem | null,
): QueryParam[] {
  const node = getPointer(spec.doc, op.pointer)
  const raw = isObject(node) && Array.isArray(node.parameters) ? node.parameters : []
  const out: QueryParam[] = []
  for (const p of raw) {
    const param = deref(spec.doc, p) as JsonObject
    if (!isObject(param) || param.in !== 'query') continue
    const name = String(param.name)
    const fn = checker(compile(param.schema ?? {}))
    out.push({
      name,
      required: param.required === true,
      check: (value) => {
        const problem = fn(value)
        return problem
          ? { field: name, message: `invalid query parameter "${name}": ${problem.message.replace(/^invalid body: /, '')}` }
          : null
      },
    })
  }
  return out
}
