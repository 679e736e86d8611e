/**
 * A structural fingerprint of a schema: its content with `$ref`s resolved a few levels deep and
 * annotations left out, so two alternatives can be recognised as the same whatever their
 * position, name or whether they are inline.
 */
import { isObject } from '../../contract/model.ts'
import { resolve } from '../refs.ts'

const ANNOTATIONS = new Set(['title', 'description', 'example', 'examples', '$comment', 'deprecated', 'externalDocs', 'xml'])
const DEPTH = 4

/** Per document: the two documents of a diff may share a node (parse-once) whose refs differ. */
const caches = new WeakMap<object, WeakMap<object, string>>()

export function fingerprint(doc: unknown, node: unknown): string {
  if (!isObject(doc) || !isObject(node)) return print(doc, node, DEPTH)
  let cache = caches.get(doc)
  if (!cache) caches.set(doc, (cache = new WeakMap()))
  let out = cache.get(node)
  if (out === undefined) cache.set(node, (out = print(doc, node, DEPTH)))
  return out
}

function print(doc: unknown, node: unknown, depth: number): string {
  if (Array.isArray(node)) return `[${node.map((n) => print(doc, n, depth)).join(',')}]`
  if (!isObject(node)) return JSON.stringify(node) ?? 'null'
  if (typeof node.$ref === 'string') {
    if (depth === 0) return `{"$ref":${JSON.stringify(node.$ref)}}`
    return print(doc, resolve(doc, node, '').node, depth - 1)
  }
  const keys = Object.keys(node)
    .filter((k) => !ANNOTATIONS.has(k) && !k.startsWith('x-'))
    .sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${print(doc, node[k], depth)}`).join(',')}}`
}

/** A looser identity: the type and property names, enough to pair an alternative that was edited. */
export function shape(doc: unknown, node: unknown): string {
  const s = resolve(doc, node, '').node
  if (!s) return ''
  const props = isObject(s.properties) ? Object.keys(s.properties).sort().join(',') : ''
  return `${JSON.stringify(s.type ?? null)}|${props}|${Array.isArray(s.enum) ? 'enum' : ''}`
}
