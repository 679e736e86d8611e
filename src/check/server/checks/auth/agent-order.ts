/** `auth.agent-order`: approve an agent, then its orders and cancels for the owner are accepted and it is listed. */
import { brief } from '../../context.ts'
import { approveAgent, cancelBody, placeOrder } from '../../builders.ts'
import { expectSuccess } from '../../expectations.ts'
import { jsonOf, statusOf } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'
import { label } from '../../../target/routes.ts'

export const AUTH_AGENT_ORDER = 'auth.agent-order'

export const authAgentOrder: Check<typeof AUTH_AGENT_ORDER> = {
  id: AUTH_AGENT_ORDER,
  title: 'approve an agent, then its orders and cancels for the owner are accepted and it is listed',
  rules: ['AGENT-1', 'AGENT-2', 'AGENT-3', 'AUTH-3', 'AGENT-4', 'EP-2'],
  level: 'stated',
  async run(ctx) {
    const owner = ctx.wallet()
    const agent = ctx.wallet()
    const a = await approveAgent(ctx, owner, agent.address)
    expectSuccess(ctx, a, `${label(ctx, 'approveAgent')} signed by the owner`)
    const { e } = await placeOrder(ctx, { wallet: owner, signer: agent })
    expectSuccess(ctx, e, 'order for the owner signed by the approved agent')
    const orderId = jsonOf(e)?.order_id
    if (typeof orderId === 'string') {
      const cancel = await cancelBody(ctx, owner, { orderId }, { signer: agent })
      const ce = await call(ctx, 'cancelOrder', cancel.text)
      expectSuccess(ctx, ce, 'cancel for the owner signed by the approved agent', { rules: ['AGENT-3', 'EP-2'] })
    } else {
      ctx.warn('the ACKED order result carries no order_id, so the agent cancel was not tried', { level: 'assumed', rules: ['EP-9'] })
    }
    const list = await call(ctx, 'listAuthorizedAgents', undefined, { wallet: owner.address })
    if (statusOf(list) !== 200)
      ctx.fail(`${label(ctx, 'listAuthorizedAgents')}: expected 200, got ${brief(list)}`, { rules: ['AGENT-4'], exchange: list })
    if (!list.response?.body.toLowerCase().includes(agent.address.toLowerCase().slice(2))) {
      ctx.warn(`${label(ctx, 'listAuthorizedAgents')} does not list the approved agent (shape assumed: {agents: [{agent}]})`, {
        exchange: list,
        level: 'assumed',
        rules: ['AGENT-4', 'EP-9'],
      })
    }
  },
}
