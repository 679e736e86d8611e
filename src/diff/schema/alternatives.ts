/**
 * `oneOf`, `anyOf` and `allOf` members are matched by identity, never by position: the `$ref`
 * target, the discriminator mapping value, the title, then the structural fingerprint and, last,
 * the shape (type and property names). Inserting an alternative is then one `…-added`, not a
 * cascade of changes to every alternative after it. The discriminator is compared here too.
 */
import { isObject, type JsonObject } from '../../contract/model.ts'
import type { SchemaSuffix } from '../registry.ts'
import { resolve } from '../refs.ts'
import { fingerprint, shape } from './fingerprint.ts'
import { nest, push, type NodePair } from './kernel.ts'

const COMBINERS = [
  ['oneOf', 'one-of'],
  ['anyOf', 'any-of'],
  ['allOf', 'all-of'],
] as const

type Key = (doc: unknown, parent: JsonObject, alt: unknown) => string | undefined

/** Identity keys, strongest first. */
const KEYS: readonly Key[] = [
  (_doc, _p, alt) => (isObject(alt) && typeof alt.$ref === 'string' ? alt.$ref : undefined),
  (_doc, p, alt) => {
    const mapping = isObject(p.discriminator) && isObject(p.discriminator.mapping) ? p.discriminator.mapping : undefined
    if (!mapping || !isObject(alt) || typeof alt.$ref !== 'string') return undefined
    return Object.keys(mapping).find((k) => mapping[k] === alt.$ref)
  },
  (doc, _p, alt) => {
    const t = resolve(doc, alt, '').node?.title
    return typeof t === 'string' ? t : undefined
  },
  (doc, _p, alt) => fingerprint(doc, alt),
  (doc, _p, alt) => shape(doc, alt) || undefined,
]

/** Pairs base and head members: index in base → index in head. */
export function matchAlternatives(
  baseDoc: unknown,
  bs: JsonObject,
  lb: readonly unknown[],
  headDoc: unknown,
  hs: JsonObject,
  lh: readonly unknown[],
): Map<number, number> {
  const pairs = new Map<number, number>()
  const usedH = new Set<number>()
  for (const key of KEYS) {
    const kb = new Map<string, number[]>()
    const kh = new Map<string, number[]>()
    lb.forEach((alt, i) => {
      if (pairs.has(i)) return
      const k = key(baseDoc, bs, alt)
      if (k !== undefined) kb.set(k, [...(kb.get(k) ?? []), i])
    })
    lh.forEach((alt, j) => {
      if (usedH.has(j)) return
      const k = key(headDoc, hs, alt)
      if (k !== undefined) kh.set(k, [...(kh.get(k) ?? []), j])
    })
    for (const [k, is] of kb) {
      const js = kh.get(k)
      // An ambiguous key (two members alike) pairs nothing: a weaker key may still tell them apart.
      if (is.length === 1 && js?.length === 1) {
        pairs.set(is[0]!, js[0]!)
        usedH.add(js[0]!)
      }
    }
  }
  // One member left on each side: the same alternative, edited.
  const restB = lb.map((_, i) => i).filter((i) => !pairs.has(i))
  const restH = lh.map((_, j) => j).filter((j) => !usedH.has(j))
  if (restB.length === 1 && restH.length === 1) pairs.set(restB[0]!, restH[0]!)
  return pairs
}

/** What a member adds, in a client's words: "the empty string", "null", "any integer", `Card`. */
export function describeMember(doc: unknown, member: unknown, i: number): string {
  if (isObject(member) && typeof member.$ref === 'string') return member.$ref.slice(member.$ref.lastIndexOf('/') + 1)
  const s = resolve(doc, member, '').node
  if (!s) return `#${i}`
  if (Array.isArray(s.enum)) return s.enum.map((v) => (v === '' ? 'the empty string' : v === null ? 'null' : JSON.stringify(v))).join(', ')
  if (s.type === 'null') return 'null'
  if (typeof s.type === 'string') return `any ${s.type}`
  return typeof s.title === 'string' ? s.title : `#${i}`
}

const ANNOTATION_ONLY = new Set(['title', 'description', 'example', 'examples', '$comment', 'deprecated', 'externalDocs'])
const annotationOnly = (doc: unknown, alt: unknown) => {
  const s = resolve(doc, alt, '').node
  return s !== undefined && Object.keys(s).every((k) => ANNOTATION_ONLY.has(k) || k.startsWith('x-'))
}

/** Returns 'wrapped' when head wraps base's object in a oneOf: that one finding stands for the rest. */
export function compareAlternatives(p: NodePair): 'wrapped' | undefined {
  const { ctx, bs, bPtr, hs, hPtr, out, stack, walk } = p
  if (
    !Array.isArray(bs.oneOf) &&
    !Array.isArray(bs.anyOf) &&
    isObject(bs.properties) &&
    Array.isArray(hs.oneOf) &&
    hs.oneOf.length > 0 &&
    !isObject(hs.properties)
  ) {
    push(
      out,
      'wrapped-in-one-of',
      `${hPtr}/oneOf`,
      (n) =>
        `${n} was wrapped in a oneOf of ${(hs.oneOf as unknown[]).length} alternatives, so a payload may match several and be rejected`,
    )
    return 'wrapped'
  }
  for (const [kw, stem] of COMBINERS) {
    const lb = Array.isArray(bs[kw]) ? (bs[kw] as unknown[]) : []
    const lh = Array.isArray(hs[kw]) ? (hs[kw] as unknown[]) : []
    if (lb.length === 0 && lh.length === 0) continue
    const pairs = matchAlternatives(ctx.baseDoc, bs, lb, ctx.headDoc, hs, lh)
    const matchedH = new Set(pairs.values())
    for (const [i, j] of [...pairs].sort((x, y) => x[0] - y[0]))
      nest(out, '', walk(ctx, lb[i], `${bPtr}/${kw}/${i}`, lh[j], `${hPtr}/${kw}/${j}`, stack))
    lb.forEach((alt, i) => {
      if (pairs.has(i)) return
      const suffix: SchemaSuffix =
        stem === 'all-of' && annotationOnly(ctx.baseDoc, alt) ? 'all-of-removed-annotation-only' : `${stem}-removed`
      push(out, suffix, `${hPtr}/${kw}`, (n) => `${n} lost the ${kw} member ${label(ctx.baseDoc, alt, i)}`, {
        detail: `${kw}-${i}`,
        before: label(ctx.baseDoc, alt, i),
      })
    })
    lh.forEach((alt, j) => {
      if (matchedH.has(j)) return
      const suffix: SchemaSuffix = stem === 'all-of' && annotationOnly(ctx.headDoc, alt) ? 'all-of-added-annotation-only' : `${stem}-added`
      push(out, suffix, `${hPtr}/${kw}/${j}`, (n) => `${n} gained the ${kw} member ${label(ctx.headDoc, alt, j)}`, {
        detail: `+${kw}-${j}`,
        after: label(ctx.headDoc, alt, j),
      })
    })
  }
  compareDiscriminator(p)
  return undefined
}

function label(doc: unknown, alt: unknown, i: number): string {
  const t = isObject(alt) && typeof alt.$ref !== 'string' ? resolve(doc, alt, '').node?.title : undefined
  return typeof t === 'string' ? t : describeMember(doc, alt, i)
}

function compareDiscriminator({ bs, hs, hPtr, out }: NodePair): void {
  const db = isObject(bs.discriminator) ? bs.discriminator : undefined
  const dh = isObject(hs.discriminator) ? hs.discriminator : undefined
  if (!db && !dh) return
  const ptr = `${hPtr}/discriminator`
  if (!db) return push(out, 'discriminator-added', ptr, (n) => `${n} gained a discriminator on ${String(dh!.propertyName)}`)
  if (!dh) return push(out, 'discriminator-removed', hPtr, (n) => `${n} lost its discriminator on ${String(db.propertyName)}`)
  if (db.propertyName !== dh.propertyName) {
    push(
      out,
      'discriminator-property-name-changed',
      `${ptr}/propertyName`,
      (n) => `${n} now discriminates on ${String(dh.propertyName)} instead of ${String(db.propertyName)}`,
      { before: db.propertyName, after: dh.propertyName },
    )
  }
  const mb = isObject(db.mapping) ? db.mapping : {}
  const mh = isObject(dh.mapping) ? dh.mapping : {}
  for (const k of Object.keys(mb)) {
    if (!(k in mh))
      push(out, 'discriminator-mapping-deleted', `${ptr}/mapping`, (n) => `${n} no longer maps the discriminator value ${k}`, { detail: k })
    else if (mb[k] !== mh[k])
      push(
        out,
        'discriminator-mapping-changed',
        `${ptr}/mapping`,
        (n) => `${n} maps the discriminator value ${k} to ${String(mh[k])} instead of ${String(mb[k])}`,
        { detail: k },
      )
  }
  for (const k of Object.keys(mh))
    if (!(k in mb))
      push(out, 'discriminator-mapping-added', `${ptr}/mapping`, (n) => `${n} maps the new discriminator value ${k}`, { detail: `+${k}` })
}
