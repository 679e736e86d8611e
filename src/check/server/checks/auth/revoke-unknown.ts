/** `auth.revoke-unknown`: revoking an agent that was never approved: 404 not_found or 200. */
import { brief } from '../../context.ts'
import { hasCode, statusOf } from '../../answers.ts'
import { revokeAgent, withState } from '../../builders.ts'
import type { Check } from '../../types.ts'

export const AUTH_REVOKE_UNKNOWN = 'auth.revoke-unknown'

export const authRevokeUnknown: Check<typeof AUTH_REVOKE_UNKNOWN> = {
  id: AUTH_REVOKE_UNKNOWN,
  title: 'revoking an agent that was never approved: 404 not_found or 200',
  rules: ['AGENT-8'],
  level: 'assumed',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    const r = await revokeAgent(ctx, w, ctx.wallet().address)
    const s = statusOf(r)
    if (s === 200 || (s === 404 && hasCode(r, 'not_found'))) return
    if (s >= 500)
      ctx.fail(`revoke of an unknown agent gave a server error ${brief(r)}`, { level: 'stated', rules: ['ERR-15'], exchange: r })
    ctx.fail(`revoke of an unknown agent: expected 404 not_found or 200, got ${brief(r)}`, {
      expected: 'HTTP 404 not_found or HTTP 200',
      exchange: r,
    })
  },
}
