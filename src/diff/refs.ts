/** Local `$ref` resolution and JSON-pointer tokens, shared by every comparer. */
import { InputError } from '../errors.ts'
import { getPointer, isObject, type JsonObject } from '../contract/model.ts'
import { forEachReference } from '../contract/refs.ts'
import { toPointer } from '../contract/source.ts'

export interface Resolved {
  readonly node: JsonObject | undefined
  readonly ptr: string
  /** Sibling keywords were merged in: the node is particular to the referring site. */
  readonly merged?: boolean
}

const refCache = new WeakMap<object, Map<string, unknown>>()

/** The target of a local `$ref`, cached per document (big specs repeat the same few refs). */
function target(doc: unknown, ref: string): unknown {
  if (doc === null || typeof doc !== 'object') return undefined
  let cache = refCache.get(doc)
  if (!cache) refCache.set(doc, (cache = new Map()))
  if (cache.has(ref)) return cache.get(ref)
  const node = getPointer(doc, ref)
  cache.set(ref, node)
  return node
}

/** Follows a `$ref` chain; OpenAPI 3.1 sibling keywords next to `$ref` override the target's. */
export function resolve(doc: unknown, node: unknown, ptr: string): Resolved {
  let siblings: JsonObject | undefined
  let seen: Set<string> | undefined
  while (isObject(node) && typeof node.$ref === 'string') {
    const ref = node.$ref
    if (!ref.startsWith('#')) throw new InputError(`unsupported external $ref ${ref} at ${ptr}`)
    seen ??= new Set()
    if (seen.has(ref)) return { node: undefined, ptr }
    seen.add(ref)
    const keys = Object.keys(node)
    if (keys.length > 1) {
      const rest: JsonObject = {}
      for (const k of keys) if (k !== '$ref') rest[k] = node[k]!
      siblings = { ...rest, ...siblings }
    }
    node = target(doc, ref)
    ptr = ref.includes('%') ? decodeURIComponent(ref.slice(1)) : ref.slice(1)
  }
  if (!isObject(node)) return { node: undefined, ptr }
  return siblings ? { node: { ...node, ...siblings }, ptr, merged: true } : { node, ptr }
}

/** One JSON-pointer token, escaped (`a/b` → `a~1b`), without the leading slash. */
export const esc = (token: string): string => (token.includes('/') || token.includes('~') ? toPointer([token]).slice(1) : token)

/**
 * Pointers of the local `$ref`s (`#/…`) of `doc` whose target does not exist, in document order.
 * Only references by the object model count: a `$ref` key inside an example is data
 * (contract/refs.ts), and its walk keeps one path instead of copying one per node.
 */
export function unresolvedRefs(doc: Record<string, unknown>): { pointer: string; ref: string }[] {
  const out: { pointer: string; ref: string }[] = []
  forEachReference(doc, ({ pointer, ref }) => {
    if (ref.startsWith('#') && target(doc, ref) === undefined) out.push({ pointer: `${pointer}/$ref`, ref })
  })
  return out
}
