/**
 * Operation-level changes: paths, operations and webhooks removed or added, deprecation,
 * operationIds and rate-limit categories; then each kept operation's parameters, request body,
 * responses and callbacks. Operations are paired by method and path template, with path
 * parameters matched by position (`/order/{id}` and `/order/{orderId}` are the same operation).
 */
import { HTTP_METHODS, isObject } from '../contract/model.ts'
import { diffRequestBody } from './bodies.ts'
import { diffParameters } from './parameters.ts'
import { esc, resolve } from './refs.ts'
import { diffResponses } from './responses.ts'
import { diffRequirements } from './security.ts'
import { diffStability, promisesNothing, reportInvalidStability } from './stability.ts'
import { deprecationChange, sunsetOf } from './sunset.ts'
import type { Collector } from './collect.ts'
import type { DiffSpec } from './input.ts'
import type { OpContext, OpRef } from './op-context.ts'
import type { Sameness } from './same.ts'

const normalizePath = (p: string) => p.replace(/\{[^}]*\}/g, '{}')

/** The operations of a map of path items (`paths`, `webhooks`, a callback), keyed by method and template. */
function operationsOf(doc: unknown, items: unknown, ptr: string, label: (name: string) => string): Map<string, OpRef> {
  const out = new Map<string, OpRef>()
  if (!isObject(items)) return out
  for (const [name, raw] of Object.entries(items)) {
    const r = resolve(doc, raw, `${ptr}/${esc(name)}`)
    if (!r.node) continue
    for (const method of HTTP_METHODS) {
      const node = r.node[method]
      if (!isObject(node)) continue
      const op: OpRef = {
        method: method.toUpperCase(),
        path: label(name),
        pointer: `${r.ptr}/${method}`,
        node,
        pathItem: r.node,
        itemPtr: r.ptr,
      }
      out.set(`${op.method} ${normalizePath(name)}`, op)
    }
  }
  return out
}

export interface OperationDiffOptions {
  /** ISO date (YYYY-MM-DD) used to judge `x-sunset`. */
  readonly today: string
  readonly same: Sameness
}

const byKey = <T>(m: Map<string, T>) => [...m].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))

export function diffOperations(base: DiffSpec, head: DiffSpec, c: Collector, opts: OperationDiffOptions): void {
  const ctx: OpContext = { base, head, c, memo: new Map(), same: opts.same, today: opts.today }
  const bOps = operationsOf(base.doc, base.doc.paths, '/paths', (n) => n)
  const hOps = operationsOf(head.doc, head.doc.paths, '/paths', (n) => n)
  const hPaths = new Set([...hOps.values()].map((o) => normalizePath(o.path)))
  for (const [key, b] of byKey(bOps)) {
    const h = hOps.get(key)
    if (h && ctx.same.same(b.pathItem, h.pathItem)) continue
    reportInvalidStability(c, b.node, b.pointer, `${b.method} ${b.path}`)
    if (h) reportInvalidStability(c, h.node, h.pointer, `${h.method} ${h.path}`)
    if (h) diffStability(c, b.node, h.node, h.pointer, `${h.method} ${h.path}`)
    if (promisesNothing(b.node)) continue
    if (h) diffOperation(ctx, b, h)
    else reportRemoved(c, b, hPaths.has(normalizePath(b.path)), ctx.today)
  }
  for (const [key, h] of byKey(hOps)) if (!bOps.has(key)) c.add('endpoint-added', h.pointer, `${h.method} ${h.path} was added`)

  const bHooks = operationsOf(base.doc, base.doc.webhooks, '/webhooks', (n) => `webhook ${n}`)
  const hHooks = operationsOf(head.doc, head.doc.webhooks, '/webhooks', (n) => `webhook ${n}`)
  for (const [key, b] of byKey(bHooks)) {
    const h = hHooks.get(key)
    if (h) diffOperation(ctx, b, h)
    else c.add('webhook-removed', b.pointer, `${b.method} ${b.path} was removed; subscribers stop receiving it`)
  }
  for (const [key, h] of byKey(hHooks)) if (!bHooks.has(key)) c.add('webhook-added', h.pointer, `${h.method} ${h.path} was added`)
}

function reportRemoved(c: Collector, b: OpRef, pathKept: boolean, today: string): void {
  const name = `${b.method} ${b.path}`
  if (b.node.deprecated !== true) {
    c.add(
      pathKept ? 'api-removed-without-deprecation' : 'api-path-removed-without-deprecation',
      b.pointer,
      `${name} was removed without being deprecated first`,
    )
    return
  }
  const sunset = sunsetOf(b.node)
  if (sunset.kind === 'invalid')
    c.add('api-path-sunset-parse', b.pointer, `${name} was removed, and its x-sunset ${sunset.raw} is not a date`, { before: sunset.raw })
  else if (sunset.kind === 'date' && today < sunset.date)
    c.add(
      pathKept ? 'api-removed-before-sunset' : 'api-path-removed-before-sunset',
      b.pointer,
      `${name} was removed before its sunset date ${sunset.date}`,
      { before: sunset.date },
    )
  else
    c.add(
      pathKept ? 'api-removed-with-deprecation' : 'api-path-removed-with-deprecation',
      b.pointer,
      `${name} was removed after its deprecation`,
    )
}

function diffOperation(ctx: OpContext, b: OpRef, h: OpRef): void {
  const { c } = ctx
  const where = `${h.method} ${h.path}`
  if (b.node.operationId !== undefined && b.node.operationId !== h.node.operationId) {
    c.add(
      'api-operation-id-removed',
      `${h.pointer}/operationId`,
      `the operationId ${String(b.node.operationId)} of ${where} was ${h.node.operationId === undefined ? 'removed' : `renamed to ${String(h.node.operationId)}`}`,
      {
        before: b.node.operationId,
        after: h.node.operationId ?? null,
      },
    )
  } else if (b.node.operationId === undefined && h.node.operationId !== undefined) {
    c.add('api-operation-id-added', `${h.pointer}/operationId`, `${where} got the operationId ${String(h.node.operationId)}`, {
      after: h.node.operationId,
    })
  }
  const sunset = String(h.node['x-sunset'])
  switch (deprecationChange(b.node, h.node)) {
    case 'deprecated':
      c.add('endpoint-deprecated', `${h.pointer}/deprecated`, `${where} was deprecated`)
      break
    case 'deprecated-with-sunset':
      c.add('endpoint-deprecated-with-sunset', `${h.pointer}/deprecated`, `${where} was deprecated with the sunset ${sunset}`, {
        after: sunset,
      })
      break
    case 'sunset-invalid':
      c.add(
        b.node.deprecated === true ? 'api-path-sunset-parse' : 'api-deprecated-sunset-parse',
        `${h.pointer}/x-sunset`,
        `${where} is deprecated with an x-sunset that is not a date`,
        { before: b.node['x-sunset'] ?? null, after: h.node['x-sunset'] ?? null },
      )
      break
    case 'sunset-deleted':
      c.add('sunset-deleted', h.pointer, `${where} is still deprecated but lost its sunset ${String(b.node['x-sunset'])}`, {
        before: b.node['x-sunset'] ?? null,
      })
      break
    case 'reactivated':
      c.add('endpoint-reactivated', h.pointer, `${where} is no longer deprecated`)
  }
  const rb = isObject(b.node['x-rate-limit']) ? b.node['x-rate-limit'].category : undefined
  const rh = isObject(h.node['x-rate-limit']) ? h.node['x-rate-limit'].category : undefined
  if (rb !== rh) {
    c.add(
      'rate-limit-category-changed',
      `${h.pointer}/x-rate-limit`,
      `${where} is now counted in the rate-limit category ${String(rh ?? 'none')} instead of ${String(rb ?? 'none')}`,
      { before: rb ?? null, after: rh ?? null },
    )
  }
  diffRequirements(c, b.node.security, h.node.security, `${h.pointer}/security`, where)
  diffParameters(ctx, b, h, where)
  diffRequestBody(ctx, b, h, where)
  diffResponses(ctx, b, h, where)
  diffCallbacks(ctx, b, h, where)
}

/** Callback operations are compared like any other, named after the operation that registers them. */
function diffCallbacks(ctx: OpContext, b: OpRef, h: OpRef, where: string): void {
  const cb = isObject(b.node.callbacks) ? b.node.callbacks : {}
  const ch = isObject(h.node.callbacks) ? h.node.callbacks : {}
  for (const name of Object.keys(cb).sort()) {
    if (!(name in ch)) continue
    const rb = resolve(ctx.base.doc, cb[name], `${b.pointer}/callbacks/${esc(name)}`)
    const rh = resolve(ctx.head.doc, ch[name], `${h.pointer}/callbacks/${esc(name)}`)
    const label = (expr: string) => `${expr} (callback ${name} of ${where})`
    const ob = operationsOf(ctx.base.doc, rb.node, rb.ptr, label)
    const oh = operationsOf(ctx.head.doc, rh.node, rh.ptr, label)
    for (const [key, x] of byKey(ob)) {
      const y = oh.get(key)
      if (y) diffOperation(ctx, x, y)
    }
  }
}
