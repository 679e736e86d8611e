/**
 * Numeric bounds (lengths, values, item and `contains` counts), judged by direction: a tighter
 * bound rejects requests that passed and a looser one lets responses carry what clients did not
 * expect. A bound that appears where there was none is `…-set`, one that disappears `…-unset`;
 * where oasdiff has no such rule the change is named by the way it moved.
 */
import type { JsonObject } from '../../spec/model.ts'
import { isSchemaSuffix, type SchemaSuffix } from '../registry.ts'
import { push, type NodePair } from './index.ts'

interface Bound {
  readonly key: string
  /** Rule stem: `max-length` → `max-length-decreased`. */
  readonly stem: string
  readonly upper: boolean
  /** An absent lower bound of a count means 0. */
  readonly zero?: boolean
}

const BOUNDS: readonly Bound[] = [
  { key: 'maxLength', stem: 'max-length', upper: true },
  { key: 'minLength', stem: 'min-length', upper: false, zero: true },
  { key: 'maximum', stem: 'max', upper: true },
  { key: 'minimum', stem: 'min', upper: false },
  { key: 'exclusiveMaximum', stem: 'exclusive-max', upper: true },
  { key: 'exclusiveMinimum', stem: 'exclusive-min', upper: false },
  { key: 'maxItems', stem: 'max-items', upper: true },
  { key: 'minItems', stem: 'min-items', upper: false },
  { key: 'maxContains', stem: 'max-contains', upper: true },
  { key: 'minContains', stem: 'min-contains', upper: false },
]

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

/** OpenAPI 3.0 spells exclusive bounds as booleans beside `maximum`/`minimum`: fold them in. */
function value(s: JsonObject, b: Bound): number | undefined {
  if (b.key === 'exclusiveMaximum' || b.key === 'exclusiveMinimum') return num(s[b.key])
  return num(s[b.key]) ?? (b.zero ? 0 : undefined)
}

export function compareBounds({ ctx, bs, hs, hPtr, out }: NodePair): void {
  const req = ctx.dir === 'request'
  for (const bound of BOUNDS) {
    if (bs[bound.key] === hs[bound.key]) continue
    const vb = value(bs, bound)
    const vh = value(hs, bound)
    if (vb === vh) continue
    const up = `${bound.stem}-increased`
    const down = `${bound.stem}-decreased`
    // The way it moved, preceded by the set/unset rule where one exists.
    const moved = vb === undefined ? (bound.upper ? down : up) : vh === undefined ? (bound.upper ? up : down) : vh > vb ? up : down
    const first = vb === undefined && req ? `${bound.stem}-set` : vh === undefined && !req ? `${bound.stem}-unset` : moved
    const suffix = [first, moved].filter(isSchemaSuffix)
    if (suffix.length === 0) continue
    const text = (n: string) => `${n} changed ${bound.key} from ${vb ?? 'none'} to ${vh ?? 'none'}`
    push(out, suffix, vh !== undefined ? `${hPtr}/${bound.key}` : hPtr, text, { before: vb ?? null, after: vh ?? null, detail: bound.key })
  }
}
