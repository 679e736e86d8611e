/**
 * Requests addressed by operationId: the method and path come from the contract under test at
 * run time, so a spec that moves a path moves every request to the target with it (named
 * checks, the explorer, the preflight alike).
 */
import type { OperationId } from '../../contract/generated/types.ts'
import type { FullContract } from '../../contract/index.ts'
import { deref, isObject } from '../../contract/model.ts'

export interface Route {
  readonly method: string
  readonly path: string
}

/** The method and path of an operation of the contract; a contract without it is a check error. */
export function route(ctx: { readonly spec: FullContract }, id: OperationId): Route {
  const op = ctx.spec.operations.find((o) => o.operationId === id)
  if (!op) throw new Error(`the contract has no operation ${id}`)
  return { method: op.method, path: op.path }
}

/** The operation's path with a query string (values URI-encoded). */
export function pathOf(ctx: { readonly spec: FullContract }, id: OperationId, query?: Readonly<Record<string, string>>): string {
  const q = Object.entries(query ?? {}).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
  return `${route(ctx, id).path}${q.length ? `?${q.join('&')}` : ''}`
}

/** `POST /order`: how a message names the operation, as the contract under test has it. */
export function label(ctx: { readonly spec: FullContract }, id: OperationId): string {
  const { method, path } = route(ctx, id)
  return `${method} ${path}`
}

/** The values a query parameter of an operation takes, as its schema's `enum` lists them (none: not an enum, or no such parameter). */
export function queryValues(spec: FullContract, id: OperationId, name: string): string[] {
  const { method, path } = route({ spec }, id)
  const op = (spec.doc.paths as Record<string, Record<string, unknown>> | undefined)?.[path]?.[method.toLowerCase()]
  const params = isObject(op) && Array.isArray(op.parameters) ? op.parameters : []
  for (const p of params) {
    const param = deref(spec.doc, p)
    if (!isObject(param) || param.name !== name || param.in !== 'query') continue
    const schema = deref(spec.doc, param.schema)
    return isObject(schema) && Array.isArray(schema.enum) ? schema.enum.filter((v): v is string => typeof v === 'string') : []
  }
  return []
}
