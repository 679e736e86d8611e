/** The unsigned read endpoints: GET /orders, GET /orderbook (JSON-RPC envelope), GET /health. */
import type { ServerContext } from '../context.ts'
import { toRecord } from '../order-types.ts'
import { json, type Reply } from '../reply.ts'
import type { QueryParam } from '../validate.ts'
import type { HandlerFactory } from './types.ts'

/** Query parameters against the spec: each known one validated, unknown or repeated ones refused. */
export function checkQuery(
  ctx: ServerContext,
  params: readonly QueryParam[],
  query: URLSearchParams,
): { ok: true; values: Record<string, string> } | { ok: false; reply: Reply } {
  const values: Record<string, string> = {}
  for (const [name, value] of query) {
    const param = params.find((p) => p.name === name)
    const shown = name.length > 40 ? `${name.slice(0, 37)}...` : name
    if (!param)
      return {
        ok: false,
        reply: ctx.catalog.reply(
          'invalid_field',
          `unknown query parameter "${shown}" (known: ${params.map((p) => p.name).join(', ') || 'none'})`,
        ),
      }
    if (name in values)
      return { ok: false, reply: ctx.catalog.reply('invalid_field', `invalid query parameter "${shown}": given more than once`) }
    const problem = param.check(value)
    if (problem) return { ok: false, reply: ctx.catalog.reply('invalid_field', problem.message) }
    values[name] = value
  }
  for (const p of params) {
    if (p.required && !(p.name in values))
      return { ok: false, reply: ctx.catalog.reply('invalid_field', `missing query parameter "${p.name}"`) }
  }
  return { ok: true, values }
}

export const listOrders: HandlerFactory = (ctx, op) => {
  const params = ctx.validators.query(op.operationId)
  return (req) => {
    const q = checkQuery(ctx, params, req.query)
    if (!q.ok) return q.reply
    const orders = ctx.engine.list(q.values.wallet!, q.values.status).map(toRecord)
    const h = ctx.engine.archive.horizon()
    return json(200, { orders, history: { complete: h.complete, retain: h.retain, forgotten_through: h.forgottenThrough } })
  }
}

export const getOrderbook: HandlerFactory = (ctx, op) => {
  const params = ctx.validators.query(op.operationId)
  const notFound = ctx.catalog.entry(13020)
  return (req) => {
    const q = checkQuery(ctx, params, req.query)
    if (!q.ok) return q.reply
    // Any unlisted symbol, malformed or not, is a missing instrument: the seed's 13020 envelope.
    const symbol = q.values.symbol!
    const depth = ctx.engine.depth(symbol)
    if (!depth) return json(200, { jsonrpc: '2.0', result: null, error: { code: notFound.code, message: notFound.message ?? 'not_found' } })
    return json(200, { jsonrpc: '2.0', result: { symbol, ...depth }, error: null })
  }
}

export const getHealth: HandlerFactory = () => () => json(200, { status: 'ok' })
