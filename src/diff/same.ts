/**
 * Parse-once (chunks.ts) lets the head document share the base document's objects wherever the
 * text did not change. A shared object is unchanged, and so is everything it reaches through
 * `$ref`s when each target is shared too: such a pair has nothing to report and is skipped, so
 * a diff costs what changed rather than what the spec holds. Documents parsed apart share
 * nothing, and every pair is compared as before.
 */
import { getPointer, isObject } from '../contract/model.ts'
import { refsOf } from './chunks.ts'

export class Sameness {
  /** Per shared node: does its `$ref` closure reach only shared targets? */
  private readonly closed = new WeakMap<object, boolean>()
  private readonly refs = new Map<string, boolean>()
  private readonly pending = new Set<string>()

  constructor(
    private readonly baseDoc: unknown,
    private readonly headDoc: unknown,
  ) {}

  /** True when `b` and `h` are one object whose every reference is one object in both documents. */
  same(b: unknown, h: unknown): boolean {
    return b === h && isObject(b) && this.closedOver(b)
  }

  private closedOver(node: unknown): boolean {
    if (node === null || typeof node !== 'object') return true
    const known = this.closed.get(node)
    if (known !== undefined) return known
    let ok = true
    // An entry parse-once shared: its refs were read from its text, no need to walk it.
    const refs = refsOf(node)
    if (refs) {
      for (const r of refs) if (!(ok = this.refShared(r))) break
    } else if (Array.isArray(node)) {
      for (const v of node) if (!(ok = this.closedOver(v))) break
    } else {
      for (const k in node) {
        const v = (node as Record<string, unknown>)[k]
        ok = k === '$ref' && typeof v === 'string' ? this.refShared(v) : this.closedOver(v)
        if (!ok) break
      }
    }
    this.closed.set(node, ok)
    return ok
  }

  private refShared(ref: string): boolean {
    const known = this.refs.get(ref)
    if (known !== undefined) return known
    // A cycle is not followed: it counts as changed, which only costs a comparison.
    if (this.pending.has(ref) || !ref.startsWith('#')) return false
    this.pending.add(ref)
    const tb = getPointer(this.baseDoc, ref)
    const ok = tb !== undefined && tb === getPointer(this.headDoc, ref) && this.closedOver(tb)
    this.pending.delete(ref)
    this.refs.set(ref, ok)
    return ok
  }
}
