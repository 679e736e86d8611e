/**
 * Compares two JSON Schemas with `$ref`s resolved, so moving a schema inline or into a component
 * is not a change. What counts as breaking depends on the direction: a request schema must not
 * reject what it accepted; a response schema must not send what clients could not expect.
 */
import { InputError } from '../errors.ts'
import { getPointer, isObject, type JsonObject } from '../contract/model.ts'
import { toPointer } from '../contract/source.ts'
import type { ChangeExtra, ChangeSink } from './collect.ts'

export type Direction = 'request' | 'response'

/**
 * A change found inside a schema, relative to the schema it was found from: `rel` is the
 * property path below it, and `text` builds the sentence from the element's name. Records are
 * memoized per schema pair, so a shared component is compared once, however many operations
 * use it, and each operation still names the element by its own path (`orders[].route`).
 */
export interface SchemaChange {
  readonly id: string
  readonly pointer: string
  readonly rel: string
  readonly text: (noun: string) => string
  readonly extra: Omit<ChangeExtra, 'where'>
}

export type SchemaMemo = Map<string, readonly SchemaChange[]>

export interface SchemaContext {
  readonly c: ChangeSink
  /** Shared by every comparison between the same two documents. */
  readonly memo: SchemaMemo
  readonly baseDoc: unknown
  readonly headDoc: unknown
  readonly dir: Direction
  /** Rule id prefix for request-side rules: body properties or parameters. */
  readonly prefix: 'request-property' | 'request-parameter'
  /** Names the element in a sentence: `label` is the property path, '' for the root. */
  readonly noun: (label: string) => string
  /** Operation (and status) the schema belongs to, e.g. `POST /order`. */
  readonly where: string
}

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
  const seen = new Set<string>()
  while (isObject(node) && typeof node.$ref === 'string') {
    const ref = node.$ref
    if (!ref.startsWith('#')) throw new InputError(`unsupported external $ref ${ref} at ${ptr}`)
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

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v))

function typeSet(s: JsonObject): Set<string> | undefined {
  const t = s.type
  const list = typeof t === 'string' ? [t] : Array.isArray(t) ? t.map(String) : undefined
  if (!list) return undefined
  if (s.nullable === true) list.push('null')
  return new Set(list)
}

/** Does `wide` accept every value of type set `narrow`? (an integer is a number) */
function covers(wide: Set<string>, narrow: Set<string>): boolean {
  for (const t of narrow) if (!wide.has(t) && !(t === 'integer' && wide.has('number'))) return false
  return true
}

const withoutNull = (s: Set<string>) => new Set([...s].filter((t) => t !== 'null'))
const typeText = (s: Set<string> | undefined) => (s ? [...s].sort().join('|') : 'any')

function enumOf(s: JsonObject): unknown[] | undefined {
  if (Array.isArray(s.enum)) return s.enum
  if ('const' in s) return [s.const]
  return undefined
}

function formatOf(s: JsonObject): string | undefined {
  const f = s.format ?? s['x-format']
  return typeof f === 'string' ? f : undefined
}

type Bound = { key: string; upper: boolean; tight: string; loose: string; zero?: boolean }
const BOUNDS: readonly Bound[] = [
  { key: 'maxLength', upper: true, tight: 'max-length-decreased', loose: 'max-length-increased' },
  { key: 'minLength', upper: false, tight: 'min-length-increased', loose: 'min-length-decreased', zero: true },
  { key: 'maximum', upper: true, tight: 'max-decreased', loose: 'max-increased' },
  { key: 'exclusiveMaximum', upper: true, tight: 'max-decreased', loose: 'max-increased' },
  { key: 'minimum', upper: false, tight: 'min-increased', loose: 'min-decreased' },
  { key: 'exclusiveMinimum', upper: false, tight: 'min-increased', loose: 'min-decreased' },
  { key: 'maxItems', upper: true, tight: 'max-items-decreased', loose: 'max-items-increased' },
  { key: 'minItems', upper: false, tight: 'min-items-increased', loose: 'min-items-decreased', zero: true },
]

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

/** `orders[]` + `route` → `orders[].route`. */
export function joinLabel(prefix: string, rel: string): string {
  if (!prefix) return rel
  if (!rel) return prefix
  return rel.startsWith('[') || rel.startsWith('{') ? `${prefix}${rel}` : `${prefix}.${rel}`
}

/** Compares two schemas from an operation and adds what changed to the collector. */
export function compareSchemas(ctx: SchemaContext, b: unknown, bPtr: string, h: unknown, hPtr: string): void {
  for (const r of diffSchema(ctx, b, bPtr, h, hPtr)) ctx.c.add(r.id, r.pointer, r.text(ctx.noun(r.rel)), { ...r.extra, where: ctx.where })
}

/**
 * The changes between the schemas at `b`/`h` (either may be a `$ref`), relative to them.
 * A pair already on the stack is a recursive schema: its changes are reported where it started.
 */
export function diffSchema(ctx: SchemaContext, b: unknown, bPtr: string, h: unknown, hPtr: string, stack = new Set<string>()): readonly SchemaChange[] {
  const rb = resolve(ctx.baseDoc, b, bPtr)
  const rh = resolve(ctx.headDoc, h, hPtr)
  const bs = rb.node
  const hs = rh.node
  if (!bs || !hs) return []
  // Only a pair reached through a `$ref` can recur or be shared: inline pairs are unique.
  if (rb.ptr === bPtr && rh.ptr === hPtr) {
    const out: SchemaChange[] = []
    compareNode(ctx, bs, rb.ptr, hs, rh.ptr, out, stack)
    return out
  }
  const key = `${ctx.dir}|${ctx.prefix}|${rb.merged ? `${bPtr}>` : ''}${rb.ptr}|${rh.merged ? `${hPtr}>` : ''}${rh.ptr}`
  const known = ctx.memo.get(key)
  if (known) return known
  if (stack.has(key)) return []
  stack.add(key)
  const out: SchemaChange[] = []
  try {
    compareNode(ctx, bs, rb.ptr, hs, rh.ptr, out, stack)
  } finally {
    stack.delete(key)
  }
  ctx.memo.set(key, out)
  return out
}

// Module-level helpers rather than per-call closures: this runs for every schema node of big specs.
function push(out: SchemaChange[], id: string, pointer: string, text: (noun: string) => string, extra: SchemaChange['extra'] = {}, rel = ''): void {
  out.push({ id, pointer, rel, text, extra })
}

function rid(ctx: SchemaContext, suffix: string): string {
  return ctx.dir === 'request' ? `${ctx.prefix}-${suffix}` : `response-property-${suffix}`
}

/** Adds a child comparison's changes under the child's relative path. */
function nest(out: SchemaChange[], rel: string, changes: readonly SchemaChange[]): void {
  for (const c of changes) out.push(rel ? { ...c, rel: joinLabel(rel, c.rel) } : c)
}

function compareNode(ctx: SchemaContext, bs: JsonObject, bPtr: string, hs: JsonObject, hPtr: string, out: SchemaChange[], stack: Set<string>): void {
  const { dir, prefix } = ctx
  const req = dir === 'request'

  // type, null and format (nothing to do when both declare the same single type)
  const sameType = typeof bs.type === 'string' && bs.type === hs.type && bs.nullable === hs.nullable
  const tb = sameType ? undefined : typeSet(bs)
  const th = sameType ? undefined : typeSet(hs)
  const tbn = tb && withoutNull(tb)
  const thn = th && withoutNull(th)
  const typeBroken = !sameType && (req ? thn !== undefined && (tbn === undefined || !covers(thn, tbn)) : tbn !== undefined && (thn === undefined || !covers(tbn, thn)))
  if (typeBroken) {
    push(out, rid(ctx, 'type-changed'), `${hPtr}/type`, (n) => `${n} changed type from ${typeText(tbn)} to ${typeText(thn)}`, { before: typeText(tbn), after: typeText(thn) })
  }
  if (req && tb?.has('null') && th && !th.has('null')) {
    push(out, `${prefix}-became-not-nullable`, `${hPtr}/type`, (n) => `${n} no longer accepts null`)
  }
  if (!req && th?.has('null') && tb && !tb.has('null')) {
    push(out, 'response-property-became-nullable', `${hPtr}/type`, (n) => `${n} may now be null`)
  }
  const fb = formatOf(bs)
  const fh = formatOf(hs)
  if (fb !== fh && (req ? fh !== undefined : fb !== undefined)) {
    push(out, rid(ctx, 'type-changed'), `${hPtr}/${hs.format !== undefined ? 'format' : 'x-format'}`, (n) => `${n} changed format from ${fb ?? 'none'} to ${fh ?? 'none'}`, { before: fb ?? null, after: fh ?? null, detail: 'format' })
  }

  // enum and const
  const eb = bs.enum === undefined && !('const' in bs) ? undefined : enumOf(bs)
  const eh = hs.enum === undefined && !('const' in hs) ? undefined : enumOf(hs)
  const enumPtr = `${hPtr}/${Array.isArray(hs.enum) ? 'enum' : 'const'}`
  if (eb && eh) {
    const hk = new Set(eh.map((v) => JSON.stringify(v)))
    const bk = new Set(eb.map((v) => JSON.stringify(v)))
    for (const v of eb) {
      if (hk.has(JSON.stringify(v))) continue
      if (req) push(out, `${prefix}-enum-value-removed`, enumPtr, (n) => `${n} no longer accepts the value ${show(v)}`, { before: v, detail: JSON.stringify(v) })
      else push(out, 'response-property-enum-value-removed', enumPtr, (n) => `${n} no longer returns the value ${show(v)}`, { before: v, detail: JSON.stringify(v) })
    }
    for (const v of eh) {
      if (bk.has(JSON.stringify(v))) continue
      if (req) push(out, `${prefix}-enum-value-added`, enumPtr, (n) => `${n} accepts the new value ${show(v)}`, { after: v, detail: JSON.stringify(v) })
      else if (hs['x-extensible-enum'] !== true) {
        push(out, 'response-property-enum-value-added', enumPtr, (n) => `${n} may return the new value ${show(v)}, which clients may not handle`, { after: v, detail: JSON.stringify(v) })
      }
    }
  } else if (req && !eb && eh) {
    push(out, `${prefix}-became-enum`, enumPtr, (n) => `${n} is now restricted to ${eh.map(show).join(', ')}`, { after: eh })
  }

  if (req) {
    // pattern and bounds only tighten what a request may carry
    const pb = typeof bs.pattern === 'string' ? bs.pattern : undefined
    const ph = typeof hs.pattern === 'string' ? hs.pattern : undefined
    if (!pb && ph) push(out, `${prefix}-pattern-added`, `${hPtr}/pattern`, (n) => `${n} must now match the pattern ${ph}`, { after: ph })
    else if (pb && ph && pb !== ph) push(out, `${prefix}-pattern-changed`, `${hPtr}/pattern`, (n) => `${n} changed its pattern from ${pb} to ${ph}`, { before: pb, after: ph })
    else if (pb && !ph) push(out, `${prefix}-pattern-removed`, hPtr, (n) => `${n} no longer has the pattern ${pb}`, { before: pb })
    for (const bound of BOUNDS) {
      if (bs[bound.key] === hs[bound.key]) continue
      const vb = num(bs[bound.key]) ?? (bound.zero ? 0 : undefined)
      const vh = num(hs[bound.key]) ?? (bound.zero ? 0 : undefined)
      if (vb === vh) continue
      const tighter = bound.upper ? vh !== undefined && (vb === undefined || vh < vb) : vh !== undefined && (vb === undefined || vh > vb)
      const text = (n: string) => `${n} changed ${bound.key} from ${vb ?? 'none'} to ${vh ?? 'none'}`
      const ptr = vh !== undefined ? `${hPtr}/${bound.key}` : hPtr
      push(out, `${prefix}-${tighter ? bound.tight : bound.loose}`, ptr, text, { before: vb ?? null, after: vh ?? null, detail: bound.key })
    }
  }

  compareProperties(ctx, bs, bPtr, hs, hPtr, out, stack)

  if (bs.items !== undefined && hs.items !== undefined && !Array.isArray(bs.items) && !Array.isArray(hs.items)) {
    nest(out, '[]', diffSchema(ctx, bs.items, `${bPtr}/items`, hs.items, `${hPtr}/items`, stack))
  }
  if (isObject(bs.additionalProperties) && isObject(hs.additionalProperties)) {
    nest(out, '{}', diffSchema(ctx, bs.additionalProperties, `${bPtr}/additionalProperties`, hs.additionalProperties, `${hPtr}/additionalProperties`, stack))
  }
  for (const comb of ['allOf', 'oneOf', 'anyOf'] as const) {
    const lb = Array.isArray(bs[comb]) ? (bs[comb] as unknown[]) : []
    const lh = Array.isArray(hs[comb]) ? (hs[comb] as unknown[]) : []
    const n = Math.min(lb.length, lh.length)
    for (let i = 0; i < n; i++) nest(out, '', diffSchema(ctx, lb[i], `${bPtr}/${comb}/${i}`, lh[i], `${hPtr}/${comb}/${i}`, stack))
    if (comb === 'allOf') continue
    if (req && lh.length < lb.length && lb.length > 0) {
      push(out, `${prefix}-one-of-removed`, `${hPtr}/${comb}`, (n) => `${n} lost ${lb.length - lh.length} of its ${comb} alternatives`, { before: lb.length, after: lh.length })
    }
    if (!req && lh.length > lb.length && lb.length > 0) {
      push(out, 'response-property-one-of-added', `${hPtr}/${comb}`, (n) => `${n} may take ${lh.length - lb.length} new ${comb} shape(s)`, { before: lb.length, after: lh.length })
    }
  }
}

function propertiesOf(s: JsonObject): { props: JsonObject; required: Set<string> } {
  const props = isObject(s.properties) ? s.properties : {}
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : [])
  return { props, required }
}

function compareProperties(ctx: SchemaContext, bs: JsonObject, bPtr: string, hs: JsonObject, hPtr: string, out: SchemaChange[], stack: Set<string>): void {
  const { dir } = ctx
  const b = propertiesOf(bs)
  const h = propertiesOf(hs)
  if (Object.keys(b.props).length === 0 && Object.keys(h.props).length === 0 && b.required.size === 0 && h.required.size === 0) return
  const names = [...new Set([...Object.keys(b.props), ...b.required, ...Object.keys(h.props), ...h.required])]
  const req = dir === 'request'
  for (const name of names) {
    const inB = name in b.props || b.required.has(name)
    const inH = name in h.props || h.required.has(name)
    const bp = `${bPtr}/properties/${esc(name)}`
    const hp = `${hPtr}/properties/${esc(name)}`
    if (inB && !inH) {
      if (req) {
        const closed = hs.additionalProperties === false
        push(out, 'request-property-removed', bp, (n) => `${n} was removed${closed ? ', and the schema rejects unknown properties' : ''}`, { severity: closed ? 'breaking' : 'warning' }, name)
      } else if (b.required.has(name)) push(out, 'response-required-property-removed', bp, (n) => `${n} was removed though it was required`, {}, name)
      else push(out, 'response-optional-property-removed', bp, (n) => `${n} was removed`, {}, name)
      continue
    }
    if (!inB && inH) {
      if (req) {
        if (h.required.has(name)) push(out, 'new-required-request-property', hp, (n) => `${n} was added as required`, {}, name)
        else push(out, 'new-optional-request-property', hp, (n) => `${n} was added as optional`, {}, name)
      } else if (h.required.has(name)) push(out, 'response-required-property-added', hp, (n) => `${n} was added as required`, {}, name)
      else push(out, 'response-optional-property-added', hp, (n) => `${n} was added as optional`, {}, name)
      continue
    }
    const wasReq = b.required.has(name)
    const isReq = h.required.has(name)
    if (!wasReq && isReq) push(out, req ? 'request-property-became-required' : 'response-property-became-required', hp, (n) => `${n} became required`, {}, name)
    if (wasReq && !isReq) push(out, req ? 'request-property-became-optional' : 'response-property-became-optional', hp, (n) => `${n} became optional`, {}, name)
    if (name in b.props && name in h.props) nest(out, name, diffSchema(ctx, b.props[name], bp, h.props[name], hp, stack))
  }
}
