/**
 * The tables client.ts runs on, read from the spec: for every operation how its request is
 * made (query parameters, a body signed as a whole, a batch whose items are signed one by one,
 * the perp Agent over a msgpack action hash, or plain JSON), and the key order the perp action
 * is hashed in. The run-time text only walks these tables, so a spec that adds an operation or
 * a batch shape gets its method without a hand-kept list.
 */
import { deref, getPointer, isObject, readSignedSchema, type JsonObject, type Operation, type SignedSchema } from '../src/contract/model.ts'
import type { Contract } from '../src/contract/load.ts'
import { specError, type SchemaContext } from './schema.ts'

/** How a (part of a) request body is built from the caller's input. */
export type BodyPlan =
  | { readonly signed: readonly string[] }
  | { readonly perp: PerpPlan }
  | { readonly items: BodyPlan }
  | { readonly props: Readonly<Record<string, BodyPlan>> }
  | { readonly plain: true }

export interface PerpPlan {
  /** The `x-eip712.messages` id of the signed struct (Agent). */
  readonly message: string
  /** The struct field computed from the body (connectionId). */
  readonly derived: string
  readonly signature: string
  /** The body property holding the action. */
  readonly action: string
  /** The key order the action is hashed in (the schemas' `properties` order). */
  readonly order: KeyOrder | undefined
}

/** Key order of an object (and of what it holds); `tag`/`cases` pick a `oneOf` branch by its const property. */
export interface KeyOrder {
  readonly keys?: readonly string[]
  readonly props?: Readonly<Record<string, KeyOrder>>
  readonly items?: KeyOrder
  readonly tag?: string
  readonly cases?: Readonly<Record<string, KeyOrder>>
}

export interface OperationPlan {
  readonly method: string
  readonly path: string
  /** Does the operation take query parameters (and must the caller pass some)? */
  readonly query: 'none' | 'optional' | 'required'
  /** Path parameters (`{name}` in the path), filled from the input's field of the same name; absent when none. */
  readonly pathParams?: readonly string[]
  readonly body: BodyPlan | null
}

export interface SignedBody {
  readonly signature: string
  readonly variants: SignedSchema['variants']
}

export interface ClientPlans {
  readonly operations: Readonly<Record<string, OperationPlan>>
  /** Each signed body schema by component name: its signature field and struct variants. */
  readonly bodies: Readonly<Record<string, SignedBody>>
}

const PLAIN = { plain: true } as const
const isPlain = (p: BodyPlan) => 'plain' in p

function componentName(node: unknown): string | undefined {
  return isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/components/schemas/')
    ? node.$ref.split('/').at(-1)
    : undefined
}

/** The const value of `key` in a schema, if it fixes one. */
function constOf(doc: unknown, schema: JsonObject, key: string): unknown {
  const props = isObject(schema.properties) ? schema.properties : {}
  const p = deref(doc, props[key])
  return isObject(p) ? p.const : undefined
}

/** Key order of `schema` and of every object inside it; undefined where nothing has properties. */
export function keyOrder(doc: unknown, schema: unknown, depth = 0): KeyOrder | undefined {
  const s = deref(doc, schema)
  if (!isObject(s) || depth > 32) return undefined
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined
  if (branches) {
    const resolved = branches.map((b) => deref(doc, b)).filter(isObject)
    const first = resolved[0]
    const tag =
      first &&
      Object.keys(isObject(first.properties) ? first.properties : {}).find((k) =>
        resolved.every((b) => typeof constOf(doc, b, k) === 'string'),
      )
    if (tag === undefined) return undefined
    const cases: Record<string, KeyOrder> = {}
    for (const b of resolved) {
      const order = keyOrder(doc, b, depth + 1)
      if (order) cases[String(constOf(doc, b, tag))] = order
    }
    return { tag, cases }
  }
  if (s.items !== undefined) {
    const items = keyOrder(doc, s.items, depth + 1)
    return items ? { items } : undefined
  }
  if (!isObject(s.properties)) return undefined
  const props: Record<string, KeyOrder> = {}
  for (const [k, v] of Object.entries(s.properties)) {
    const order = keyOrder(doc, v, depth + 1)
    if (order) props[k] = order
  }
  return { keys: Object.keys(s.properties), ...(Object.keys(props).length > 0 ? { props } : {}) }
}

/** Where an operation's request body schema is written (its first media type, as op.requestSchema is read). */
function bodySchemaPointer(op: Operation): string {
  return `${op.pointer}/requestBody/content/application~1json/schema`
}

export function clientPlans(spec: Contract<'typedData'>, ctx: SchemaContext): ClientPlans {
  const doc = spec.doc
  const bodies: Record<string, SignedBody> = {}

  /** The signed schema a node names, recorded in `bodies`; derived signatures (perp) are planned apart. */
  const signedName = (node: unknown): string | undefined => {
    const name = componentName(node)
    const signed = name === undefined ? undefined : readSignedSchema(deref(doc, node))
    if (name === undefined || !signed || signed.derived !== undefined) return undefined
    bodies[name] = { signature: signed.signature, variants: signed.variants }
    return name
  }

  const planOf = (node: unknown, pointer: string, depth: number): BodyPlan => {
    if (depth > 32) return PLAIN
    const own = signedName(node)
    if (own) return { signed: [own] }
    const s = deref(doc, node)
    if (!isObject(s)) return PLAIN
    // Messages name the schema where it is written: the target of a local $ref.
    if (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) pointer = node.$ref.slice(1)
    if (Array.isArray(s.oneOf)) {
      const names = s.oneOf.map(signedName)
      if (names.every((n) => n !== undefined)) return { signed: names as string[] }
      if (names.some((n) => n !== undefined))
        throw specError(ctx, pointer, 'a oneOf mixes signed and unsigned bodies, which no client can build one way')
      return PLAIN
    }
    if (s.items !== undefined) {
      const items = planOf(s.items, `${pointer}/items`, depth + 1)
      return isPlain(items) ? PLAIN : { items }
    }
    if (!isObject(s.properties)) return PLAIN
    const props: Record<string, BodyPlan> = {}
    for (const [k, v] of Object.entries(s.properties)) {
      const p = planOf(v, `${pointer}/properties/${k}`, depth + 1)
      if (!isPlain(p)) props[k] = p
    }
    return Object.keys(props).length > 0 ? { props } : PLAIN
  }

  const perpPlan = (op: Operation, signed: SignedSchema): BodyPlan => {
    const where = `${op.pointer}/requestBody`
    const message = signed.variants[0]?.message
    const struct = message === undefined ? undefined : spec.typedData.messages[message]
    if (message === undefined || !struct || signed.variants.length !== 1)
      throw specError(ctx, where, 'a derived signature needs exactly one variant naming an x-eip712 message')
    const others = struct.fields.filter((f) => f.name !== signed.derived).map((f) => f.name)
    // The venue's Agent: `source` ('a' mainnet, 'b' testnet) and the derived action hash, nothing else.
    if (others.join() !== 'source' || !struct.fields.some((f) => f.name === signed.derived && f.type === 'bytes32'))
      throw specError(ctx, where, `${message} must hold source and a bytes32 ${signed.derived} for a client to sign it`)
    const body = deref(doc, op.requestSchema) as JsonObject
    const props = isObject(body.properties) ? body.properties : {}
    const action = Object.keys(props).find((k) => k !== signed.signature && k !== 'nonce' && k !== 'vaultAddress' && k !== 'expiresAfter')
    if (action === undefined) throw specError(ctx, where, 'a derived signature needs the property it is derived from (the action)')
    return { perp: { message, derived: signed.derived!, signature: signed.signature, action, order: keyOrder(doc, props[action]) } }
  }

  const operations: Record<string, OperationPlan> = {}
  for (const op of spec.operations) {
    const raw = getPointer(doc, op.pointer) as JsonObject
    const pathItem = getPointer(doc, op.pointer.slice(0, op.pointer.lastIndexOf('/'))) as JsonObject
    const params = [
      ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
      ...(Array.isArray(raw.parameters) ? raw.parameters : []),
    ]
      .map((p) => deref(doc, p))
      .filter((p): p is JsonObject => isObject(p))
    const query = params.filter((p) => p.in === 'query')
    const pathParams = [...new Set(params.filter((p) => p.in === 'path' && typeof p.name === 'string').map((p) => p.name as string))]
    if (op.requestSchema && pathParams.length) {
      // With a body, the input is the body: a path parameter is filled from the body field of its name.
      const bodyProps = deref(doc, op.requestSchema) as JsonObject
      const missing = pathParams.filter((name) => !(isObject(bodyProps.properties) && name in bodyProps.properties))
      if (missing.length)
        throw specError(
          ctx,
          op.pointer,
          `path parameter ${missing.map((m) => `{${m}}`).join(', ')} of an operation with a body must also be a body property for the client to fill it`,
        )
    }
    const rootSigned = op.requestSchema ? readSignedSchema(deref(doc, op.requestSchema)) : undefined
    const body =
      op.requestSchema === undefined
        ? null
        : rootSigned?.derived !== undefined
          ? perpPlan(op, rootSigned)
          : planOf(op.requestSchema, bodySchemaPointer(op), 0)
    operations[op.operationId] = {
      method: op.method,
      path: op.path,
      query: query.length === 0 ? 'none' : query.some((p) => p.required === true) ? 'required' : 'optional',
      ...(pathParams.length ? { pathParams } : {}),
      body,
    }
  }
  return { operations, bodies }
}
