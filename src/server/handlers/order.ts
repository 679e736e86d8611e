/** POST /order and DELETE /order. */
import type { OptionsKind } from '../../signing/index.ts'
import { deref, readSignedSchema, type JsonObject, type FullContract } from '../../contract/index.ts'
import { authenticateBatched } from '../auth.ts'
import { isAddress, type ServerContext } from '../context.ts'
import { cancelResult, executeCancel, executeOrder, orderResult, prepareCancel, prepareOrder } from '../orders.ts'
import { json } from '../reply.ts'
import type { HandlerFactory } from './types.ts'

/** The OptionsKind a request schema is signed as (its first x-eip712-signed variant's primary type). */
export function kindOf(spec: FullContract, schema: unknown): OptionsKind {
  const signed = readSignedSchema(deref(spec.doc, schema))
  const id = signed?.variants[0]?.message
  const primary = id ? spec.typedData.messages[id]?.primaryType : undefined
  if (!primary) throw new Error('spec: a signed request schema has no x-eip712-signed variant')
  return primary as OptionsKind
}

function bodyValidator(ctx: ServerContext, operationId: string) {
  const v = ctx.validators.body(operationId)
  if (!v) throw new Error(`spec: ${operationId} has no request body schema`)
  return v
}

export const placeOrder: HandlerFactory = (ctx, op) => {
  const validator = bodyValidator(ctx, op.operationId)
  const kind = kindOf(ctx.spec, op.requestSchema)
  const category = op.rateLimit?.category ?? 'orders'
  return async (req) => {
    const body = req.body!
    const value = body.value as Record<string, unknown>
    const routeOmitted = value !== null && typeof value === 'object' && !Array.isArray(value) && value.route === undefined
    const extraHeaders = routeOmitted ? ctx.deprecationHeaders : {}
    if (value && typeof value === 'object' && isAddress(value.wallet)) req.state.wallet = value.wallet

    const prepared = prepareOrder(ctx, body, validator.check)
    if (!prepared.ok) return ctx.catalog.reply(prepared.problem.code ?? 'invalid_field', prepared.problem.message, {}, { ...extraHeaders })
    const p = prepared.value
    const auth = await authenticateBatched(ctx, kind, body, p.input.wallet)
    if (!auth.ok) return { ...auth.reply, headers: { ...auth.reply.headers, ...extraHeaders } }
    const limited = ctx.charge(p.input.wallet, { api: 1, [category]: 1 }, category)
    if (limited) return { ...limited, headers: { ...limited.headers, ...extraHeaders } }

    const out = executeOrder(ctx, p)
    const rate = ctx.rateHeaders(p.input.wallet, category)
    const headers = routeOmitted ? { ...rate, ...extraHeaders } : rate
    if (out.kind === 'nonce_reused' || out.kind === 'limit_exceeded') return ctx.catalog.reply(out.kind, out.message, {}, headers)
    return json(200, orderResult(out, ctx.catalog), headers)
  }
}

export const cancelOrder: HandlerFactory = (ctx, op) => {
  const validator = bodyValidator(ctx, op.operationId)
  const branches = Array.isArray((deref(ctx.spec.doc, op.requestSchema) as JsonObject).oneOf)
    ? ((deref(ctx.spec.doc, op.requestSchema) as JsonObject).oneOf as unknown[]).map((b) => kindOf(ctx.spec, b))
    : [kindOf(ctx.spec, op.requestSchema)]
  const category = op.rateLimit?.category ?? 'cancels'
  return async (req) => {
    const body = req.body!
    const value = body.value as Record<string, unknown>
    if (value && typeof value === 'object' && isAddress(value.wallet)) req.state.wallet = value.wallet
    const prepared = prepareCancel(ctx, body, validator.check)
    if (!prepared.ok) return ctx.catalog.reply('invalid_field', prepared.problem.message)
    const p = prepared.value
    const kind = branches[Math.max(0, validator.branch ? validator.branch(body.value) : 0)]!
    const auth = await authenticateBatched(ctx, kind, body, p.wallet)
    if (!auth.ok) return auth.reply
    const limited = ctx.charge(p.wallet, { api: 1, [category]: 1 }, category)
    if (limited) return limited
    const out = executeCancel(ctx, p)
    const headers = ctx.rateHeaders(p.wallet, category)
    if (out.kind === 'nonce_reused') return ctx.catalog.reply(out.kind, out.message, {}, headers)
    return json(200, cancelResult(p, out), headers)
  }
}
