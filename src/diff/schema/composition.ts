/**
 * Refactors of composition that leave a schema's values (nearly) as they were, judged as what
 * changed for a client rather than as every keyword that moved:
 * - a schema wrapped into `anyOf`/`oneOf` with itself as a member (Stripe's
 *   `anyOf: [X, {enum: [""]}]`): one finding, "now also accepts the empty string", and the
 *   schema compared with its own member, so a string member that keeps `maxLength: 500` is no
 *   change; unwrapping is the reverse;
 * - `allOf` of one member (with `nullable`, and the member's own `type` repeated) flattened into
 *   an equal schema (GitHub's `{nullable: true, allOf: [$ref X]}` → `nullable-X`): the member is
 *   compared, so properties that are still there are not reported as added or removed (and
 *   properties.ts finds a property inherited through allOf on one side only as still there).
 */
import type { JsonObject } from '../../contract/model.ts'
import { resolve } from '../refs.ts'
import { describeMember, matchAlternatives } from './alternatives.ts'
import { fingerprint, shape } from './fingerprint.ts'
import { nest, push, type NodePair } from './kernel.ts'

const UNIONS = ['anyOf', 'oneOf'] as const
/** Keys that do not change which values a schema accepts (beside its single allOf member). */
const NEUTRAL = new Set([
  'title',
  'description',
  'example',
  'examples',
  '$comment',
  'deprecated',
  'externalDocs',
  'nullable',
  'readOnly',
  'writeOnly',
])
/** Keys that make a node more than a union of its members. */
const OWN = ['type', 'properties', 'items', 'enum', 'const', 'allOf', 'additionalProperties']

const onlyUnion = (s: JsonObject, kw: 'anyOf' | 'oneOf') =>
  Array.isArray(s[kw]) && (s[kw] as unknown[]).length > 1 && !OWN.some((k) => k in s) && !UNIONS.some((u) => u !== kw && u in s)
const hasUnion = (s: JsonObject) => UNIONS.some((u) => Array.isArray(s[u]))

/** `{allOf: [M], nullable?}` as M (with `nullable`), or undefined when the node is more than that. */
function flatAllOf(doc: unknown, s: JsonObject, ptr: string): { node: JsonObject; ptr: string } | undefined {
  if (!Array.isArray(s.allOf) || s.allOf.length !== 1) return undefined
  const member = resolve(doc, s.allOf[0], `${ptr}/allOf/0`)
  if (!member.node) return undefined
  // GitHub's wrappers also repeat the member's `type` (`type: object` beside allOf): no change.
  const same = (k: string) => k === 'type' && JSON.stringify(member.node?.type) === JSON.stringify(s.type)
  if (!Object.keys(s).every((k) => k === 'allOf' || NEUTRAL.has(k) || k.startsWith('x-') || same(k))) return undefined
  return { node: s.nullable === true ? { ...member.node, nullable: true } : member.node, ptr: member.ptr }
}

/** The member of `list` that is `target` itself: the same structure, else the one of the same shape. */
function selfMember(doc: unknown, list: readonly unknown[], targetDoc: unknown, target: JsonObject): number | undefined {
  const fp = fingerprint(targetDoc, target)
  const same = list.findIndex((m) => fingerprint(doc, m) === fp)
  if (same >= 0) return same
  const sh = shape(targetDoc, target)
  const alike = list.flatMap((m, i) => (shape(doc, m) === sh ? [i] : []))
  return alike.length === 1 ? alike[0] : undefined
}

const isNull = (doc: unknown, m: unknown) => {
  const s = resolve(doc, m, '').node
  return s !== undefined && (s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null))
}

/** Returns 'handled' when the pair was a composition refactor and has been compared as one. */
export function compareComposition(p: NodePair): 'handled' | undefined {
  const { ctx, bs, bPtr, hs, hPtr, out, stack, walk } = p
  const fb = flatAllOf(ctx.baseDoc, bs, bPtr)
  const fh = flatAllOf(ctx.headDoc, hs, hPtr)
  if ((fb === undefined) !== (fh === undefined)) {
    const b = fb ?? { node: bs, ptr: bPtr }
    const h = fh ?? { node: hs, ptr: hPtr }
    nest(out, '', walk(ctx, b.node, b.ptr, h.node, h.ptr, stack))
    return 'handled'
  }
  if (switchedUnion(p)) return 'handled'
  for (const kw of UNIONS) {
    const stem = kw === 'anyOf' ? 'any-of' : 'one-of'
    if (!hasUnion(bs) && onlyUnion(hs, kw)) {
      const list = hs[kw] as unknown[]
      const j = selfMember(ctx.headDoc, list, ctx.baseDoc, bs)
      if (j === undefined) continue
      const others = list.flatMap((m, k) => (k === j ? [] : [{ m, k }]))
      const memberPtr = `${hPtr}/${kw}/${j}`
      const verb = ctx.dir === 'request' ? 'now also accepts' : 'may now also be'
      if (others.every(({ m }) => isNull(ctx.headDoc, m))) {
        // Nullable spelled as a union: the member with `nullable` is what is compared.
        const member = resolve(ctx.headDoc, list[j], memberPtr)
        if (!member.node) return undefined
        nest(out, '', walk(ctx, bs, bPtr, { ...member.node, nullable: true }, member.ptr, stack))
        return 'handled'
      }
      const what = others.map(({ m, k }) => describeMember(ctx.headDoc, m, k)).join(', ')
      push(out, `${stem}-added`, `${hPtr}/${kw}`, (n) => `${n} ${verb} ${what} (it became ${kw} [itself, ${what}])`, { after: what })
      nest(out, '', walk(ctx, bs, bPtr, list[j], memberPtr, stack))
      return 'handled'
    }
    if (onlyUnion(bs, kw) && !hasUnion(hs)) {
      const list = bs[kw] as unknown[]
      const i = selfMember(ctx.baseDoc, list, ctx.headDoc, hs)
      if (i === undefined) continue
      const others = list.flatMap((m, k) => (k === i ? [] : [{ m, k }]))
      const memberPtr = `${bPtr}/${kw}/${i}`
      if (others.every(({ m }) => isNull(ctx.baseDoc, m))) {
        const member = resolve(ctx.baseDoc, list[i], memberPtr)
        if (!member.node) return undefined
        nest(out, '', walk(ctx, { ...member.node, nullable: true }, member.ptr, hs, hPtr, stack))
        return 'handled'
      }
      const what = others.map(({ m, k }) => describeMember(ctx.baseDoc, m, k)).join(', ')
      const verb = ctx.dir === 'request' ? 'no longer accepts' : 'is no longer'
      push(out, `${stem}-removed`, hPtr, (n) => `${n} ${verb} ${what} (it was ${kw} [itself, ${what}])`, { before: what })
      nest(out, '', walk(ctx, list[i], memberPtr, hs, hPtr, stack))
      return 'handled'
    }
  }
  return undefined
}

/**
 * `anyOf` ↔ `oneOf` over members matched by identity: one finding for the switch (exclusivity
 * gained or lost), the matched members compared pairwise, and only members that really came or
 * went reported as such, not every member lost and gained.
 */
function switchedUnion(p: NodePair): boolean {
  const { ctx, bs, bPtr, hs, hPtr, out, stack, walk } = p
  const [from, to] =
    onlyUnion(bs, 'anyOf') && onlyUnion(hs, 'oneOf')
      ? (['anyOf', 'oneOf'] as const)
      : onlyUnion(bs, 'oneOf') && onlyUnion(hs, 'anyOf')
        ? (['oneOf', 'anyOf'] as const)
        : []
  if (!from || !to) return false
  const lb = bs[from] as unknown[]
  const lh = hs[to] as unknown[]
  const pairs = matchAlternatives(ctx.baseDoc, bs, lb, ctx.headDoc, hs, lh)
  if (pairs.size === 0) return false
  const narrowed = to === 'oneOf'
  push(
    out,
    narrowed ? 'any-of-became-one-of' : 'one-of-became-any-of',
    `${hPtr}/${to}`,
    (n) =>
      narrowed
        ? `${n} changed anyOf to oneOf over ${pairs.size} matching members: a value must now match exactly one of them`
        : `${n} changed oneOf to anyOf over ${pairs.size} matching members: a value may now match several of them`,
    { before: from, after: to },
  )
  const stem = to === 'oneOf' ? 'one-of' : 'any-of'
  const matchedH = new Set(pairs.values())
  for (const [i, j] of [...pairs].sort((x, y) => x[0] - y[0]))
    nest(out, '', walk(ctx, lb[i], `${bPtr}/${from}/${i}`, lh[j], `${hPtr}/${to}/${j}`, stack))
  lb.forEach((m, i) => {
    if (!pairs.has(i))
      push(out, `${stem}-removed`, `${hPtr}/${to}`, (n) => `${n} lost the ${to} member ${describeMember(ctx.baseDoc, m, i)}`)
  })
  lh.forEach((m, j) => {
    if (!matchedH.has(j))
      push(out, `${stem}-added`, `${hPtr}/${to}/${j}`, (n) => `${n} gained the ${to} member ${describeMember(ctx.headDoc, m, j)}`)
  })
  return true
}
