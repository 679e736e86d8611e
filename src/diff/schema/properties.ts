/**
 * `properties` and `required`, with `readOnly`/`writeOnly` judged by direction: a request never
 * carries a read-only property (so a new required one breaks no client) and a response never
 * carries a write-only one.
 */
import { isObject, type JsonObject } from '../../contract/model.ts'
import { esc, resolve } from '../refs.ts'
import { diffSchema, nest, push, type NodePair } from './index.ts'

function propertiesOf(s: JsonObject): { props: JsonObject; required: Set<string> } {
  const props = isObject(s.properties) ? s.properties : {}
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : [])
  return { props, required }
}

/** Does the direction ignore this property (`readOnly` in a request, `writeOnly` in a response)? */
function flag(doc: unknown, prop: unknown, ptr: string, key: 'readOnly' | 'writeOnly'): boolean {
  if (prop === undefined) return false
  return resolve(doc, prop, ptr).node?.[key] === true
}

/** A default does not help a client that omits a required property: it is called out all the same. */
const hasDefault = (doc: unknown, prop: unknown, ptr: string) => resolve(doc, prop, ptr).node?.default !== undefined

export function compareProperties({ ctx, bs, bPtr, hs, hPtr, out, stack }: NodePair): void {
  const b = propertiesOf(bs)
  const h = propertiesOf(hs)
  const req = ctx.dir === 'request'
  const unseen = req ? 'readOnly' : 'writeOnly'
  // As in oasdiff, a `required` name with no property schema beside it is not a property.
  const names = [...new Set([...Object.keys(b.props), ...Object.keys(h.props)])]
  for (const name of names) {
    const inB = name in b.props
    const inH = name in h.props
    const bp = `${bPtr}/properties/${esc(name)}`
    const hp = `${hPtr}/properties/${esc(name)}`
    const hiddenB = flag(ctx.baseDoc, b.props[name], bp, unseen)
    const hiddenH = flag(ctx.headDoc, h.props[name], hp, unseen)
    const wasReq = b.required.has(name)
    const isReq = h.required.has(name)
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
              id: hasDefault(ctx.headDoc, h.props[name], hp)
                ? 'new-required-request-property-with-default'
                : 'new-required-request-property',
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
        : hasDefault(ctx.headDoc, h.props[name], hp)
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
    if (name in b.props && name in h.props) nest(out, name, diffSchema(ctx, b.props[name], bp, h.props[name], hp, stack))
  }
}
