/**
 * The stated body fields of an answer (read-back `parties`): the fields the spec's response schema
 * names for the operation and status answered, compared between the target's answer and the
 * reference's. The field list is always the spec's, never one written here. Pure.
 *
 * Which fields are comparable follows from their schemas, not their names:
 * - a field the request carried at the same place is an echo: each side is held to what it was
 *   sent (so an `order_id` is each side's own id for the same order, as the ledger maps them);
 * - a field with a closed value (enum, const, pattern, a number, a boolean) is compared raw, an
 *   address (`x-format: address`) as 20 bytes (any case);
 * - a plain string the request did not carry is left out: free text (`reason`, `message`, the
 *   legacy `error`) is worded by each server its own way, and an id the answer issues (a new
 *   order's `order_id`) is the mapping's source, nothing to compare it with;
 * - a timestamp (`format: date-time`) is left out: each side stamps by its own clock.
 * A field is assumed when its operation, response or any schema on its way is `x-assumed`.
 */
import { deref, isObject, type JsonObject } from '../../contract/model.ts'
import type { Contract } from '../../contract/index.ts'

/** Where an answer came from: the request as one side sent it. */
export interface Sent {
  readonly method: string
  readonly path: string
  readonly body?: unknown
}

/** One stated field the two answers give differently. */
export interface FieldDifference {
  /** The field's place in the body (`client_id`, `results[1].status`). */
  readonly at: string
  readonly target: unknown
  /** The reference's value; for an echo, what the target was sent. */
  readonly oracle: unknown
  /** The field echoes the request: the target gave back something other than what it was sent. */
  readonly echo?: boolean
  readonly assumed: boolean
}

/** The response schema the spec gives for an answer, and whether the answer's shape is assumed. */
function responseSchema(spec: Contract, sent: Sent, status: number): { schema: unknown; assumed: boolean } | undefined {
  const method = sent.method.toUpperCase()
  // A target mounted under a prefix answers `/api/order` for `/order`: the longest path that ends it.
  const op = spec.operations
    .filter((o) => o.method === method && sent.path.endsWith(o.path))
    .sort((a, b) => b.path.length - a.path.length)[0]
  const response = op?.responses[String(status)]
  const content = isObject(response?.content) ? response.content['application/json'] : undefined
  if (!op || !response || !isObject(content)) return undefined
  return { schema: content.schema, assumed: op.assumed || response['x-assumed'] === true }
}

interface Field {
  readonly schema: JsonObject
  readonly assumed: boolean
}

/** The properties an object schema states (its `allOf` parts merged), each resolved. */
function properties(doc: unknown, node: unknown, assumed: boolean): Map<string, Field> {
  const out = new Map<string, Field>()
  const schema = deref(doc, node)
  if (!isObject(schema)) return out
  const here = assumed || schema['x-assumed'] === true
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) for (const [k, f] of properties(doc, part, here)) out.set(k, f)
  if (isObject(schema.properties))
    for (const [k, p] of Object.entries(schema.properties)) {
      const resolved = deref(doc, p)
      if (isObject(resolved)) out.set(k, { schema: resolved, assumed: here || resolved['x-assumed'] === true })
    }
  return out
}

const closed = (s: JsonObject) =>
  Array.isArray(s.enum) || 'const' in s || typeof s.pattern === 'string' || ['integer', 'number', 'boolean'].includes(String(s.type))

const same = (s: JsonObject, a: unknown, b: unknown) =>
  s['x-format'] === 'address' && typeof a === 'string' && typeof b === 'string'
    ? a.toLowerCase() === b.toLowerCase()
    : JSON.stringify(a) === JSON.stringify(b)

const obj = (v: unknown): Record<string, unknown> | undefined => (isObject(v) ? v : undefined)

/** The request's one list (`orders`, `cancels`, `replacements`): what a list in the answer answers item by item. */
function sentList(body: unknown): readonly unknown[] | undefined {
  const lists = Object.values(obj(body) ?? {}).filter(Array.isArray)
  return lists.length === 1 ? lists[0] : undefined
}

function compareObject(
  doc: unknown,
  schema: unknown,
  assumed: boolean,
  t: unknown,
  o: unknown,
  ts: unknown,
  os: unknown,
  at: string,
  out: FieldDifference[],
): void {
  const [tb, ob] = [obj(t), obj(o)]
  if (!tb || !ob) return
  for (const [k, f] of properties(doc, schema, assumed)) {
    const here = at ? `${at}.${k}` : k
    const [tv, ov] = [tb[k], ob[k]]
    // Only what the reference states can be held against the target.
    if (ov === undefined || f.schema.format === 'date-time') continue
    const [tSent, oSent] = [obj(ts)?.[k], obj(os)?.[k]]
    if (Array.isArray(ov)) {
      if (!Array.isArray(tv)) {
        out.push({ at: here, target: tv, oracle: ov, assumed: f.assumed })
        continue
      }
      const [tList, oList] = [sentList(ts), sentList(os)]
      for (let i = 0; i < Math.min(tv.length, ov.length); i++)
        compareObject(doc, f.schema.items, f.assumed, tv[i], ov[i], tList?.[i], oList?.[i], `${here}[${i}]`, out)
      continue
    }
    if (isObject(ov)) {
      compareObject(doc, f.schema, f.assumed, tv, ov, tSent, oSent, here, out)
      continue
    }
    // An echo: the reference gave back what it was sent, so the target must give back what it was.
    if (oSent !== undefined && same(f.schema, ov, oSent)) {
      if (!same(f.schema, tv, tSent)) out.push({ at: here, target: tv, oracle: tSent, echo: true, assumed: f.assumed })
      continue
    }
    if (closed(f.schema) && !same(f.schema, tv, ov)) out.push({ at: here, target: tv, oracle: ov, assumed: f.assumed })
  }
}

/**
 * The stated fields two answers with the same status give differently: the target's answer to
 * what it was sent against the reference's answer to what the reference was sent. Empty when the
 * spec states no JSON body for the operation and status.
 */
export function fieldDifferences(
  spec: Contract,
  status: number,
  target: { readonly json?: unknown; readonly sent: Sent },
  oracle: { readonly json?: unknown; readonly sent: Sent },
): FieldDifference[] {
  const stated = responseSchema(spec, oracle.sent, status)
  if (!stated) return []
  const out: FieldDifference[] = []
  compareObject(spec.doc, stated.schema, stated.assumed, target.json, oracle.json, target.sent.body, oracle.sent.body, '', out)
  return out
}
