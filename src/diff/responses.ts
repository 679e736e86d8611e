/**
 * Responses of an operation: statuses, headers (the rate-limit headers among them, with their
 * schemas), bodies and the error codes each response declares. A shared response component is
 * compared once and replayed for every operation that uses it.
 */
import { isObject, responseErrorCodes, type JsonObject } from '../contract/model.ts'
import { diffBodyContent } from './bodies.ts'
import { Recorder, type ChangeSink } from './collect.ts'
import type { OpContext, OpRef } from './op-context.ts'
import { esc, resolve } from './refs.ts'
import { compareSchemas, type SchemaMemo } from './schema/index.ts'

const isSuccess = (status: string) => /^2/.test(status)

/** Shared response components, compared once per pair of documents. */
const responseMemos = new WeakMap<SchemaMemo, Map<string, Recorder>>()

export function diffResponses(ctx: OpContext, b: OpRef, h: OpRef, where: string): void {
  const { c, memo } = ctx
  let responseMemo = responseMemos.get(memo)
  if (!responseMemo) responseMemos.set(memo, (responseMemo = new Map()))
  const sb = isObject(b.node.responses) ? b.node.responses : {}
  const sh = isObject(h.node.responses) ? h.node.responses : {}
  for (const status of Object.keys(sb).sort()) {
    const bPtr = `${b.pointer}/responses/${esc(status)}`
    if (!(status in sh)) {
      if (isSuccess(status)) c.add('response-success-status-removed', bPtr, `${where} no longer returns the success status ${status}`)
      else c.add('response-non-success-status-removed', bPtr, `${where} no longer declares the status ${status}`)
      continue
    }
    if (ctx.same.same(sb[status], sh[status])) continue
    const hPtr = `${h.pointer}/responses/${esc(status)}`
    const rb = resolve(ctx.base.doc, sb[status], bPtr)
    const rh = resolve(ctx.head.doc, sh[status], hPtr)
    if (!rb.node || !rh.node) continue
    const seenFrom = `${where} (${status})`
    if (rb.ptr === bPtr && rh.ptr === hPtr) {
      diffResponse(ctx, rb.node, rb.ptr, rh.node, rh.ptr, c, seenFrom)
      continue
    }
    // A shared response component (BadRequest, RateLimited, ...) is compared once and replayed.
    const key = `response|${rb.ptr}|${rh.ptr}`
    let rec = responseMemo.get(key)
    if (!rec) {
      rec = new Recorder()
      diffResponse(ctx, rb.node, rb.ptr, rh.node, rh.ptr, rec, seenFrom)
      responseMemo.set(key, rec)
    }
    rec.replay(c, seenFrom)
  }
  for (const status of Object.keys(sh).sort()) {
    if (status in sb) continue
    const hPtr = `${h.pointer}/responses/${esc(status)}`
    c.add(
      isSuccess(status) ? 'response-success-status-added' : 'response-non-success-status-added',
      hPtr,
      `${where} may return the status ${status}`,
    )
    const rh = resolve(ctx.head.doc, sh[status], hPtr)
    if (rh.node) {
      for (const code of responseErrorCodes(rh.node)) {
        c.add(
          'error-code-added-to-operation',
          `${rh.ptr}/${listOf(code)}`,
          `the error code ${code} may be returned with status ${status}`,
          { where, detail: String(code), after: code },
        )
      }
    }
  }
}

const listOf = (code: string | number) => (typeof code === 'number' ? 'x-jsonrpc-error-codes' : 'x-error-codes')

interface Header {
  readonly name: string
  readonly node: JsonObject
  /** Where the response declares it (removing it is an edit there). */
  readonly ptr: string
  /** Where it is defined (a shared component is changed once). */
  readonly defPtr: string
}

function headersOf(doc: unknown, response: JsonObject, ptr: string): Map<string, Header> {
  const out = new Map<string, Header>()
  if (!isObject(response.headers)) return out
  for (const [name, hdr] of Object.entries(response.headers)) {
    const r = resolve(doc, hdr, `${ptr}/headers/${esc(name)}`)
    if (r.node) out.set(name.toLowerCase(), { name, node: r.node, ptr: `${ptr}/headers/${esc(name)}`, defPtr: r.ptr })
  }
  return out
}

function diffHeaders(ctx: OpContext, b: JsonObject, bPtr: string, h: JsonObject, hPtr: string, c: ChangeSink, where: string): void {
  const hb = headersOf(ctx.base.doc, b, bPtr)
  const hh = headersOf(ctx.head.doc, h, hPtr)
  for (const [key, x] of [...hb].sort()) {
    const y = hh.get(key)
    if (!y) {
      if (x.node.required === true)
        c.add('required-response-header-removed', x.ptr, `the required response header ${x.name} was removed`, { where })
      else c.add('optional-response-header-removed', x.ptr, `the optional response header ${x.name} was removed`, { where })
      continue
    }
    if (x.node.required === true && y.node.required !== true) {
      c.add('response-header-became-optional', `${y.defPtr}/required`, `the response header ${x.name} is no longer guaranteed`, { where })
    }
    const noun = (label: string) => `the response header ${x.name}${label ? `.${label}` : ''}`
    compareSchemas(
      { c, memo: ctx.memo, same: ctx.same, baseDoc: ctx.base.doc, headDoc: ctx.head.doc, dir: 'response', site: 'header', noun, where },
      x.node.schema,
      `${x.defPtr}/schema`,
      y.node.schema,
      `${y.defPtr}/schema`,
    )
  }
  for (const [key, y] of [...hh].sort())
    if (!hb.has(key)) c.add('response-header-added', y.ptr, `the response header ${y.name} was added`, { where })
}

function diffResponse(ctx: OpContext, b: JsonObject, bPtr: string, h: JsonObject, hPtr: string, c: ChangeSink, where: string): void {
  diffHeaders(ctx, b, bPtr, h, hPtr, c, where)
  diffBodyContent(ctx, 'response', b, bPtr, h, hPtr, c, where)

  const codesB = new Set(responseErrorCodes(b).map(String))
  const codesH = responseErrorCodes(h)
  for (const code of codesH) {
    if (codesB.has(String(code))) continue
    c.add('error-code-added-to-operation', `${hPtr}/${listOf(code)}`, `the error code ${code} may now be returned`, {
      where,
      detail: String(code),
      after: code,
    })
  }
  const setH = new Set(codesH.map(String))
  for (const code of responseErrorCodes(b)) {
    if (setH.has(String(code))) continue
    c.add('error-code-removed-from-operation', `${hPtr}/${listOf(code)}`, `the error code ${code} is no longer returned`, {
      where,
      detail: String(code),
      before: code,
    })
  }
}
