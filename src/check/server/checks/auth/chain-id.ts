/** `auth.chain-id`: a signature under another chain ID is refused. */
import { brief } from '../../context.ts'
import { approveAgent, placeOrder, withState } from '../../builders.ts'
import { expectAuthRefused } from '../../expectations.ts'
import { statusOf } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { wrongChainId } from '../../../target/probes.ts'

export const AUTH_CHAIN_ID = 'auth.chain-id'

export const authChainId: Check<typeof AUTH_CHAIN_ID> = {
  id: AUTH_CHAIN_ID,
  title: 'a signature under another chain ID is refused',
  rules: ['DOM-3', 'SIGFAIL-4', 'AUTH-5'],
  level: 'stated',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    const ids = [1, ctx.target.chainId - 1, ctx.target.perpChainId].filter(
      (id, i, all) => id !== ctx.target.chainId && all.indexOf(id) === i,
    )
    for (const chainId of ids) {
      await ctx.case(`chain-${chainId}`, `PlaceOrder signed under chainId ${chainId}`, async (c) => {
        const { e } = await placeOrder(c, { wallet: w }, { domain: { chainId } })
        expectAuthRefused(c, e, `order signed under chainId ${chainId}`)
      })
    }
    // A chain that is neither of the target's: chain 1 for most, another where the target runs on 1.
    const wrong = wrongChainId(ctx.target)
    await ctx.case(`approve-chain-${wrong}`, `ApproveAgent signed under chainId ${wrong}`, async (c) => {
      const agent = c.wallet()
      const r = await approveAgent(c, w, agent.address, { domain: { chainId: wrong } })
      // The recovered "owner" is some other address: the approval must not authorize the agent for w.
      if (statusOf(r) >= 500) c.fail(`server error ${brief(r)}`, { exchange: r })
      const { e } = await placeOrder(c, { wallet: w, signer: agent })
      expectAuthRefused(c, e, `agent order after an approval signed under chainId ${wrong}`)
    })
  },
}
