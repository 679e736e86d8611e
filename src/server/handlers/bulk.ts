/**
 * The bulk endpoints. A batch names one wallet; it is validated and authenticated item by item
 * (a bad item is a REJECTED slot, not a failure of the batch), charged as a whole for its
 * authenticated items (a batch that would cross a limit gets 429 and consumes nothing), then
 * executed in request order.
 */
import type { OptionsKind, ParsedBodyOk } from '../../signing/index.ts'
import { deref, isObject, type JsonObject, type RateCategory } from '../../contract/index.ts'
import { authenticate } from '../auth.ts'
import { isAddress, type ServerContext } from '../context.ts'
import {
  cancelResult,
  executeCancel,
  executeOrder,
  orderResult,
  prepareCancel,
  prepareOrder,
  subBody,
  type PreparedCancel,
  type PreparedOrder,
} from '../orders.ts'
import { json, type Reply } from '../reply.ts'
import type { BodyValidator, FieldProblem } from '../validate.ts'
import { kindOf } from './order.ts'
import type { HandlerFactory, Request } from './types.ts'

const passed = () => null

interface Envelope {
  items: { pointer: string; name: string; value: unknown }[]
  wallet: string | undefined
}

/** Envelope checks shared by every batch: shape, size, one wallet. */
function envelope(ctx: ServerContext, validator: BodyValidator, req: Request, walletsOf: (item: unknown) => unknown[]): Envelope | Reply {
  const body = req.body!
  const prop = validator.items!.property
  const value = body.value as Record<string, unknown>
  const problem = validator.check(body.value)
  if (problem) return ctx.catalog.reply('invalid_field', problem.message)
  const raw = value[prop] as unknown[]
  const wallets = new Map<string, string>()
  for (const item of raw) for (const w of walletsOf(item)) if (isAddress(w)) wallets.set(w.toLowerCase(), w)
  const wallet = wallets.size > 0 ? [...wallets.values()][0] : undefined
  if (wallets.size === 1 && wallet !== undefined) req.state.wallet = wallet
  if (raw.length > ctx.config.maxBatch) {
    return ctx.catalog.reply('batch_too_large', `a batch takes at most ${ctx.config.maxBatch} items, this one has ${raw.length}`)
  }
  if (wallets.size > 1) {
    return ctx.catalog.reply(
      'invalid_field',
      `invalid field "${prop}": every item of a batch must name the same wallet (found ${wallets.size} wallets)`,
    )
  }
  return { items: raw.map((v, i) => ({ pointer: `/${prop}/${i}`, name: `${prop}[${i}]`, value: v })), wallet }
}

type Slot<T> = { ok: true; prepared: T } | { ok: false; result: Record<string, unknown>; reply: Reply }

function failedSlot(ctx: ServerContext, problem: FieldProblem): { ok: false; result: Record<string, unknown>; reply: Reply } {
  const reply = ctx.catalog.reply(problem.code ?? 'invalid_field', problem.message)
  return { ok: false, result: { status: 'REJECTED', reason: problem.message, code: (reply.body as { code: string }).code }, reply }
}

function authSlot<T>(ctx: ServerContext, kind: OptionsKind, body: ParsedBodyOk, wallet: string, prepared: T): Slot<T> {
  const auth = authenticate(ctx, kind, body, wallet)
  if (auth.ok) return { ok: true, prepared }
  const b = auth.reply.body as { message: string }
  return { ok: false, result: { status: 'REJECTED', reason: b.message, code: auth.code }, reply: auth.reply }
}

/** Charges the authenticated items; a batch with none answers with its first item's refusal. */
function chargeBatch<T>(ctx: ServerContext, slots: Slot<T>[], wallet: string | undefined, category: RateCategory): Reply | null {
  const good = slots.filter((s) => s.ok).length
  if (good === 0 || wallet === undefined) {
    const first = slots.find((s): s is Extract<Slot<T>, { ok: false }> => !s.ok)
    return first ? first.reply : ctx.catalog.reply('invalid_field', 'empty batch')
  }
  return ctx.charge(wallet, { api: 1, [category]: good }, category)
}

function itemKind(ctx: ServerContext, opSchema: unknown, prop: string): { kind: OptionsKind; schema: JsonObject } {
  const schema = deref(ctx.spec.doc, opSchema) as JsonObject
  const arr = deref(ctx.spec.doc, (schema.properties as JsonObject)[prop]) as JsonObject
  const items = deref(ctx.spec.doc, arr.items) as JsonObject
  return { kind: isObject(items) && items['x-eip712-signed'] ? kindOf(ctx.spec, items) : 'PlaceOrder', schema: items }
}

export const placeOrders: HandlerFactory = (ctx, op) => {
  const validator = ctx.validators.body(op.operationId)!
  if (!validator.items) throw new Error(`spec: ${op.operationId} is not an item-by-item batch`)
  const { kind } = itemKind(ctx, op.requestSchema, validator.items.property)
  const category = op.rateLimit?.category ?? 'orders'
  return (req) => {
    const env = envelope(ctx, validator, req, (item) => [isObject(item) ? item.wallet : undefined])
    if (!('items' in env)) return env
    const slots: Slot<PreparedOrder>[] = env.items.map((item) => {
      const body = subBody(req.body!, item.pointer, item.value)
      const p = prepareOrder(ctx, body, validator.items!.check, item.name)
      if (!p.ok) return failedSlot(ctx, p.problem)
      return authSlot(ctx, kind, body, p.value.input.wallet, p.value)
    })
    const refused = chargeBatch(ctx, slots, env.wallet, category)
    if (refused) return refused
    const results = slots.map((s) => (s.ok ? orderResult(executeOrder(ctx, s.prepared), ctx.catalog) : s.result))
    return json(200, { results }, ctx.rateHeaders(env.wallet!, category))
  }
}

function cancelBatch(): HandlerFactory {
  return (ctx, op) => {
    const validator = ctx.validators.body(op.operationId)!
    if (!validator.items) throw new Error(`spec: ${op.operationId} is not an item-by-item batch`)
    const { kind } = itemKind(ctx, op.requestSchema, validator.items.property)
    const category = op.rateLimit?.category ?? 'cancels'
    return (req) => {
      const env = envelope(ctx, validator, req, (item) => [isObject(item) ? item.wallet : undefined])
      if (!('items' in env)) return env
      const slots: Slot<PreparedCancel>[] = env.items.map((item) => {
        const body = subBody(req.body!, item.pointer, item.value)
        const p = prepareCancel(ctx, body, validator.items!.check, item.name)
        if (!p.ok) return failedSlot(ctx, p.problem)
        return authSlot(ctx, kind, body, p.value.wallet, p.value)
      })
      const refused = chargeBatch(ctx, slots, env.wallet, category)
      if (refused) return refused
      const results = slots.map((s) => (s.ok ? cancelResult(s.prepared, executeCancel(ctx, s.prepared)) : s.result))
      return json(200, { results }, ctx.rateHeaders(env.wallet!, category))
    }
  }
}

export const cancelOrders: HandlerFactory = cancelBatch()
export const cancelOrdersByClientId: HandlerFactory = cancelBatch()

/**
 * PUT /bulk_order: each replacement cancels one order and places another. It costs one order
 * and no cancel; when its cancel fails, its order is not placed.
 */
export const replaceOrders: HandlerFactory = (ctx, op) => {
  const validator = ctx.validators.body(op.operationId)!
  if (!validator.items) throw new Error(`spec: ${op.operationId} is not an item-by-item batch`)
  const { schema: replacement } = itemKind(ctx, op.requestSchema, validator.items.property)
  const props = replacement.properties as JsonObject
  const cancelKind = kindOf(ctx.spec, props.cancel)
  const orderKind = kindOf(ctx.spec, props.order)
  const category = op.rateLimit?.category ?? 'orders'
  type Pair = { cancel: PreparedCancel; order: PreparedOrder }
  return (req) => {
    const env = envelope(ctx, validator, req, (item) =>
      isObject(item) ? [isObject(item.cancel) ? item.cancel.wallet : undefined, isObject(item.order) ? item.order.wallet : undefined] : [],
    )
    if (!('items' in env)) return env
    const slots: Slot<Pair>[] = env.items.map((item) => {
      const problem = validator.items!.check(item.value)
      if (problem) {
        const field = problem.field === 'body' ? item.name : `${item.name}.${problem.field}`
        return failedSlot(ctx, {
          field,
          message: problem.message.replace(`"${problem.field}"`, `"${field}"`).replace(/^invalid body: /, `invalid field "${item.name}": `),
        })
      }
      const v = item.value as Record<string, unknown>
      const cBody = subBody(req.body!, `${item.pointer}/cancel`, v.cancel)
      const oBody = subBody(req.body!, `${item.pointer}/order`, v.order)
      const c = prepareCancel(ctx, cBody, passed, `${item.name}.cancel`)
      if (!c.ok) return failedSlot(ctx, c.problem)
      const o = prepareOrder(ctx, oBody, passed, `${item.name}.order`)
      if (!o.ok) return failedSlot(ctx, o.problem)
      const ca = authSlot(ctx, cancelKind, cBody, c.value.wallet, null)
      if (!ca.ok) return ca
      return authSlot(ctx, orderKind, oBody, o.value.input.wallet, { cancel: c.value, order: o.value })
    })
    const refused = chargeBatch(ctx, slots, env.wallet, category)
    if (refused) return refused
    const results = slots.map((s) => {
      if (!s.ok) return { cancel: s.result, order: s.result }
      const c = executeCancel(ctx, s.prepared.cancel)
      const cancel = cancelResult(s.prepared.cancel, c)
      if (c.kind !== 'canceled')
        return {
          cancel,
          order: {
            status: 'REJECTED',
            reason: 'not placed: the cancel of this replacement failed',
            client_id: s.prepared.order.input.clientId,
          },
        }
      return { cancel, order: orderResult(executeOrder(ctx, s.prepared.order), ctx.catalog) }
    })
    return json(200, { results }, ctx.rateHeaders(env.wallet!, category))
  }
}
