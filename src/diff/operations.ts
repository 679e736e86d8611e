/**
 * Operation-level changes: operations removed or added, parameters, request bodies, response
 * statuses, headers (the rate-limit headers among them), bodies and the error codes each
 * response declares. Schemas are compared by `schema.ts` with `$ref`s resolved.
 */
import type { FullContract } from '../contract/load.ts'
import { getPointer, isObject, responseErrorCodes, type JsonObject } from '../contract/model.ts'
import { Recorder, type ChangeSink, type Collector } from './collect.ts'
import { compareSchemas, esc, resolve, type Direction, type SchemaContext, type SchemaMemo } from './schema.ts'

interface OpRef {
  readonly key: string
  readonly method: string
  readonly path: string
  readonly pointer: string
  readonly node: JsonObject
  readonly pathItem: JsonObject
}

/** `/order/{id}` and `/order/{orderId}` are the same operation. */
const normalizePath = (p: string) => p.replace(/\{[^}]*\}/g, '{}')

function operationsOf(spec: FullContract): Map<string, OpRef> {
  const out = new Map<string, OpRef>()
  for (const op of spec.operations) {
    const node = getPointer(spec.doc, op.pointer)
    const pathItem = (spec.doc.paths as JsonObject)[op.path]
    if (!isObject(node) || !isObject(pathItem)) continue
    const key = `${op.method} ${normalizePath(op.path)}`
    out.set(key, { key, method: op.method, path: op.path, pointer: op.pointer, node, pathItem })
  }
  return out
}

export interface OperationDiffOptions {
  /** ISO date (YYYY-MM-DD) used to judge `x-sunset`. */
  readonly today: string
}

export function diffOperations(base: FullContract, head: FullContract, c: Collector, opts: OperationDiffOptions): void {
  const memo: SchemaMemo = new Map()
  const bOps = operationsOf(base)
  const hOps = operationsOf(head)
  for (const [key, b] of [...bOps].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const h = hOps.get(key)
    const name = `${b.method} ${b.path}`
    if (!h) {
      if (b.node.deprecated !== true) {
        c.add('api-removed-without-deprecation', b.pointer, `${name} was removed without being deprecated first`)
      } else {
        const sunset = typeof b.node['x-sunset'] === 'string' ? b.node['x-sunset'] : undefined
        if (sunset && opts.today < sunset) c.add('api-removed-before-sunset', b.pointer, `${name} was removed before its sunset date ${sunset}`, { before: sunset })
        else c.add('endpoint-removed', b.pointer, `${name} was removed after its deprecation`)
      }
      continue
    }
    diffOperation(base, head, b, h, c, memo)
  }
  for (const [key, h] of hOps) {
    if (!bOps.has(key)) c.add('endpoint-added', h.pointer, `${h.method} ${h.path} was added`)
  }
}

function diffOperation(base: FullContract, head: FullContract, b: OpRef, h: OpRef, c: Collector, memo: SchemaMemo): void {
  const where = `${h.method} ${h.path}`
  if (b.node.operationId !== undefined && b.node.operationId !== h.node.operationId) {
    c.add('api-operation-id-removed', `${h.pointer}/operationId`, `the operationId ${String(b.node.operationId)} of ${where} was ${h.node.operationId === undefined ? 'removed' : `renamed to ${String(h.node.operationId)}`}`, {
      before: b.node.operationId,
      after: h.node.operationId ?? null,
    })
  }
  if (b.node.deprecated !== true && h.node.deprecated === true) c.add('endpoint-deprecated', `${h.pointer}/deprecated`, `${where} was deprecated`)
  const rb = isObject(b.node['x-rate-limit']) ? b.node['x-rate-limit'].category : undefined
  const rh = isObject(h.node['x-rate-limit']) ? h.node['x-rate-limit'].category : undefined
  if (rb !== rh) {
    c.add('rate-limit-category-changed', `${h.pointer}/x-rate-limit`, `${where} is now counted in the rate-limit category ${String(rh ?? 'none')} instead of ${String(rb ?? 'none')}`, { before: rb ?? null, after: rh ?? null })
  }
  diffParameters(base, head, b, h, c, where, memo)
  diffRequestBody(base, head, b, h, c, where, memo)
  diffResponses(base, head, b, h, c, where, memo)
}

// ---------------------------------------------------------------- parameters

interface Param {
  readonly node: JsonObject
  readonly ptr: string
  readonly name: string
  readonly in: string
}

function parametersOf(spec: FullContract, op: OpRef): Map<string, Param> {
  const out = new Map<string, Param>()
  const pathPtr = op.pointer.slice(0, op.pointer.lastIndexOf('/'))
  // Path parameters are matched by position in the template, so renaming `{id}` is not a removal.
  const templateNames = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1])
  const lists: [unknown, string][] = [
    [op.pathItem.parameters, `${pathPtr}/parameters`],
    [op.node.parameters, `${op.pointer}/parameters`],
  ]
  for (const [list, at] of lists) {
    if (!Array.isArray(list)) continue
    list.forEach((p, i) => {
      const r = resolve(spec.doc, p, `${at}/${i}`)
      if (!r.node) return
      const name = String(r.node.name)
      const where = String(r.node.in)
      const slot = where === 'path' ? templateNames.indexOf(name) : -1
      const key = slot >= 0 ? `path:#${slot}` : `${where}:${where === 'header' ? name.toLowerCase() : name}`
      out.set(key, { node: r.node, ptr: r.ptr, name, in: where })
    })
  }
  return out
}

function diffParameters(base: FullContract, head: FullContract, b: OpRef, h: OpRef, c: Collector, where: string, memo: SchemaMemo): void {
  const pb = parametersOf(base, b)
  const ph = parametersOf(head, h)
  for (const [key, p] of [...pb].sort()) {
    const q = ph.get(key)
    const what = `${p.in} parameter \`${p.name}\``
    if (!q) {
      c.add('request-parameter-removed', p.ptr, `the ${what} was removed`, { where })
      continue
    }
    const wasReq = p.node.required === true
    const isReq = q.node.required === true
    if (!wasReq && isReq) c.add('request-parameter-became-required', `${q.ptr}/required`, `the ${what} became required`, { where })
    if (wasReq && !isReq) c.add('request-parameter-became-optional', `${q.ptr}/required`, `the ${what} became optional`, { where })
    const ctx: SchemaContext = {
      c,
      memo,
      baseDoc: base.doc,
      headDoc: head.doc,
      dir: 'request',
      prefix: 'request-parameter',
      noun: (label) => `the ${p.in} parameter \`${label ? `${p.name}.${label}` : p.name}\``,
      where,
    }
    compareSchemas(ctx, p.node.schema, `${p.ptr}/schema`, q.node.schema, `${q.ptr}/schema`)
  }
  for (const [key, q] of [...ph].sort()) {
    if (pb.has(key)) continue
    const what = `${q.in} parameter \`${q.name}\``
    if (q.node.required === true) c.add('new-required-request-parameter', q.ptr, `the required ${what} was added`, { where })
    else c.add('new-optional-request-parameter', q.ptr, `the optional ${what} was added`, { where })
  }
}

// ---------------------------------------------------------------- request body

function contentOf(node: JsonObject | undefined): JsonObject {
  return node && isObject(node.content) ? node.content : {}
}

function diffRequestBody(base: FullContract, head: FullContract, b: OpRef, h: OpRef, c: Collector, where: string, memo: SchemaMemo): void {
  const rb = resolve(base.doc, b.node.requestBody, `${b.pointer}/requestBody`)
  const rh = resolve(head.doc, h.node.requestBody, `${h.pointer}/requestBody`)
  if (rh.node?.required === true && rb.node?.required !== true) {
    c.add('request-body-became-required', `${rh.ptr}/required`, `the request body of ${where} became required`)
  }
  if (!rb.node || !rh.node) return
  diffBodyContent('request', base, head, rb.node, rb.ptr, rh.node, rh.ptr, c, where, memo)
}

/** The media types of a request or response body: a dropped one is a change, a kept one has its schema compared. */
function diffBodyContent(dir: Direction, base: FullContract, head: FullContract, b: JsonObject, bPtr: string, h: JsonObject, hPtr: string, c: ChangeSink, where: string, memo: SchemaMemo): void {
  const cb = contentOf(b)
  const ch = contentOf(h)
  for (const media of Object.keys(cb).sort()) {
    const mb = cb[media]
    const mh = ch[media]
    const bp = `${bPtr}/content/${esc(media)}`
    if (mh === undefined) {
      if (dir === 'request') c.add('request-body-media-type-removed', bp, `the request body no longer accepts ${media}`, { where })
      else c.add('response-media-type-removed', bp, `the response no longer has a ${media} body`, { where })
      continue
    }
    if (!isObject(mb) || !isObject(mh)) continue
    const ctx: SchemaContext = {
      c,
      memo,
      baseDoc: base.doc,
      headDoc: head.doc,
      dir,
      prefix: 'request-property',
      noun: (label) => (label ? `${dir} property \`${label}\`` : `the ${dir} body`),
      where,
    }
    compareSchemas(ctx, mb.schema, `${bp}/schema`, mh.schema, `${hPtr}/content/${esc(media)}/schema`)
  }
}

// ---------------------------------------------------------------- responses

const isSuccess = (status: string) => /^2/.test(status)

/** Shared response components, compared once per pair of documents. */
const responseMemos = new WeakMap<SchemaMemo, Map<string, Recorder>>()

function diffResponses(base: FullContract, head: FullContract, b: OpRef, h: OpRef, c: Collector, where: string, memo: SchemaMemo): void {
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
    const hPtr = `${h.pointer}/responses/${esc(status)}`
    const rb = resolve(base.doc, sb[status], bPtr)
    const rh = resolve(head.doc, sh[status], hPtr)
    if (!rb.node || !rh.node) continue
    const seenFrom = `${where} (${status})`
    if (rb.ptr === bPtr && rh.ptr === hPtr) {
      diffResponse(base, head, rb.node, rb.ptr, rh.node, rh.ptr, c, seenFrom, memo)
      continue
    }
    // A shared response component (BadRequest, RateLimited, ...) is compared once and replayed.
    const key = `response|${rb.ptr}|${rh.ptr}`
    let rec = responseMemo.get(key)
    if (!rec) {
      rec = new Recorder()
      diffResponse(base, head, rb.node, rb.ptr, rh.node, rh.ptr, rec, seenFrom, memo)
      responseMemo.set(key, rec)
    }
    rec.replay(c, seenFrom)
  }
  for (const status of Object.keys(sh).sort()) {
    if (status in sb) continue
    const hPtr = `${h.pointer}/responses/${esc(status)}`
    c.add(isSuccess(status) ? 'response-success-status-added' : 'response-non-success-status-added', hPtr, `${where} may return the status ${status}`)
    const rh = resolve(head.doc, sh[status], hPtr)
    if (rh.node) {
      for (const code of responseErrorCodes(rh.node)) {
        c.add('error-code-added-to-operation', `${rh.ptr}/${typeof code === 'number' ? 'x-jsonrpc-error-codes' : 'x-error-codes'}`, `the error code ${code} may be returned with status ${status}`, { where, detail: String(code), after: code })
      }
    }
  }
}

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

function diffResponse(base: FullContract, head: FullContract, b: JsonObject, bPtr: string, h: JsonObject, hPtr: string, c: ChangeSink, where: string, memo: SchemaMemo): void {
  const hb = headersOf(base.doc, b, bPtr)
  const hh = headersOf(head.doc, h, hPtr)
  for (const [key, x] of [...hb].sort()) {
    const y = hh.get(key)
    if (!y) {
      if (x.node.required === true) c.add('required-response-header-removed', x.ptr, `the required response header ${x.name} was removed`, { where })
      else c.add('optional-response-header-removed', x.ptr, `the optional response header ${x.name} was removed`, { where })
    } else if (x.node.required === true && y.node.required !== true) {
      c.add('response-header-became-optional', `${y.defPtr}/required`, `the response header ${x.name} is no longer guaranteed`, { where })
    }
  }

  diffBodyContent('response', base, head, b, bPtr, h, hPtr, c, where, memo)

  const codesB = new Set(responseErrorCodes(b).map(String))
  const codesH = responseErrorCodes(h)
  for (const code of codesH) {
    if (codesB.has(String(code))) continue
    const list = typeof code === 'number' ? 'x-jsonrpc-error-codes' : 'x-error-codes'
    c.add('error-code-added-to-operation', `${hPtr}/${list}`, `the error code ${code} may now be returned`, { where, detail: String(code), after: code })
  }
  const setH = new Set(codesH.map(String))
  for (const code of responseErrorCodes(b)) {
    if (setH.has(String(code))) continue
    const list = typeof code === 'number' ? 'x-jsonrpc-error-codes' : 'x-error-codes'
    c.add('error-code-removed-from-operation', `${hPtr}/${list}`, `the error code ${code} is no longer returned`, { where, detail: String(code), before: code })
  }
}
