/** `auth.agent-revoke`: approve → agent order accepted → revoke → agent order refused. */
import { brief } from '../../context.ts'
import { approveAgent, placeOrder, revokeAgent } from '../../builders.ts'
import { expectAuthRefused, expectSuccess } from '../../expectations.ts'
import { hasCode, statusOf } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { label } from '../../../target/routes.ts'

export const AUTH_AGENT_REVOKE = 'auth.agent-revoke'

export const authAgentRevoke: Check<typeof AUTH_AGENT_REVOKE> = {
  id: AUTH_AGENT_REVOKE,
  title: 'approve → agent order accepted → revoke → agent order refused',
  rules: ['AGENT-5', 'AGENT-6', 'SIGFAIL-5', 'AUTH-2'],
  level: 'stated',
  async run(ctx) {
    const owner = ctx.wallet()
    const agent = ctx.wallet()
    expectSuccess(ctx, await approveAgent(ctx, owner, agent.address), 'approve the agent')
    expectSuccess(ctx, (await placeOrder(ctx, { wallet: owner, signer: agent })).e, 'agent order before revocation')
    const r = await revokeAgent(ctx, owner, agent.address)
    if ([404, 405].includes(statusOf(r)) && !hasCode(r, 'not_found')) {
      ctx.fail(`no RevokeAgent operation at the assumed ${label(ctx, 'revokeAgent')} (${brief(r)})`, { level: 'assumed', exchange: r })
    }
    expectSuccess(ctx, r, `${label(ctx, 'revokeAgent')} signed by the owner`, { rules: ['AGENT-6'] })
    const after = await placeOrder(ctx, { wallet: owner, signer: agent })
    expectAuthRefused(ctx, after.e, 'agent order after its revocation was acknowledged')
  },
}
