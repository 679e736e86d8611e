/** `auth.agent-cannot-approve-for-owner`: an agent's ApproveAgent approves for the agent itself, never for its owner. */
import { brief } from '../../context.ts'
import { agentBody, approveAgent, placeOrder } from '../../builders.ts'
import { expectAuthRefused, expectSuccess } from '../../expectations.ts'
import { statusOf } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'

export const AUTH_AGENT_CANNOT_APPROVE_FOR_OWNER = 'auth.agent-cannot-approve-for-owner'

export const authAgentCannotApproveForOwner: Check<typeof AUTH_AGENT_CANNOT_APPROVE_FOR_OWNER> = {
  id: AUTH_AGENT_CANNOT_APPROVE_FOR_OWNER,
  title: "an agent's ApproveAgent approves for the agent itself, never for its owner",
  rules: ['AGENT-1', 'AGENT-7', 'AUTH-2'],
  level: 'stated',
  async run(ctx) {
    const owner = ctx.wallet()
    const agent = ctx.wallet()
    const sub = ctx.wallet()
    expectSuccess(ctx, await approveAgent(ctx, owner, agent.address), 'owner approves the agent')
    // The agent signs ApproveAgent(sub): the recovered signer (the agent) is the approving wallet.
    const r = await call(ctx, 'approveAgent', (await agentBody(ctx, 'ApproveAgent', agent, sub.address, { nonce: ctx.nonce(owner) })).text)
    if (statusOf(r) >= 500) ctx.fail(`approve signed by an agent gave a server error ${brief(r)}`, { exchange: r })
    const { e } = await placeOrder(ctx, { wallet: owner, signer: sub })
    expectAuthRefused(ctx, e, "order for the owner signed by the agent's own sub-agent")
  },
}
