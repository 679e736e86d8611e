/**
 * `type`, `nullable` and `format`, judged by direction: a type that now admits more values is a
 * generalisation (harmless in a request, a surprise in a response), fewer values a
 * specialisation, neither a change. An integer is a number; `int32` fits in `int64`.
 */
import type { JsonObject } from '../../contract/model.ts'
import type { SchemaSuffix } from '../registry.ts'
import { push, type NodePair } from './kernel.ts'

function typeSet(s: JsonObject): Set<string> | undefined {
  const t = s.type
  const list = typeof t === 'string' ? [t] : Array.isArray(t) ? t.map(String) : undefined
  if (!list) return undefined
  if (s.nullable === true) list.push('null')
  return new Set(list)
}

/** Parameters travel as text: a string parameter holds every number or boolean too. */
const TEXT_HOLDS = new Set(['number', 'integer', 'boolean'])

/** Does `wide` accept every value of type set `narrow`? (an integer is a number) */
function covers(wide: ReadonlySet<string>, narrow: ReadonlySet<string>, text: boolean): boolean {
  for (const t of narrow)
    if (!wide.has(t) && !(t === 'integer' && wide.has('number')) && !(text && wide.has('string') && TEXT_HOLDS.has(t))) return false
  return true
}

const withoutNull = (s: Set<string>) => new Set([...s].filter((t) => t !== 'null'))
const typeText = (s: ReadonlySet<string> | undefined) => (s ? [...s].sort().join('|') : 'any')

type Relation = 'same' | 'wider' | 'narrower' | 'other'

/** How head's set relates to base's; undefined means any type. */
function relate(b: ReadonlySet<string> | undefined, h: ReadonlySet<string> | undefined, text: boolean): Relation {
  if (!b && !h) return 'same'
  if (!h) return 'wider'
  if (!b) return 'narrower'
  // Only narrowing reads a string parameter as text (string → number is a specialisation); the
  // way back stays a change of type, as oasdiff judges it.
  const wider = covers(h, b, false)
  const narrower = covers(b, h, text)
  return wider && narrower ? 'same' : wider ? 'wider' : narrower ? 'narrower' : 'other'
}

/** Formats that hold every value of another format of the same type. */
const FORMAT_WIDER: Readonly<Record<string, string>> = { int32: 'int64', float: 'double' }

function relateFormats(b: string | undefined, h: string | undefined): Relation {
  if (b === h) return 'same'
  if (h === undefined) return 'wider'
  if (b === undefined) return 'narrower'
  if (FORMAT_WIDER[b] === h) return 'wider'
  if (FORMAT_WIDER[h] === b) return 'narrower'
  return 'other'
}

function formatOf(s: JsonObject): string | undefined {
  const f = s.format ?? s['x-format']
  return typeof f === 'string' ? f : undefined
}

const SUFFIX: Readonly<Record<Exclude<Relation, 'same'>, SchemaSuffix>> = {
  wider: 'type-generalized',
  narrower: 'type-specialized',
  other: 'type-changed',
}

function suffixFor(rel: Exclude<Relation, 'same'>, request: boolean, multi: boolean): readonly SchemaSuffix[] {
  if (multi && rel !== 'other') return [rel === 'wider' ? 'list-of-types-widened' : 'list-of-types-narrowed']
  // A request type that admits fewer values rejects what it accepted: oasdiff calls that a type
  // change, except inside a parameter, where it has a rule for it.
  if (request && rel === 'narrower') return ['type-specialized', 'type-changed']
  return [SUFFIX[rel]]
}

export function compareTypes({ ctx, bs, hs, hPtr, out }: NodePair): void {
  const req = ctx.dir === 'request'
  if (typeof bs.type === 'string' && bs.type === hs.type && bs.nullable === hs.nullable && formatOf(bs) === formatOf(hs)) return
  const tb = typeSet(bs)
  const th = typeSet(hs)
  const tbn = tb && withoutNull(tb)
  const thn = th && withoutNull(th)
  const rel = relate(tbn, thn, ctx.site === 'parameter' || ctx.site === 'header-parameter')
  if (rel !== 'same') {
    const multi = (tbn?.size ?? 0) > 1 || (thn?.size ?? 0) > 1
    push(out, suffixFor(rel, req, multi), `${hPtr}/type`, (n) => `${n} changed type from ${typeText(tbn)} to ${typeText(thn)}`, {
      before: typeText(tbn),
      after: typeText(thn),
    })
  }
  if (tb?.has('null') && th && !th.has('null')) push(out, 'became-not-nullable', `${hPtr}/type`, (n) => `${n} no longer accepts null`)
  if (th?.has('null') && tb && !tb.has('null')) push(out, 'became-nullable', `${hPtr}/type`, (n) => `${n} may now be null`)
  const fb = formatOf(bs)
  const fh = formatOf(hs)
  const frel = relateFormats(fb, fh)
  if (frel !== 'same' && rel === 'same') {
    push(
      out,
      suffixFor(frel, req, false),
      `${hPtr}/${hs.format !== undefined ? 'format' : 'x-format'}`,
      (n) => `${n} changed format from ${fb ?? 'none'} to ${fh ?? 'none'}`,
      { before: fb ?? null, after: fh ?? null, detail: 'format' },
    )
  }
}
