/**
 * `perp.agent-several-wallets`: an agent approved by two wallets that sends a perp order without
 * `vaultAddress` is refused (no account can be chosen for it), and with `vaultAddress` naming one
 * of them the order is booked to that wallet.
 */
import { brief } from '../../context.ts'
import { call } from '../../operations.ts'
import { approveAgent } from '../../builders.ts'
import { expectSuccess } from '../../expectations.ts'
import { jsonOf, statusOf } from '../../answers.ts'
import { ordersOf, placedAny } from '../../steps/perp.ts'
import type { Check } from '../../types.ts'
import { perpOrder } from './orders.ts'

export const PERP_AGENT_SEVERAL_WALLETS = 'perp.agent-several-wallets'

export const perpAgentSeveralWallets: Check<typeof PERP_AGENT_SEVERAL_WALLETS> = {
  id: PERP_AGENT_SEVERAL_WALLETS,
  title: 'an agent of several wallets is refused a perp order without vaultAddress; with it, the order is booked to that wallet',
  rules: ['PERP-6', 'PERP-8'],
  level: 'assumed',
  async run(ctx) {
    const first = ctx.wallet()
    const second = ctx.wallet()
    const agent = ctx.wallet()
    expectSuccess(ctx, await approveAgent(ctx, first, agent.address), 'approval of the agent by the first wallet')
    expectSuccess(ctx, await approveAgent(ctx, second, agent.address), 'approval of the agent by the second wallet')
    const symbol = ctx.target.symbols[0]
    const where = async () => {
      const counts = await Promise.all([first, second, agent].map(async (w) => (await ordersOf(ctx, w.address)).length))
      return `orders listed: first wallet ${counts[0]}, second wallet ${counts[1]}, agent ${counts[2]}`
    }
    await ctx.case('no-vault', 'without vaultAddress: refused in the envelope, nothing booked', async (c) => {
      const e = await call(c, 'perpExchange', await perpOrder(c, agent, { nonceOf: first }))
      if (statusOf(e) >= 500) c.fail(`server error ${brief(e)}`, { exchange: e, level: 'stated' })
      const expected = '200 {"status":"err","response":"… send vaultAddress …"}'
      if (placedAny(e))
        c.fail(`the order of an agent of two wallets was placed without vaultAddress (${await where()})`, { exchange: e, expected })
      if (statusOf(e) !== 200 || jsonOf(e)?.status !== 'err')
        c.fail(`expected the venue's refusal, got ${brief(e)}`, { exchange: e, expected })
    })
    await ctx.case('vault', 'with vaultAddress = the second wallet: booked to it', async (c) => {
      const e = await call(c, 'perpExchange', await perpOrder(c, agent, { nonceOf: second, vaultAddress: second.address }))
      expectSuccess(c, e, "the agent's perp order with vaultAddress")
      const booked = (await ordersOf(c, second.address)).filter((o) => o.symbol === symbol)
      if (booked.length !== 1)
        c.fail(`the order is not listed under the vaultAddress wallet (${await where()})`, {
          exchange: e,
          expected: 'the order under GET /orders?wallet=<vaultAddress>',
        })
    })
  },
}
