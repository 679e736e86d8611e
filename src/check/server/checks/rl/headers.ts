/** `rl.headers`: X-RateLimit-Limit/-Remaining/-Reset on success and error responses of every rate-limited endpoint. */
import { brief } from '../../context.ts'
import { agentBody, approveAgent, bulkBody, cancelBody, orderBody, placeOrder, revokeAgent } from '../../builders.ts'
import { expectSuccess } from '../../expectations.ts'
import { jsonOf, statusOf, succeeded } from '../../answers.ts'
import type { HttpExchange } from '../../../target/http.ts'
import { checkHeaders, restingOrder } from '../../steps/rate-limits.ts'
import type { Check, CheckContext } from '../../types.ts'
import type { Wallet } from '../../../target/wallets.ts'
import { perpOrder } from '../perp/orders.ts'
import { call } from '../../operations.ts'
import type { OperationId } from '../../../../contract/generated/types.ts'

/** For each rate-limited operation: a request that succeeds and one that fails, both naming the wallet. */
type OpProbe = (ctx: CheckContext, w: Wallet) => Promise<{ success: HttpExchange; error: HttpExchange }>

/**
 * The error probe of a bulk endpoint: its batch property holding one valid item instead of a
 * list. Every reading refuses that request as a whole, whereas an all-bad list may be refused
 * whole or answered 200 with REJECTED slots (both conformant), so it could not probe an error.
 */
const notAList = (key: string, item: string) => `{${JSON.stringify(key)}:${item}}`

const OP_PROBES: Partial<Record<OperationId, OpProbe>> = {
  async placeOrder(ctx, w) {
    const n = ctx.nonce(w)
    const success = (await placeOrder(ctx, { wallet: w, nonce: n })).e
    const error = (await placeOrder(ctx, { wallet: w, nonce: n })).e
    return { success, error }
  },
  async cancelOrder(ctx, w) {
    const { orderId } = await restingOrder(ctx, w)
    const n = ctx.nonce(w)
    const success = await call(ctx, 'cancelOrder', (await cancelBody(ctx, w, { orderId }, { nonce: n })).text)
    const error = await call(ctx, 'cancelOrder', (await cancelBody(ctx, w, { orderId }, { nonce: n })).text)
    return { success, error }
  },
  async placeOrders(ctx, w) {
    const items = [await orderBody(ctx, { wallet: w }), await orderBody(ctx, { wallet: w })]
    const success = await call(ctx, 'placeOrders', bulkBody('orders', items))
    const error = await call(ctx, 'placeOrders', notAList('orders', (await orderBody(ctx, { wallet: w })).text))
    return { success, error }
  },
  async replaceOrders(ctx, w) {
    const { orderId } = await restingOrder(ctx, w)
    const item = async (opts = {}) =>
      `{"cancel":${(await cancelBody(ctx, w, { orderId }, opts)).text},"order":${(await orderBody(ctx, { wallet: w }, opts)).text}}`
    const success = await call(ctx, 'replaceOrders', `{"replacements":[${await item()}]}`)
    const error = await call(ctx, 'replaceOrders', notAList('replacements', await item()))
    return { success, error }
  },
  async cancelOrders(ctx, w) {
    const a = await restingOrder(ctx, w)
    const success = await call(ctx, 'cancelOrders', bulkBody('cancels', [await cancelBody(ctx, w, { orderId: a.orderId })]))
    const error = await call(ctx, 'cancelOrders', notAList('cancels', (await cancelBody(ctx, w, { orderId: a.orderId })).text))
    return { success, error }
  },
  async cancelOrdersByClientId(ctx, w) {
    const a = await restingOrder(ctx, w)
    const success = await call(ctx, 'cancelOrdersByClientId', bulkBody('cancels', [await cancelBody(ctx, w, { clientId: a.clientId })]))
    const error = await call(ctx, 'cancelOrdersByClientId', notAList('cancels', (await cancelBody(ctx, w, { clientId: a.clientId })).text))
    return { success, error }
  },
  async approveAgent(ctx, w) {
    const n = ctx.nonce(w)
    const success = await approveAgent(ctx, w, ctx.wallet().address, { nonce: n })
    const error = await approveAgent(ctx, w, ctx.wallet().address, { nonce: n })
    return { success, error }
  },
  async revokeAgent(ctx, w) {
    const agent = ctx.wallet().address
    expectSuccess(ctx, await approveAgent(ctx, w, agent), 'set-up approval')
    const n = ctx.nonce(w)
    const success = await revokeAgent(ctx, w, agent, { nonce: n })
    const error = await call(ctx, 'revokeAgent', (await agentBody(ctx, 'RevokeAgent', w, ctx.wallet().address, { nonce: n })).text)
    return { success, error }
  },
  async perpExchange(ctx, w) {
    await restingOrder(ctx, w)
    const n = ctx.nonce(w)
    const success = await call(ctx, 'perpExchange', await perpOrder(ctx, w, { nonce: n }))
    const error = await call(ctx, 'perpExchange', await perpOrder(ctx, w, { nonce: n }))
    return { success, error }
  },
}

export const RL_HEADERS = 'rl.headers'

export const rlHeaders: Check<typeof RL_HEADERS> = {
  id: RL_HEADERS,
  title: 'X-RateLimit-Limit/-Remaining/-Reset on success and error responses of every rate-limited endpoint',
  rules: ['RL-6', 'RL-9', 'RL-8', 'RL-11', 'RL-2'],
  level: 'stated',
  async run(ctx) {
    for (const op of ctx.spec.operations.filter((o) => o.rateLimit)) {
      const probe = (OP_PROBES as Readonly<Record<string, OpProbe | undefined>>)[op.operationId]
      await ctx.case(
        op.operationId,
        `${op.method} ${op.path}: headers on success and on error`,
        async (c) => {
          if (!probe) c.skip(`no request builder for ${op.operationId}`)
          const w = c.wallet()
          const { success, error } = await probe!(c, w)
          if (statusOf(success) === 404 && op.assumed)
            c.fail(`${op.method} ${op.path} is not served (${brief(success)})`, { level: 'assumed', exchange: success })
          if (!succeeded(success))
            c.fail(`${op.method} ${op.path}: the success probe was not accepted (${brief(success)})`, { exchange: success })
          checkHeaders(c, success, `${op.method} ${op.path} success`, op.rateLimit!.category)
          // The perp venue's envelope refuses with HTTP 200 {status: "err"}: an error response too.
          if (statusOf(error) < 400 && jsonOf(error)?.status !== 'err')
            c.fail(`${op.method} ${op.path}: the error probe was not refused (${brief(error)})`, { exchange: error })
          checkHeaders(c, error, `${op.method} ${op.path} error ${statusOf(error)}`, op.rateLimit!.category)
        },
        { level: op.assumed ? 'assumed' : 'stated' },
      )
    }
  },
}
