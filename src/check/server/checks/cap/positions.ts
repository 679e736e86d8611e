/** `cap.positions`: an order that would open a position beyond the positions cap is refused with limit_exceeded and the cap in the message. */
import { brief } from '../../context.ts'
import { expectSuccess } from '../../expectations.ts'
import { jsonOf, succeeded } from '../../answers.ts'
import { placeOrder } from '../../builders.ts'
import { defaultTier, expectCapRefusal } from '../../steps/rate-limits.ts'
import type { Check, CheckContext } from '../../types.ts'
import { walletFromKey, type Wallet } from '../../../target/wallets.ts'

function positionsTaker(ctx: CheckContext): { wallet: Wallet; cap: number } {
  const tiers = ctx.spec.rateLimits.tiers
  let best: { wallet: Wallet; cap: number } | undefined
  for (const tw of ctx.target.tierWallets) {
    const cap = tiers[tw.tier]?.maxPositions ?? -1
    if (cap > 0 && (!best || cap < best.cap)) best = { wallet: walletFromKey(tw.privateKey, tw.tier), cap }
  }
  return best ?? { wallet: ctx.wallet(), cap: defaultTier(ctx).maxPositions }
}

export const CAP_POSITIONS = 'cap.positions'

export const capPositions: Check<typeof CAP_POSITIONS> = {
  id: CAP_POSITIONS,
  title: 'an order that would open a position beyond the positions cap is refused with limit_exceeded and the cap in the message',
  rules: ['CAP-2', 'CAP-3', 'ERR-8', 'CAP-5'],
  level: 'stated',
  // A known-tier wallet, and a taker that lifts the lowest ask, whoever rested it.
  shares: ['tier-wallets', 'book'],
  needs: (spec) => {
    const rl = spec.rateLimits
    const cap = rl.tiers[rl.defaultTier]?.maxPositions ?? 0
    return `with ${cap + 1} listed symbols (or a --config wallet of a tier with a smaller positions cap)`
  },
  async run(ctx) {
    const { wallet: taker, cap } = positionsTaker(ctx)
    if (cap < 0) return ctx.skip('the taker has no positions cap (-1: unlimited)')
    const symbols = ctx.target.symbols
    if (symbols.length < cap + 1)
      return ctx.skip(
        `needs ${cap + 1} listed instruments to open ${cap} positions and try one more (have ${symbols.length}: pass more --symbol, or a config wallet of a tier with a smaller cap)`,
      )
    const maker = ctx.wallet()
    // One fill per instrument: the maker rests a sell above any resting buy, the taker lifts
    // the lowest ask with an ioc buy (a fill with anyone opens the position just the same).
    for (let i = 0; i < cap; i++) {
      const symbol = symbols[symbols.length - 1 - i]!
      const m = (await placeOrder(ctx, { wallet: maker, symbol, side: 'Sell', price: '999998', size: '1', route: 'book_only' })).e
      expectSuccess(ctx, m, `maker sell in ${symbol}`)
      const t = (await placeOrder(ctx, { wallet: taker, symbol, side: 'Buy', price: '999999', size: '1', tif: 'ioc', route: 'book_only' }))
        .e
      if (!succeeded(t))
        ctx.fail(`position ${i + 1} of the cap ${cap}: the taker's buy in ${symbol} was not accepted: ${brief(t)}`, { exchange: t })
      const filled = jsonOf(t)?.filled_size
      if (typeof filled === 'string' && /^0(\.0*)?$/.test(filled))
        return ctx.skip(`the taker's ioc buy in ${symbol} did not fill, so no position was opened`)
    }
    const symbol = symbols[symbols.length - 1 - cap]!
    const e = (await placeOrder(ctx, { wallet: taker, symbol, side: 'Buy', price: '1', size: '1', route: 'book_only' })).e
    if (succeeded(e))
      ctx.fail(`with ${cap} open positions, an order in a new instrument ${symbol} was accepted`, {
        exchange: e,
        expected: `limit_exceeded with a message stating ${cap}`,
      })
    expectCapRefusal(ctx, e, cap, 'positions-cap')
  },
}
