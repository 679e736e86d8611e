/**
 * `properties` and `required`, with `readOnly`/`writeOnly` judged by direction: a request never
 * carries a read-only property (so a new required one breaks no client) and a response never
 * carries a write-only one.
 */
import { isObject, type JsonObject } from '../../contract/model.ts'
import { esc, resolve } from '../refs.ts'
import { nest, push, type NodePair } from './kernel.ts'

function propertiesOf(s: JsonObject): { props: JsonObject; required: Set<string> } {
  const props = isObject(s.properties) ? s.properties : {}
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : [])
  return { props, required }
}

interface Inherited {
  readonly props: Map<string, { readonly schema: unknown; readonly ptr: string }>
  readonly required: Set<string>
}

/**
 * The properties a schema gets from its `allOf` members (through `$ref`s, nested `allOf`s too):
 * where one side spells a property inline and the other inherits it (GitHub's flat `nullable-X`
 * copy of `{allOf: [$ref X]}`), the property is still there, so it is compared, not added.
 */
function inheritedOf(doc: unknown, s: JsonObject, ptr: string, seen = new Set<string>()): Inherited {
  const out: Inherited = { props: new Map(), required: new Set() }
  if (!Array.isArray(s.allOf)) return out
  s.allOf.forEach((m, i) => {
    const member = resolve(doc, m, `${ptr}/allOf/${i}`)
    if (!member.node || seen.has(member.ptr)) return
    seen.add(member.ptr)
    const own = propertiesOf(member.node)
    for (const [name, schema] of Object.entries(own.props))
      if (!out.props.has(name)) out.props.set(name, { schema, ptr: `${member.ptr}/properties/${esc(name)}` })
    for (const r of own.required) out.required.add(r)
    const deeper = inheritedOf(doc, member.node, member.ptr, seen)
    for (const [name, p] of deeper.props) if (!out.props.has(name)) out.props.set(name, p)
    for (const r of deeper.required) out.required.add(r)
  })
  return out
}

/** Does the direction ignore this property (`readOnly` in a request, `writeOnly` in a response)? */
function flag(doc: unknown, prop: unknown, ptr: string, key: 'readOnly' | 'writeOnly'): boolean {
  if (prop === undefined) return false
  return resolve(doc, prop, ptr).node?.[key] === true
}

/** A default does not help a client that omits a required property: it is called out all the same. */
const hasDefault = (doc: unknown, prop: unknown, ptr: string) => resolve(doc, prop, ptr).node?.default !== undefined

export function compareProperties({ ctx, bs, bPtr, hs, hPtr, out, stack, walk }: NodePair): void {
  const b = propertiesOf(bs)
  const h = propertiesOf(hs)
  const req = ctx.dir === 'request'
  const unseen = req ? 'readOnly' : 'writeOnly'
  // As in oasdiff, a `required` name with no property schema beside it is not a property.
  const bi = inheritedOf(ctx.baseDoc, bs, bPtr)
  const hi = inheritedOf(ctx.headDoc, hs, hPtr)
  const names = [...new Set([...Object.keys(b.props), ...Object.keys(h.props)])]
  for (const name of names) {
    // A property spelled on one side and inherited through allOf on the other is on both.
    const bInh = !(name in b.props) && name in h.props ? bi.props.get(name) : undefined
    const hInh = !(name in h.props) && name in b.props ? hi.props.get(name) : undefined
    const bProp = bInh ? bInh.schema : b.props[name]
    const hProp = hInh ? hInh.schema : h.props[name]
    const inB = bProp !== undefined
    const inH = hProp !== undefined
    const bp = bInh ? bInh.ptr : `${bPtr}/properties/${esc(name)}`
    const hp = hInh ? hInh.ptr : `${hPtr}/properties/${esc(name)}`
    const hiddenB = flag(ctx.baseDoc, bProp, bp, unseen)
    const hiddenH = flag(ctx.headDoc, hProp, hp, unseen)
    const wasReq = b.required.has(name) || (bInh !== undefined && bi.required.has(name))
    const isReq = h.required.has(name) || (hInh !== undefined && hi.required.has(name))
    if (!req && hiddenB && !hiddenH && wasReq && isReq) {
      push(
        out,
        { id: 'response-required-property-became-not-write-only' },
        hp,
        (n) => `${n} is no longer write-only, so responses now carry it`,
        {},
        name,
      )
    }
    // Neither side ever carries it in this direction: nothing a client sees changed.
    if ((hiddenB || !inB) && (hiddenH || !inH)) continue
    if (inB && !inH) {
      if (req) {
        const closed = hs.additionalProperties === false
        push(
          out,
          { id: 'request-property-removed' },
          bp,
          (n) => `${n} was removed${closed ? ', and the schema rejects unknown properties' : ''}`,
          closed ? { severity: 'breaking' } : {},
          name,
        )
      } else if (wasReq)
        push(out, { id: 'response-required-property-removed' }, bp, (n) => `${n} was removed though it was required`, {}, name)
      else push(out, { id: 'response-optional-property-removed' }, bp, (n) => `${n} was removed`, {}, name)
      continue
    }
    if (!inB && inH) {
      if (req) {
        if (isReq)
          push(
            out,
            {
              id: hasDefault(ctx.headDoc, hProp, hp) ? 'new-required-request-property-with-default' : 'new-required-request-property',
            },
            hp,
            (n) => `${n} was added as required`,
            {},
            name,
          )
        else push(out, { id: 'new-optional-request-property' }, hp, (n) => `${n} was added as optional`, {}, name)
      } else if (isReq) push(out, { id: 'response-required-property-added' }, hp, (n) => `${n} was added as required`, {}, name)
      else push(out, { id: 'response-optional-property-added' }, hp, (n) => `${n} was added as optional`, {}, name)
      continue
    }
    if (hiddenB || hiddenH) continue
    if (!wasReq && isReq) {
      const id = !req
        ? 'response-property-became-required'
        : hasDefault(ctx.headDoc, hProp, hp)
          ? 'request-property-became-required-with-default'
          : 'request-property-became-required'
      push(out, { id }, hp, (n) => `${n} became required`, {}, name)
    }
    if (wasReq && !isReq)
      push(
        out,
        { id: req ? 'request-property-became-optional' : 'response-property-became-optional' },
        hp,
        (n) => `${n} became optional`,
        {},
        name,
      )
    if (inB && inH) nest(out, name, walk(ctx, bProp, bp, hProp, hp, stack))
  }
}
