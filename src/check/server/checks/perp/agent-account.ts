/**
 * `perp.agent-account`: an approved agent's perp order without `vaultAddress` is booked to the
 * wallet that approved it (the venue books an API wallet's orders to its master), even when the
 * agent key also trades options for itself.
 */
import { call } from '../../operations.ts'
import { approveAgent, withState } from '../../builders.ts'
import { expectSuccess } from '../../expectations.ts'
import { ordersOf } from '../../steps/perp.ts'
import type { Check } from '../../types.ts'
import { perpOrder } from './orders.ts'

export const PERP_AGENT_ACCOUNT = 'perp.agent-account'

export const perpAgentAccount: Check<typeof PERP_AGENT_ACCOUNT> = {
  id: PERP_AGENT_ACCOUNT,
  title: "an approved agent's perp order without vaultAddress is booked to the wallet that approved it",
  rules: ['PERP-6'],
  level: 'assumed',
  async run(ctx) {
    const owner = ctx.wallet()
    const agent = await withState(ctx, ctx.wallet(), 'options order that gives the agent key state of its own')
    expectSuccess(ctx, await approveAgent(ctx, owner, agent.address), 'approval of the agent')
    const e = await call(ctx, 'perpExchange', await perpOrder(ctx, agent, { nonceOf: owner }))
    expectSuccess(ctx, e, "the agent's perp order")
    const symbol = ctx.target.symbols[0]
    const mine = (await ordersOf(ctx, owner.address)).filter((o) => o.symbol === symbol)
    if (mine.length !== 1) {
      ctx.fail(`the agent's perp order is not listed under the approving wallet (${mine.length} orders in ${symbol} there)`, {
        exchange: e,
        expected: 'the order under GET /orders?wallet=<owner>',
      })
    }
  },
}
