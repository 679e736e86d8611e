/**
 * `auth.replay`: for every signed options operation, a request is accepted, then its signature is
 * sent again over a changed message (another nonce, another order, another agent). The changed
 * message must not take effect for the wallet: a server that caches verified signatures, or
 * verifies once per signature instead of per message, lets it through.
 */
import type { OperationId } from '../../../../contract/generated/types.ts'
import { brief } from '../../context.ts'
import { isObject } from '../../../../contract/index.ts'
import { agentBody, approveAgent, bulkBody, cancelBody, orderBody } from '../../builders.ts'
import { expectAuthRefused, expectSuccess } from '../../expectations.ts'
import { jsonOf, succeeded } from '../../answers.ts'
import type { HttpExchange } from '../../../target/http.ts'
import { call } from '../../operations.ts'
import { bodyText, type BodyValue, type SignedBody } from '../../../target/requests.ts'
import { restingOrder } from '../../steps/rate-limits.ts'
import type { Check, CheckContext } from '../../types.ts'
import type { Wallet } from '../../../target/wallets.ts'

export const AUTH_REPLAY = 'auth.replay'

/** The body as signed, with some values replaced and the original signature kept. */
function changed(body: SignedBody, values: Readonly<Record<string, BodyValue>>): string {
  return bodyText(body.entries.map(([k, v]) => [k, k in values ? values[k]! : v]))
}

/** The replayed request must not take effect: never a success, never a 5xx. */
function notApplied(ctx: CheckContext, e: HttpExchange, what: string): void {
  if (succeeded(e))
    ctx.fail(`${what} took effect (${brief(e)})`, { exchange: e, expected: 'auth_refused (401 or 403), or a REJECTED result' })
  if ((e.response?.status ?? 0) >= 500) ctx.fail(`${what}: server error ${brief(e)}`, { exchange: e })
}

/** Whether the wallet lists the agent as approved. */
async function listed(ctx: CheckContext, owner: Wallet, agent: string): Promise<boolean> {
  const e = await call(ctx, 'listAuthorizedAgents', undefined, { wallet: owner.address })
  const agents = jsonOf(e)?.agents
  return (
    Array.isArray(agents) && agents.some((a) => isObject(a) && typeof a.agent === 'string' && a.agent.toLowerCase() === agent.toLowerCase())
  )
}

type Replay = (ctx: CheckContext, w: Wallet) => Promise<void>

const REPLAYS: Partial<Record<OperationId, Replay>> = {
  async placeOrder(ctx, w) {
    const first = await orderBody(ctx, { wallet: w })
    expectSuccess(ctx, await call(ctx, 'placeOrder', first.text), 'the signed order')
    const e = await call(ctx, 'placeOrder', changed(first, { nonce: ctx.nonce(w) }))
    expectAuthRefused(ctx, e, 'its signature over another nonce')
    const f = await call(ctx, 'placeOrder', changed(first, { nonce: ctx.nonce(w), price: '2' }))
    expectAuthRefused(ctx, f, 'its signature over another price and nonce')
  },
  async cancelOrder(ctx, w) {
    const a = await restingOrder(ctx, w)
    const b = await restingOrder(ctx, w)
    const first = await cancelBody(ctx, w, { orderId: a.orderId })
    expectSuccess(ctx, await call(ctx, 'cancelOrder', first.text), 'the signed cancel')
    const e = await call(ctx, 'cancelOrder', changed(first, { order_id: b.orderId, nonce: ctx.nonce(w) }))
    notApplied(ctx, e, 'its signature over another order id and nonce')
    const byClient = await cancelBody(ctx, w, { clientId: b.clientId })
    const c = await restingOrder(ctx, w)
    expectSuccess(ctx, await call(ctx, 'cancelOrder', byClient.text), 'the signed cancel by client id')
    notApplied(
      ctx,
      await call(ctx, 'cancelOrder', changed(byClient, { client_id: c.clientId, nonce: ctx.nonce(w) })),
      'its signature over another client id and nonce',
    )
  },
  async placeOrders(ctx, w) {
    const item = await orderBody(ctx, { wallet: w })
    expectSuccess(ctx, await call(ctx, 'placeOrders', bulkBody('orders', [item])), 'the signed batch')
    notApplied(
      ctx,
      await call(ctx, 'placeOrders', bulkBody('orders', [changed(item, { nonce: ctx.nonce(w) })])),
      'its item signature over another nonce',
    )
  },
  async replaceOrders(ctx, w) {
    const a = await restingOrder(ctx, w)
    const b = await restingOrder(ctx, w)
    const cancel = await cancelBody(ctx, w, { orderId: a.orderId })
    const order = await orderBody(ctx, { wallet: w })
    const pair = (c: string, o: string) => `{"replacements":[{"cancel":${c},"order":${o}}]}`
    expectSuccess(ctx, await call(ctx, 'replaceOrders', pair(cancel.text, order.text)), 'the signed replacement')
    const e = await call(
      ctx,
      'replaceOrders',
      pair(changed(cancel, { order_id: b.orderId, nonce: ctx.nonce(w) }), changed(order, { nonce: ctx.nonce(w) })),
    )
    notApplied(ctx, e, 'its signatures over another order id and other nonces')
  },
  async cancelOrders(ctx, w) {
    const a = await restingOrder(ctx, w)
    const b = await restingOrder(ctx, w)
    const item = await cancelBody(ctx, w, { orderId: a.orderId })
    expectSuccess(ctx, await call(ctx, 'cancelOrders', bulkBody('cancels', [item])), 'the signed batch cancel')
    notApplied(
      ctx,
      await call(ctx, 'cancelOrders', bulkBody('cancels', [changed(item, { order_id: b.orderId, nonce: ctx.nonce(w) })])),
      'its item signature over another order id and nonce',
    )
  },
  async cancelOrdersByClientId(ctx, w) {
    const a = await restingOrder(ctx, w)
    const b = await restingOrder(ctx, w)
    const item = await cancelBody(ctx, w, { clientId: a.clientId })
    expectSuccess(ctx, await call(ctx, 'cancelOrdersByClientId', bulkBody('cancels', [item])), 'the signed batch cancel')
    const e = await call(
      ctx,
      'cancelOrdersByClientId',
      bulkBody('cancels', [changed(item, { client_id: b.clientId, nonce: ctx.nonce(w) })]),
    )
    notApplied(ctx, e, 'its item signature over another client id and nonce')
  },
  async approveAgent(ctx, w) {
    // Recovery always yields some address: a changed message approves for a stranger, never for the owner.
    const first = await agentBody(ctx, 'ApproveAgent', w, ctx.wallet().address)
    expectSuccess(ctx, await call(ctx, 'approveAgent', first.text), 'the signed approval')
    const other = ctx.wallet().address
    const e = await call(ctx, 'approveAgent', changed(first, { agent: other, nonce: ctx.nonce(w) }))
    if ((e.response?.status ?? 0) >= 500) ctx.fail(`server error ${brief(e)}`, { exchange: e })
    if (await listed(ctx, w, other))
      ctx.fail(`the approval's signature over another agent and nonce approved that agent for the owner (${brief(e)})`, { exchange: e })
  },
  async revokeAgent(ctx, w) {
    const [x, y] = [ctx.wallet().address, ctx.wallet().address]
    expectSuccess(ctx, await approveAgent(ctx, w, x), 'set-up approval')
    expectSuccess(ctx, await approveAgent(ctx, w, y), 'set-up approval')
    const first = await agentBody(ctx, 'RevokeAgent', w, x)
    expectSuccess(ctx, await call(ctx, 'revokeAgent', first.text), 'the signed revocation')
    const e = await call(ctx, 'revokeAgent', changed(first, { agent: y, nonce: ctx.nonce(w) }))
    if ((e.response?.status ?? 0) >= 500) ctx.fail(`server error ${brief(e)}`, { exchange: e })
    if (!(await listed(ctx, w, y)))
      ctx.fail(`the revocation's signature over another agent and nonce revoked that agent for the owner (${brief(e)})`, { exchange: e })
  },
}

export const authReplay: Check<typeof AUTH_REPLAY> = {
  id: AUTH_REPLAY,
  title: 'a signature sent again over a changed message (nonce, order, agent) never takes effect for the wallet',
  rules: ['AUTH-1', 'SIGFAIL-3', 'NONCE-2'],
  level: 'stated',
  async run(ctx) {
    for (const op of ctx.spec.operations) {
      const replay = (REPLAYS as Readonly<Record<string, Replay | undefined>>)[op.operationId]
      if (!replay) continue
      await ctx.case(op.operationId, `${op.method} ${op.path}: the same signature over a changed message`, (c) => replay(c, c.wallet()), {
        level: op.assumed ? 'assumed' : 'stated',
      })
    }
  },
}
