/**
 * Numeric bounds (lengths, values, item and `contains` counts), judged by direction: a tighter
 * bound rejects requests that passed and a looser one lets responses carry what clients did not
 * expect. A bound that appears where there was none is `…-set`, one that disappears `…-unset`;
 * where oasdiff has no such rule the change is named by the way it moved.
 */
import type { JsonObject } from '../../contract/model.ts'
import { isSchemaSuffix } from '../registry.ts'
import { push, type NodePair } from './kernel.ts'

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

/** The boolean OpenAPI 3.0 spelling of each exclusive bound, and the bound it qualifies. */
const EXCLUSIVE: Readonly<Record<string, string>> = { exclusiveMaximum: 'maximum', exclusiveMinimum: 'minimum' }
const QUALIFIED: Readonly<Record<string, string>> = { maximum: 'exclusiveMaximum', minimum: 'exclusiveMinimum' }

/**
 * The bound's value in 3.1 terms: OpenAPI 3.0's `maximum: 10, exclusiveMaximum: true` is read as
 * 3.1's `exclusiveMaximum: 10`, so moving between the spellings compares like with like.
 */
function value(s: JsonObject, b: Bound): number | undefined {
  const of = EXCLUSIVE[b.key]
  if (of) return s[b.key] === true ? num(s[of]) : num(s[b.key])
  const flag = QUALIFIED[b.key]
  if (flag && s[flag] === true) return undefined
  return num(s[b.key]) ?? (b.zero ? 0 : undefined)
}

export function compareBounds({ ctx, bs, hs, hPtr, out }: NodePair): void {
  const req = ctx.dir === 'request'
  for (const bound of BOUNDS) {
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
