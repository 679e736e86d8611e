/** `auth.approve-self`: approving yourself as your own agent is refused with invalid_field. */
import { brief } from '../../context.ts'
import { approveAgent } from '../../builders.ts'
import { expectRefused } from '../../expectations.ts'
import { succeeded } from '../../answers.ts'
import type { Check } from '../../types.ts'

export const AUTH_APPROVE_SELF = 'auth.approve-self'

export const authApproveSelf: Check<typeof AUTH_APPROVE_SELF> = {
  id: AUTH_APPROVE_SELF,
  title: 'approving yourself as your own agent is refused with invalid_field',
  rules: ['AGENT-8'],
  level: 'assumed',
  async run(ctx) {
    const w = ctx.wallet()
    const r = await approveAgent(ctx, w, w.address)
    if (succeeded(r)) ctx.fail(`approving yourself was accepted (${brief(r)})`, { expected: 'HTTP 400 invalid_field', exchange: r })
    expectRefused(ctx, r, 'approve yourself', { codes: ['invalid_field'] })
  },
}
