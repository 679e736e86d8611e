/**
 * Request bodies and the media types of any body: a body or media type added or dropped, a
 * media type's schema added or dropped, and the schemas of the media types both sides have.
 */
import { isObject, type JsonObject } from '../contract/model.ts'
import type { ChangeSink } from './collect.ts'
import type { OpContext, OpRef } from './op-context.ts'
import { esc, resolve } from './refs.ts'
import { compareSchemas, type Direction, type SchemaContext } from './schema/index.ts'
import { diffSignedSchema } from './signing.ts'

function contentOf(node: JsonObject | undefined): JsonObject {
  return node && isObject(node.content) ? node.content : {}
}

export function diffRequestBody(ctx: OpContext, b: OpRef, h: OpRef, where: string): void {
  const { c } = ctx
  const rb = resolve(ctx.base.doc, b.node.requestBody, `${b.pointer}/requestBody`)
  const rh = resolve(ctx.head.doc, h.node.requestBody, `${h.pointer}/requestBody`)
  if (!rb.node && rh.node) {
    if (rh.node.required === true) c.add('request-body-added-required', rh.ptr, `${where} now requires a request body`)
    else c.add('request-body-added-optional', rh.ptr, `${where} now accepts an optional request body`)
    return
  }
  if (rb.node && !rh.node) {
    c.add('request-body-removed', rb.ptr, `the request body of ${where} was removed`)
    return
  }
  if (!rb.node || !rh.node) return
  if (rh.node.required === true && rb.node.required !== true)
    c.add('request-body-became-required', `${rh.ptr}/required`, `the request body of ${where} became required`)
  if (rh.node.required !== true && rb.node.required === true)
    c.add('request-body-became-optional', `${rh.ptr}/required`, `the request body of ${where} became optional`)
  diffBodyContent(ctx, 'request', rb.node, rb.ptr, rh.node, rh.ptr, c, where)
}

/** A signed request body written inline (components are compared once, in signing.ts). */
function diffInlineSigned(ctx: OpContext, b: unknown, bPtr: string, h: unknown, hPtr: string, c: ChangeSink, where: string): void {
  const rb = resolve(ctx.base.doc, b, bPtr)
  const rh = resolve(ctx.head.doc, h, hPtr)
  const component = (ptr: string) => ptr.startsWith('/components/schemas/')
  if (component(rb.ptr) && component(rh.ptr)) return
  diffSignedSchema(c, rb.node, rh.node, rh.ptr, 'the request body', where)
}

/** The media types of a request or response body: a dropped one is a change, a kept one has its schema compared. */
export function diffBodyContent(
  ctx: OpContext,
  dir: Direction,
  b: JsonObject,
  bPtr: string,
  h: JsonObject,
  hPtr: string,
  c: ChangeSink,
  where: string,
): void {
  const cb = contentOf(b)
  const ch = contentOf(h)
  const req = dir === 'request'
  for (const media of Object.keys(cb).sort()) {
    const mb = cb[media]
    const mh = ch[media]
    const bp = `${bPtr}/content/${esc(media)}`
    const hp = `${hPtr}/content/${esc(media)}`
    if (mh === undefined) {
      if (req) c.add('request-body-media-type-removed', bp, `the request body no longer accepts ${media}`, { where })
      else c.add('response-media-type-removed', bp, `the response no longer has a ${media} body`, { where })
      continue
    }
    if (!isObject(mb) || !isObject(mh)) continue
    if (mb.schema === undefined && mh.schema !== undefined) {
      c.add(
        req ? 'request-body-media-type-schema-added' : 'response-body-media-type-schema-added',
        `${hp}/schema`,
        `the ${dir} body's ${media} content now has a schema`,
        { where },
      )
      continue
    }
    if (mb.schema !== undefined && mh.schema === undefined) {
      c.add(
        req ? 'request-body-media-type-schema-removed' : 'response-body-media-type-schema-removed',
        hp,
        `the ${dir} body's ${media} content no longer has a schema`,
        { where },
      )
      continue
    }
    const sctx: SchemaContext = {
      c,
      memo: ctx.memo,
      same: ctx.same,
      baseDoc: ctx.base.doc,
      headDoc: ctx.head.doc,
      dir,
      site: 'body',
      noun: (label) => (label ? `${dir} property \`${label}\`` : `the ${dir} body`),
      where,
    }
    compareSchemas(sctx, mb.schema, `${bp}/schema`, mh.schema, `${hp}/schema`)
    if (req) diffInlineSigned(ctx, mb.schema, `${bp}/schema`, mh.schema, `${hp}/schema`, c, where)
  }
  for (const media of Object.keys(ch).sort()) {
    if (media in cb) continue
    const hp = `${hPtr}/content/${esc(media)}`
    if (req) c.add('request-body-media-type-added', hp, `the request body now also accepts ${media}`, { where })
    else c.add('response-media-type-added', hp, `the response may now have a ${media} body`, { where })
  }
}
