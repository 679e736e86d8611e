/** `cap.unlimited-positions`: a tier whose max positions is -1 opens positions beyond every finite cap. */
import { brief } from '../../context.ts'
import { expectSuccess } from '../../expectations.ts'
import { placeOrder } from '../../builders.ts'
import { succeeded } from '../../answers.ts'
import type { Tier } from '../../../../contract/index.ts'
import type { Check, CheckContext } from '../../types.ts'
import { walletFromKey, type Wallet } from '../../../target/wallets.ts'

/** Opens one position per instrument for `taker` (a maker rests a sell, the taker lifts the lowest ask). */
async function openPositions(ctx: CheckContext, taker: Wallet, symbols: readonly string[]): Promise<void> {
  const maker = ctx.wallet()
  for (const symbol of symbols) {
    const m = (await placeOrder(ctx, { wallet: maker, symbol, side: 'Sell', price: '999998', size: '1', route: 'book_only' })).e
    expectSuccess(ctx, m, `maker sell in ${symbol}`)
    const t = (await placeOrder(ctx, { wallet: taker, symbol, side: 'Buy', price: '999999', size: '1', tif: 'ioc', route: 'book_only' })).e
    if (!succeeded(t)) ctx.fail(`the taker's buy in ${symbol} (a new position) was not accepted: ${brief(t)}`, { exchange: t })
  }
}

/** The smallest positive positions cap of the tier table. */
function smallestFiniteCap(tiers: Readonly<Record<string, Tier>>): number {
  return Math.min(
    ...Object.values(tiers)
      .map((t) => t.maxPositions)
      .filter((n) => n > 0),
  )
}

export const CAP_UNLIMITED_POSITIONS = 'cap.unlimited-positions'

export const capUnlimitedPositions: Check<typeof CAP_UNLIMITED_POSITIONS> = {
  id: CAP_UNLIMITED_POSITIONS,
  title: 'a tier whose max positions is -1 opens positions beyond every finite cap',
  rules: ['CAP-4'],
  level: 'stated',
  // A known-tier wallet, and a taker that lifts the lowest ask, whoever rested it.
  shares: ['tier-wallets', 'book'],
  needs: (spec) =>
    `with a --config wallet of a tier with max positions -1 and ${smallestFiniteCap(spec.rateLimits.tiers) + 1} listed symbols`,
  async run(ctx) {
    const tiers = ctx.spec.rateLimits.tiers
    const unlimited = ctx.target.tierWallets.find((tw) => tiers[tw.tier]?.maxPositions === -1)
    if (!unlimited) return ctx.skip('needs a --config wallet of a tier with max positions -1 (e.g. market_maker)')
    const beyond = smallestFiniteCap(tiers) + 1
    const symbols = ctx.target.symbols
    if (symbols.length < beyond) return ctx.skip(`needs ${beyond} listed instruments (have ${symbols.length})`)
    // Beyond the smallest finite cap: a server that reads -1 as "0" or as a small cap refuses.
    await openPositions(ctx, walletFromKey(unlimited.privateKey, unlimited.tier), symbols.slice(-beyond))
  },
}
