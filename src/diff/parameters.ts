/**
 * Parameters of an operation, path-level ones included (an operation-level one overrides it).
 * Path parameters are matched by their position in the template, so renaming `{id}` is neither
 * a removal nor an addition; the others by location and name (headers case-insensitively).
 */
import { isObject, type JsonObject } from '../contract/model.ts'
import type { OpContext, OpRef } from './op-context.ts'
import { esc, resolve } from './refs.ts'
import { deprecationChange, sunsetOf } from './sunset.ts'
import { compareSchemas, type SchemaContext } from './schema/index.ts'

interface Param {
  readonly node: JsonObject
  readonly ptr: string
  readonly name: string
  readonly in: string
  /** Declared on the path item, for every operation of the path. */
  readonly pathLevel: boolean
}

function parametersOf(doc: unknown, op: OpRef): Map<string, Param> {
  const out = new Map<string, Param>()
  const templateNames = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1])
  const lists: [unknown, string, boolean][] = [
    [op.pathItem.parameters, `${op.itemPtr}/parameters`, true],
    [op.node.parameters, `${op.pointer}/parameters`, false],
  ]
  for (const [list, at, pathLevel] of lists) {
    if (!Array.isArray(list)) continue
    list.forEach((p, i) => {
      const r = resolve(doc, p, `${at}/${i}`)
      if (!r.node) return
      const name = String(r.node.name)
      const where = String(r.node.in)
      const slot = where === 'path' ? templateNames.indexOf(name) : -1
      const key = slot >= 0 ? `path:#${slot}` : `${where}:${where === 'header' ? name.toLowerCase() : name}`
      out.set(key, { node: r.node, ptr: r.ptr, name, in: where, pathLevel })
    })
  }
  return out
}

/** A parameter's schema: `schema`, or the schema of its single `content` entry. */
function schemaOf(p: Param): [unknown, string] {
  if (p.node.schema !== undefined) return [p.node.schema, `${p.ptr}/schema`]
  if (isObject(p.node.content)) {
    const [media, m] = Object.entries(p.node.content)[0] ?? []
    if (media && isObject(m)) return [m.schema, `${p.ptr}/content/${esc(media)}/schema`]
  }
  return [undefined, p.ptr]
}

function reportRemoved(c: OpContext['c'], p: Param, where: string, today: string): void {
  const what = `${p.in} parameter \`${p.name}\``
  if (p.node.deprecated !== true) return c.add('request-parameter-removed', p.ptr, `the ${what} was removed`, { where })
  const sunset = sunsetOf(p.node)
  if (sunset.kind === 'invalid')
    c.add('request-parameter-sunset-parse', p.ptr, `the ${what} was removed, and its x-sunset ${sunset.raw} is not a date`, {
      where,
      before: sunset.raw,
    })
  else if (sunset.kind === 'date' && today < sunset.date)
    c.add('request-parameter-removed-before-sunset', p.ptr, `the ${what} was removed before its sunset date ${sunset.date}`, {
      where,
      before: sunset.date,
    })
  else c.add('request-parameter-removed-with-deprecation', p.ptr, `the deprecated ${what} was removed`, { where })
}

export function diffParameters({ base, head, c, memo, same, today }: OpContext, b: OpRef, h: OpRef, where: string): void {
  const pb = parametersOf(base.doc, b)
  const ph = parametersOf(head.doc, h)
  for (const [key, p] of [...pb].sort()) {
    const q = ph.get(key)
    const what = `${p.in} parameter \`${p.name}\``
    if (!q) {
      reportRemoved(c, p, where, today)
      continue
    }
    const wasReq = p.node.required === true
    const isReq = q.node.required === true
    if (!wasReq && isReq) c.add('request-parameter-became-required', `${q.ptr}/required`, `the ${what} became required`, { where })
    if (wasReq && !isReq) c.add('request-parameter-became-optional', `${q.ptr}/required`, `the ${what} became optional`, { where })
    switch (deprecationChange(p.node, q.node)) {
      case 'deprecated':
      case 'deprecated-with-sunset':
        c.add('request-parameter-deprecated', `${q.ptr}/deprecated`, `the ${what} was deprecated`, { where })
        break
      case 'sunset-invalid':
        c.add('request-parameter-sunset-parse', `${q.ptr}/x-sunset`, `the deprecated ${what} has an x-sunset that is not a date`, {
          where,
          before: p.node['x-sunset'] ?? null,
          after: q.node['x-sunset'] ?? null,
        })
        break
      case 'sunset-deleted':
        c.add('request-parameter-sunset-deleted', q.ptr, `the ${what} is still deprecated but lost its sunset`, {
          where,
          before: p.node['x-sunset'] ?? null,
        })
        break
      case 'reactivated':
        c.add('request-parameter-reactivated', q.ptr, `the ${what} is no longer deprecated`, { where })
    }
    const ctx: SchemaContext = {
      c,
      memo,
      same,
      baseDoc: base.doc,
      headDoc: head.doc,
      dir: 'request',
      site: p.in === 'header' ? 'header-parameter' : 'parameter',
      noun: (label) => `the ${p.in} parameter \`${label ? `${p.name}.${label}` : p.name}\``,
      where,
    }
    const [sb, sbPtr] = schemaOf(p)
    const [sh, shPtr] = schemaOf(q)
    compareSchemas(ctx, sb, sbPtr, sh, shPtr)
  }
  for (const [key, q] of [...ph].sort()) {
    if (pb.has(key)) continue
    const what = `${q.in} parameter \`${q.name}\``
    const required = q.node.required === true
    if (q.in === 'path') c.add('new-request-path-parameter', q.ptr, `the ${what} was added`, { where })
    else if (q.pathLevel) {
      c.add(
        required ? 'new-required-request-default-parameter-to-existing-path' : 'new-optional-request-default-parameter-to-existing-path',
        q.ptr,
        `the ${required ? 'required' : 'optional'} ${what} was added for every operation of the path`,
        { where },
      )
    } else if (required) c.add('new-required-request-parameter', q.ptr, `the required ${what} was added`, { where })
    else c.add('new-optional-request-parameter', q.ptr, `the optional ${what} was added`, { where })
  }
}
