/**
 * What the venue's SDKs rely on beyond signing (DECISIONS, perp section; all assumed): the
 * account an approved agent trades for, Alo as post-only, integers past 2^53 read exactly, and
 * POST /info mapping names to asset indexes. Each perp key gets state first, as in perp.ts.
 */
import { brief } from '../../context.ts'
import { call } from '../../operations.ts'
import { approveAgent, expectSuccess, jsonOf, placeOrder, statusOf, succeeded, withState } from '../../helpers.ts'
import type { Check, CheckContext } from '../../types.ts'
import type { Exchange } from '../../http.ts'
import { defaultPerpAction, perpOrder } from './orders.ts'

/** The per-item statuses of an `ok` envelope (empty when there are none). */
function statusesOf(e: Exchange): Record<string, unknown>[] {
  const s = (jsonOf(e)?.response as { data?: { statuses?: unknown } } | undefined)?.data?.statuses
  return Array.isArray(s) ? (s as Record<string, unknown>[]) : []
}

async function ordersOf(ctx: CheckContext, wallet: string): Promise<Record<string, unknown>[]> {
  const e = await call(ctx, 'listOrders', undefined, { wallet })
  const orders = jsonOf(e)?.orders
  return Array.isArray(orders) ? (orders as Record<string, unknown>[]) : []
}

export const perpVenueChecks: Check[] = [
  {
    id: 'perp.agent-account',
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
  },
  {
    id: 'perp.alo-post-only',
    title: 'an Alo order that would cross is an error status, never a fill',
    rules: ['PERP-9'],
    level: 'assumed',
    // Rests an ask just above the best bid that must stay unfilled (a taker elsewhere would lift it).
    shares: ['book'],
    async run(ctx) {
      const maker = ctx.wallet()
      const taker = await withState(ctx, ctx.wallet(), 'options order that gives the perp key state')
      const symbol = ctx.target.symbols[0] ?? ''
      // A resting sell above the best bid (so it rests), which an Alo buy at the same price crosses.
      const book = jsonOf(await call(ctx, 'getOrderbook', undefined, { symbol }))?.result as
        | { bids?: { price?: string }[] }
        | null
        | undefined
      const bestBid = Number(book?.bids?.[0]?.price ?? 0)
      const price = String(Math.floor(Number.isFinite(bestBid) ? bestBid : 0) + 7)
      const { e: ask } = await placeOrder(ctx, { wallet: maker, symbol, side: 'Sell', price, size: '1', tif: 'gtc' })
      if (!succeeded(ask)) ctx.skip(`the resting sell the Alo order would cross was not accepted (${brief(ask)})`)
      const action = defaultPerpAction(price)
      const order = (action.orders as Record<string, unknown>[])[0]!
      order.t = { limit: { tif: 'Alo' } }
      const e = await call(ctx, 'perpExchange', await perpOrder(ctx, taker, { action }))
      const [status] = statusesOf(e)
      if (status && ('filled' in status || 'resting' in status))
        ctx.fail(`an Alo buy at the best ask was placed: ${brief(e)}`, { exchange: e, expected: 'an {error} status (post-only)' })
      if (!status || typeof status.error !== 'string')
        ctx.fail(`an Alo buy at the best ask: expected an {error} status, got ${brief(e)}`, {
          exchange: e,
          expected: '{"status":"ok",...,"statuses":[{"error":"..."}]}',
        })
      const filled = (await ordersOf(ctx, taker.address)).filter(
        (o) => o.price === price && o.filled_size !== undefined && o.filled_size !== '0',
      )
      if (filled.length) ctx.fail('the Alo order traded', { expected: 'no fill' })
    },
  },
  {
    id: 'perp.exact-integers',
    title: 'a cancel with o = 2^53+1 is authenticated (the integer is hashed exactly, not as a double)',
    rules: ['PERP-9', 'PERP-5'],
    level: 'assumed',
    async run(ctx) {
      const w = await withState(ctx, ctx.wallet(), 'options order that gives the perp key state')
      const o = 2n ** 53n + 1n
      const e = await call(ctx, 'perpExchange', await perpOrder(ctx, w, { action: { type: 'cancel', cancels: [{ a: 0, o }] } }))
      if (statusOf(e) >= 500) ctx.fail(`a cancel with o = ${o} gave a server error ${brief(e)}`, { exchange: e, level: 'stated' })
      if (!succeeded(e))
        ctx.fail(`a correctly signed cancel with o = ${o} was refused (${brief(e)}): the server hashed a rounded integer`, {
          exchange: e,
          expected: '{"status":"ok",...} (an error status: no such order)',
        })
    },
  },
  {
    id: 'perp.info-meta',
    title: 'POST /info {"type":"meta"} lists the perp universe; asset index = position',
    rules: ['PERP-10'],
    level: 'assumed',
    async run(ctx) {
      const e = await call(ctx, 'perpInfo', '{"type":"meta"}')
      const universe = jsonOf(e)?.universe
      if (statusOf(e) !== 200 || !Array.isArray(universe)) return ctx.fail(`expected {universe: [...]}, got ${brief(e)}`, { exchange: e })
      const bad = (universe as Record<string, unknown>[]).find(
        (u) => typeof u?.name !== 'string' || !Number.isInteger(u.szDecimals) || !Number.isInteger(u.maxLeverage),
      )
      if (bad) ctx.fail(`a universe entry is not {name, szDecimals, maxLeverage}: ${JSON.stringify(bad).slice(0, 120)}`, { exchange: e })
      const names = (universe as { name?: unknown }[]).map((u) => u.name)
      const first = ctx.target.symbols[0]
      if (first !== undefined && names[0] !== first)
        ctx.fail(`asset index 0 is ${JSON.stringify(names[0])}, but the target's first instrument is ${first}`, { exchange: e })
      const other = await call(ctx, 'perpInfo', '{"type":"noSuchRequest"}')
      if (statusOf(other) !== 400)
        ctx.fail(`an info request type the server does not answer: expected 400, got ${brief(other)}`, { exchange: other })
    },
  },
]
