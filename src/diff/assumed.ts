/**
 * `x-assumed` bookkeeping: an element the contract now states (or no longer states) changes how
 * the conformance runner judges a departure from it (failure vs warning), so users see it.
 * Flags are `x-assumed` and its variants (`x-assumed-status`, ...), never `x-assumed-why`.
 *
 * The two documents are walked side by side, so only elements present in both are compared
 * (an added or removed element is another rule's business) and nothing is indexed. Catalog
 * entries are paired by code, not position. Where one side is a `$ref` and the other inline,
 * the ref's target stands in for it, so an inline ⇄ `$ref` refactor is not a change.
 */
import type { DiffSpec } from './input.ts'
import { isObject, type ErrorCodeEntry, type JsonObject } from '../contract/model.ts'
import type { Collector } from './collect.ts'
import { esc, resolve } from './refs.ts'

const FLAG = /^x-assumed(-[a-z][a-z0-9-]*)?$/

function flagsOf(node: JsonObject): Map<string, boolean> | undefined {
  let out: Map<string, boolean> | undefined
  for (const k in node) {
    if (k.charCodeAt(0) !== 120 /* x */ || !k.startsWith('x-assumed') || k === 'x-assumed-why' || !FLAG.test(k)) continue
    const v = node[k]
    if (typeof v === 'boolean') (out ??= new Map()).set(k, v)
  }
  return out
}

function toPtr(path: readonly string[]): string {
  let out = ''
  for (const t of path) out += `/${esc(t)}`
  return out
}

export function diffAssumed(base: DiffSpec, head: DiffSpec, c: Collector): void {
  const catalogKey = head.catalogKey

  const compareFlags = (b: JsonObject, h: JsonObject, path: readonly string[]) => {
    const fb = flagsOf(b)
    const fh = flagsOf(h)
    if (!fb && !fh) return
    const names = [...new Set([...(fb?.keys() ?? []), ...(fh?.keys() ?? [])])].sort()
    for (const name of names) {
      const was = fb?.get(name) ?? false
      const is = fh?.get(name) ?? false
      if (was === is) continue
      const p = toPtr(path)
      const at = name === 'x-assumed' ? p : `${p}/${name}`
      const what = name === 'x-assumed' ? `the element at ${p || '/'}` : `${name.slice('x-assumed-'.length)} of the element at ${p || '/'}`
      if (was)
        c.add('assumed-became-stated', at, `${what} is now stated rather than assumed, so a departure from it becomes a failure`, {
          before: true,
          after: false,
        })
      else
        c.add('stated-became-assumed', at, `${what} is now marked assumed, so a departure from it becomes a warning`, {
          before: false,
          after: true,
        })
    }
  }

  // `path` is a stack of tokens, joined only when a finding needs it (during the same call).
  const walk = (b: unknown, h: unknown, path: string[]): void => {
    // One object in both documents (parse-once shares unchanged text): the same flags throughout.
    if (b === h) return
    if (Array.isArray(b) && Array.isArray(h)) {
      const n = Math.min(b.length, h.length)
      for (let i = 0; i < n; i++) {
        path.push(String(i))
        walk(b[i], h[i], path)
        path.pop()
      }
      return
    }
    if (!isObject(b) || !isObject(h)) return
    const bRef = typeof b.$ref === 'string'
    const hRef = typeof h.$ref === 'string'
    if (bRef || hRef) {
      // Both refs: the targets are walked where they are defined. One ref: compare the target's flags.
      if (bRef && hRef) return
      const rb = bRef ? resolve(base.doc, b, toPtr(path)).node : b
      const rh = hRef ? resolve(head.doc, h, toPtr(path)).node : h
      if (rb && rh) compareFlags(rb, rh, path)
      return
    }
    compareFlags(b, h, path)
    for (const k in h) {
      if (!(k in b)) continue
      const vb = b[k]
      const vh = h[k]
      if (vb === null || vh === null || typeof vb !== 'object' || typeof vh !== 'object') continue
      if (path.length === 0 && k === catalogKey) continue
      path.push(k)
      walk(vb, vh, path)
      path.pop()
    }
  }
  walk(base.doc, head.doc, [])

  const rawB = base.doc[base.catalogKey]
  const rawH = head.doc[catalogKey]
  if (!Array.isArray(rawB) || !Array.isArray(rawH) || !base.catalog || !head.catalog) return
  const byKey = new Map<string, ErrorCodeEntry>(base.catalog.map((e) => [`${e.surface}:${String(e.code)}`, e]))
  for (const e of head.catalog) {
    const b = byKey.get(`${e.surface}:${String(e.code)}`)
    if (b) walk(rawB[b.index], rawH[e.index], [catalogKey, String(e.index)])
  }
}
