/**
 * The perpetuals venue hashes an action in its own key order, not in the order the JSON arrived
 * in: the server rebuilds the action with the key order of the spec's schema (`properties` order:
 * type, orders, grouping; a, b, p, s, r, t, c) before hashing. A client that signs over another
 * key order therefore recovers to a different signer and is refused, while JSON key order on the
 * wire does not matter.
 */
import { deref, isObject, type JsonObject, type FullContract } from '../contract/index.ts'

/** Picks the oneOf branch whose `const` properties match the value, else the first whose keys fit. */
function branchFor(doc: unknown, branches: unknown[], value: Record<string, unknown>): JsonObject | undefined {
  const resolved = branches.map((b) => deref(doc, b) as JsonObject).filter(isObject)
  const consts = (s: JsonObject) =>
    Object.entries(isObject(s.properties) ? s.properties : {}).filter(([, p]) => isObject(p) && 'const' in p)
  return (
    resolved.find((s) => {
      const c = consts(s)
      return c.length > 0 && c.every(([k, p]) => value[k] === (p as JsonObject).const)
    }) ?? resolved.find((s) => isObject(s.properties) && Object.keys(value).every((k) => k in (s.properties as JsonObject)))
  )
}

export function canonicalize(spec: FullContract, schema: unknown, value: unknown): unknown {
  const doc = spec.doc
  let s = deref(doc, schema) as JsonObject | undefined
  if (Array.isArray(value)) {
    const items = isObject(s) ? s.items : undefined
    return value.map((v) => canonicalize(spec, items, v))
  }
  if (!isObject(value)) return value
  if (isObject(s) && Array.isArray(s.oneOf)) s = branchFor(doc, s.oneOf, value)
  if (!isObject(s) || !isObject(s.properties)) return value
  const props = s.properties
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(props)) if (key in value) out[key] = canonicalize(spec, props[key], value[key])
  // Keys the schema does not name (refused earlier by validation) keep their place at the end.
  for (const key of Object.keys(value)) if (!(key in out)) out[key] = value[key]
  return out
}
