/** `auth.unapproved-agent`: a signer that is neither the wallet nor its approved agent is refused. */
import { approveAgent, cancelBody, placeOrder, withState } from '../../builders.ts'
import { expectAuthRefused, expectSuccess } from '../../expectations.ts'
import { jsonOf, statusOf } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'

export const AUTH_UNAPPROVED_AGENT = 'auth.unapproved-agent'

export const authUnapprovedAgent: Check<typeof AUTH_UNAPPROVED_AGENT> = {
  id: AUTH_UNAPPROVED_AGENT,
  title: 'a signer that is neither the wallet nor its approved agent is refused',
  rules: ['AUTH-2', 'AUTH-4', 'SIGFAIL-5', 'AUTH-5', 'AUTH-1', 'AUTH-6', 'EP-2'],
  level: 'stated',
  async run(ctx) {
    await ctx.case('stranger', 'a fresh key signs an order for another wallet', async (c) => {
      const { e } = await placeOrder(c, { wallet: c.wallet(), signer: c.wallet() })
      expectAuthRefused(c, e, 'order signed by a stranger')
    })
    await ctx.case('known-signer', 'a key with its own state signs an order for another wallet', async (c) => {
      const signer = await withState(c, c.wallet())
      const victim = await withState(c, c.wallet())
      const { e } = await placeOrder(c, { wallet: victim, signer })
      expectAuthRefused(c, e, 'order signed by a known but unauthorized key')
      if (statusOf(e) === 401)
        c.warn('a known signer was refused with 401; the reference answers 403 unauthorized', {
          level: 'assumed',
          rules: ['AUTH-6'],
          exchange: e,
        })
    })
    await ctx.case('agent-of-other-wallet', 'an agent approved by wallet A signs for wallet B', async (c) => {
      const a = c.wallet()
      const b = c.wallet()
      const agent = c.wallet()
      expectSuccess(c, await approveAgent(c, a, agent.address), 'approve the agent for A')
      await withState(c, b)
      const { e } = await placeOrder(c, { wallet: b, signer: agent })
      expectAuthRefused(c, e, "order for B signed by A's agent")
    })
    await ctx.case(
      'unapproved-cancel',
      'a stranger cancels an order of another wallet',
      async (c) => {
        const w = c.wallet()
        const { e } = await placeOrder(c, { wallet: w })
        expectSuccess(c, e, 'set-up order')
        const id = jsonOf(e)?.order_id
        if (typeof id !== 'string') return c.skip('the order result has no order_id')
        const cancel = await cancelBody(c, w, { orderId: id }, { signer: c.wallet() })
        expectAuthRefused(c, await call(c, 'cancelOrder', cancel.text), 'cancel signed by a stranger')
      },
      { rules: ['AUTH-1', 'AUTH-2', 'EP-2'] },
    )
  },
}
