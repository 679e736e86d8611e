/**
 * The route table, built from `spec.operations`: every operation of the spec must have a
 * handler (start-up fails otherwise), and nothing outside the spec is routed.
 */
import type { Operation } from '../contract/index.ts'
import type { ServerContext } from './context.ts'
import type { Handler, HandlerFactory } from './handlers/types.ts'

export interface Route {
  readonly op: Operation
  readonly handler: Handler
}

export type Match = { kind: 'route'; route: Route; head: boolean } | { kind: 'method'; allow: string[] } | { kind: 'none' }

export interface Router {
  match(method: string, path: string): Match
}

export function buildRouter(ctx: ServerContext, factories: Readonly<Record<string, HandlerFactory>>): Router {
  const table = new Map<string, Map<string, Route>>()
  for (const op of ctx.spec.operations) {
    const factory = factories[op.operationId]
    if (!factory) throw new Error(`the reference server has no handler for ${op.method} ${op.path} (${op.operationId})`)
    let byMethod = table.get(op.path)
    if (!byMethod) table.set(op.path, (byMethod = new Map()))
    byMethod.set(op.method, { op, handler: factory(ctx, op) })
  }
  return {
    match(method, path) {
      const byMethod = table.get(path)
      if (!byMethod) return { kind: 'none' }
      const route = byMethod.get(method)
      if (route) return { kind: 'route', route, head: false }
      // HEAD on a GET path: the GET answer without its body.
      const get = method === 'HEAD' ? byMethod.get('GET') : undefined
      if (get) return { kind: 'route', route: get, head: true }
      const allow = [...byMethod.keys()]
      if (allow.includes('GET')) allow.push('HEAD')
      return { kind: 'method', allow }
    },
  }
}
