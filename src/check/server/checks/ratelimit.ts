/**
 * Rate limits and caps: headers on success and error responses of every rate-limited endpoint,
 * Remaining −1 per request and −k per k-item batch, the limit+1-th order answered 429 with the
 * stated body, categories independent, and (slow) the window reset and the open-order cap.
 */
import type { Tier } from '../../../contract/index.ts'
import { brief } from '../context.ts'
import type { Exchange } from '../http.ts'
import {
  approveAgent,
  agentBody,
  bulkBody,
  cancelBody,
  codeOf,
  expectSuccess,
  jsonOf,
  orderBody,
  placeOrder,
  rateHeaders,
  revokeAgent,
  statusOf,
  succeeded,
  type RateHeaders,
} from '../helpers.ts'
import { perpOrder } from './perp.ts'
import type { Check, CheckContext } from '../types.ts'
import { walletFromKey, type Wallet } from '../wallets.ts'

function defaultTier(ctx: CheckContext): Tier {
  const rl = ctx.spec.rateLimits
  const t = rl.tiers[rl.defaultTier]
  if (!t) throw new Error(`spec: x-rate-limits has no default tier ${rl.defaultTier}`)
  return t
}

function categoryLimit(ctx: CheckContext, category: string): number {
  const t = defaultTier(ctx)
  return category === 'orders' ? t.ordersPerMinute : category === 'cancels' ? t.cancelsPerMinute : t.apiRequestsPerMinute
}

/** Places a resting order and returns its order id and client id. */
async function restingOrder(ctx: CheckContext, w: Wallet): Promise<{ orderId: string; clientId: string }> {
  const { e, body } = await placeOrder(ctx, { wallet: w })
  expectSuccess(ctx, e, 'set-up order')
  const orderId = jsonOf(e)?.order_id
  if (typeof orderId !== 'string') ctx.fail('an ACKED order result carries no order_id (needed to cancel it)', { level: 'assumed', rules: ['EP-9'], exchange: e })
  const clientId = String(body.entries.find(([k]) => k === 'client_id')?.[1] ?? '')
  return { orderId, clientId }
}

/** For each rate-limited operation: a request that succeeds and one that fails, both naming the wallet. */
type OpProbe = (ctx: CheckContext, w: Wallet) => Promise<{ success: Exchange; error: Exchange }>

const wrongChain = (ctx: CheckContext) => ({ domain: { chainId: ctx.target.chainId === 1 ? 2 : 1 } })

export const OP_PROBES: Record<string, OpProbe> = {
  async placeOrder(ctx, w) {
    const n = ctx.nonce(w)
    const success = (await placeOrder(ctx, { wallet: w, nonce: n })).e
    const error = (await placeOrder(ctx, { wallet: w, nonce: n })).e
    return { success, error }
  },
  async cancelOrder(ctx, w) {
    const { orderId } = await restingOrder(ctx, w)
    const n = ctx.nonce(w)
    const success = await ctx.send('DELETE', '/order', (await cancelBody(ctx, w, { orderId }, { nonce: n })).text)
    const error = await ctx.send('DELETE', '/order', (await cancelBody(ctx, w, { orderId }, { nonce: n })).text)
    return { success, error }
  },
  async placeOrders(ctx, w) {
    const items = [await orderBody(ctx, { wallet: w }), await orderBody(ctx, { wallet: w })]
    const success = await ctx.send('POST', '/bulk_order', bulkBody('orders', items))
    const bad = [await orderBody(ctx, { wallet: w }, wrongChain(ctx))]
    const error = await ctx.send('POST', '/bulk_order', bulkBody('orders', bad))
    return { success, error }
  },
  async replaceOrders(ctx, w) {
    const { orderId } = await restingOrder(ctx, w)
    const item = async (opts = {}) => `{"cancel":${(await cancelBody(ctx, w, { orderId }, opts)).text},"order":${(await orderBody(ctx, { wallet: w }, opts)).text}}`
    const success = await ctx.send('PUT', '/bulk_order', `{"replacements":[${await item()}]}`)
    const error = await ctx.send('PUT', '/bulk_order', `{"replacements":[${await item(wrongChain(ctx))}]}`)
    return { success, error }
  },
  async cancelOrders(ctx, w) {
    const a = await restingOrder(ctx, w)
    const success = await ctx.send('DELETE', '/bulk_order', bulkBody('cancels', [await cancelBody(ctx, w, { orderId: a.orderId })]))
    const error = await ctx.send('DELETE', '/bulk_order', bulkBody('cancels', [await cancelBody(ctx, w, { orderId: a.orderId }, wrongChain(ctx))]))
    return { success, error }
  },
  async cancelOrdersByClientId(ctx, w) {
    const a = await restingOrder(ctx, w)
    const success = await ctx.send('DELETE', '/bulk_order_cloid', bulkBody('cancels', [await cancelBody(ctx, w, { clientId: a.clientId })]))
    const error = await ctx.send('DELETE', '/bulk_order_cloid', bulkBody('cancels', [await cancelBody(ctx, w, { clientId: a.clientId }, wrongChain(ctx))]))
    return { success, error }
  },
  async approveAgent(ctx, w) {
    const n = ctx.nonce(w)
    const success = await approveAgent(ctx, w, ctx.wallet().address, { nonce: n })
    const error = await approveAgent(ctx, w, ctx.wallet().address, { nonce: n })
    return { success, error }
  },
  async revokeAgent(ctx, w) {
    const agent = ctx.wallet().address
    expectSuccess(ctx, await approveAgent(ctx, w, agent), 'set-up approval')
    const n = ctx.nonce(w)
    const success = await revokeAgent(ctx, w, agent, { nonce: n })
    const error = await ctx.send('POST', '/revoke-agent', (await agentBody(ctx, 'RevokeAgent', w, ctx.wallet().address, { nonce: n })).text)
    return { success, error }
  },
  async perpExchange(ctx, w) {
    await restingOrder(ctx, w)
    const n = ctx.nonce(w)
    const success = await ctx.send('POST', '/exchange', await perpOrder(ctx, w, { nonce: n }))
    const error = await ctx.send('POST', '/exchange', await perpOrder(ctx, w, { nonce: n }))
    return { success, error }
  },
}

/** All three headers present, integers, consistent; Retry-After only on a 429. */
function checkHeaders(ctx: CheckContext, e: Exchange, what: string, category: string): RateHeaders {
  const h = rateHeaders(e)
  if (h.missing.length) ctx.fail(`${what}: ${h.missing.join(', ')} missing (${brief(e)})`, { exchange: e, expected: 'X-RateLimit-Limit, -Remaining and -Reset as integers', rules: ['RL-6'] })
  if (h.remaining! > h.limit!) ctx.fail(`${what}: X-RateLimit-Remaining ${h.remaining} exceeds X-RateLimit-Limit ${h.limit}`, { exchange: e, rules: ['RL-7'] })
  const nowS = ctx.target.now() / 1000
  const window = ctx.spec.rateLimits.windowSeconds
  if (!(h.reset! > nowS - 5 && h.reset! <= nowS + window + 5)) {
    ctx.fail(`${what}: X-RateLimit-Reset ${h.reset} is not a Unix time within the current ${window} s window (now ${Math.floor(nowS)})`, { exchange: e, rules: ['RL-9'] })
  }
  if (statusOf(e) !== 429 && e.response?.headers['retry-after'] !== undefined) {
    ctx.fail(`${what}: Retry-After on a ${statusOf(e)} response (it belongs to 429 only)`, { exchange: e, rules: ['RL-8'] })
  }
  const expected = categoryLimit(ctx, category)
  if (h.limit !== expected) {
    ctx.warn(`${what}: X-RateLimit-Limit ${h.limit}, expected the Default tier's ${category} limit ${expected}`, { exchange: e, level: 'assumed', rules: ['RL-11', 'RL-2'] })
  }
  return h
}

/** Sends orders until one is refused; returns the exchanges (the last is the refusal, if any). */
async function exhaustOrders(ctx: CheckContext, w: Wallet, limit: number): Promise<Exchange[]> {
  const out: Exchange[] = []
  for (let i = 0; i < limit + 1; i++) {
    const { e } = await placeOrder(ctx, { wallet: w })
    out.push(e)
    if (!succeeded(e)) break
  }
  return out
}

/** Uses up the order limit and returns the 429 that ends it; skips the case when none came (rl.order-limit reports that). */
async function orderLimitHit(ctx: CheckContext, w: Wallet, limit: number): Promise<Exchange> {
  const sent = await exhaustOrders(ctx, w, limit)
  const last = sent[sent.length - 1]!
  if (statusOf(last) !== 429) ctx.skip(`the order limit was not reached (${brief(last)}); rl.order-limit reports that`)
  return last
}

/** On a live target, a burst started near the end of an (epoch-aligned) window would be split: wait for a fresh one. */
async function freshWindow(ctx: CheckContext): Promise<void> {
  if (ctx.target.embedded) return
  const nowS = ctx.target.now() / 1000
  const window = ctx.spec.rateLimits.windowSeconds
  const left = window - (nowS % window)
  if (left < 15) await ctx.target.waitUntil(Math.ceil(nowS + left))
}

export const rateLimitChecks: Check[] = [
  {
    id: 'rl.headers',
    title: 'X-RateLimit-Limit/-Remaining/-Reset on success and error responses of every rate-limited endpoint',
    rules: ['RL-6', 'RL-9', 'RL-8', 'RL-11', 'RL-2'],
    level: 'stated',
    async run(ctx) {
      for (const op of ctx.spec.operations.filter((o) => o.rateLimit)) {
        const probe = OP_PROBES[op.operationId]
        await ctx.case(op.operationId, `${op.method} ${op.path}: headers on success and on error`, async (c) => {
          if (!probe) c.skip(`no request builder for ${op.operationId}`)
          const w = c.wallet()
          const { success, error } = await probe!(c, w)
          if (statusOf(success) === 404 && op.assumed) c.fail(`${op.method} ${op.path} is not served (${brief(success)})`, { level: 'assumed', exchange: success })
          if (!succeeded(success)) c.fail(`${op.method} ${op.path}: the success probe was not accepted (${brief(success)})`, { exchange: success })
          checkHeaders(c, success, `${op.method} ${op.path} success`, op.rateLimit!.category)
          // The perp venue's envelope refuses with HTTP 200 {status: "err"}: an error response too.
          if (statusOf(error) < 400 && jsonOf(error)?.status !== 'err') c.fail(`${op.method} ${op.path}: the error probe was not refused (${brief(error)})`, { exchange: error })
          checkHeaders(c, error, `${op.method} ${op.path} error ${statusOf(error)}`, op.rateLimit!.category)
        }, { level: op.assumed ? 'assumed' : 'stated' })
      }
    },
  },
  {
    id: 'rl.remaining',
    title: 'X-RateLimit-Remaining falls by 1 per request and by k per k-item batch, in each category',
    rules: ['RL-7', 'EP-3', 'EP-4', 'EP-5', 'EP-6'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      await freshWindow(ctx)
      let last: RateHeaders | undefined
      const step = (e: Exchange, what: string, k: number, category: string) => {
        if (!succeeded(e)) ctx.fail(`${what}: not accepted (${brief(e)})`, { exchange: e })
        const h = checkHeaders(ctx, e, what, category)
        if (last && last.reset === h.reset && h.remaining !== last.remaining! - k) {
          ctx.fail(`${what}: X-RateLimit-Remaining went from ${last.remaining} to ${h.remaining}, expected ${last.remaining! - k} (−${k})`, {
            exchange: e,
            expected: `X-RateLimit-Remaining: ${last.remaining! - k}`,
          })
        }
        last = h
      }
      // orders
      const ids: { orderId: string; clientId: string }[] = []
      for (let i = 0; i < 2; i++) {
        const { e, body } = await placeOrder(ctx, { wallet: w })
        step(e, `POST /order #${i + 1}`, 1, 'orders')
        ids.push({ orderId: String(jsonOf(e)?.order_id ?? ''), clientId: String(body.entries.find(([k]) => k === 'client_id')?.[1]) })
      }
      const k = 3
      const bulk = await ctx.send('POST', '/bulk_order', bulkBody('orders', await Promise.all(Array.from({ length: k }, () => orderBody(ctx, { wallet: w })))))
      step(bulk, `POST /bulk_order with ${k} orders`, k, 'orders')
      const results = jsonOf(bulk)?.results
      if (Array.isArray(results)) for (const r of results) if (typeof (r as Record<string, unknown>).order_id === 'string') ids.push({ orderId: (r as { order_id: string }).order_id, clientId: '' })
      // replacements count one order each (EP-4)
      const victims = ids.splice(0, 2)
      const repl = await ctx.send(
        'PUT',
        '/bulk_order',
        `{"replacements":[${(
          await Promise.all(victims.map(async (v) => `{"cancel":${(await cancelBody(ctx, w, { orderId: v.orderId })).text},"order":${(await orderBody(ctx, { wallet: w })).text}}`))
        ).join(',')}]}`,
      )
      step(repl, 'PUT /bulk_order with 2 replacements', 2, 'orders')
      // cancels
      last = undefined
      const more = [] as { orderId: string; clientId: string }[]
      for (let i = 0; i < 4; i++) {
        const { e, body } = await placeOrder(ctx, { wallet: w })
        more.push({ orderId: String(jsonOf(e)?.order_id ?? ''), clientId: String(body.entries.find(([kk]) => kk === 'client_id')?.[1]) })
      }
      const ce1 = await ctx.send('DELETE', '/order', (await cancelBody(ctx, w, { orderId: more[0]!.orderId })).text)
      step(ce1, 'DELETE /order #1', 1, 'cancels')
      const ce2 = await ctx.send('DELETE', '/order', (await cancelBody(ctx, w, { clientId: more[1]!.clientId })).text)
      step(ce2, 'DELETE /order #2 (by client_id)', 1, 'cancels')
      const bc = await ctx.send('DELETE', '/bulk_order', bulkBody('cancels', [await cancelBody(ctx, w, { orderId: more[2]!.orderId }), await cancelBody(ctx, w, { orderId: ids[0]?.orderId ?? 'none' })]))
      step(bc, 'DELETE /bulk_order with 2 cancels', 2, 'cancels')
      const bcc = await ctx.send('DELETE', '/bulk_order_cloid', bulkBody('cancels', [await cancelBody(ctx, w, { clientId: more[3]!.clientId }), await cancelBody(ctx, w, { clientId: 'no-such-client-id' })]))
      step(bcc, 'DELETE /bulk_order_cloid with 2 cancels', 2, 'cancels')
    },
  },
  {
    id: 'rl.order-limit',
    title: 'the limit+1-th order in a window gets 429 with the stated body, Retry-After = retry_after_secs, Remaining 0',
    rules: ['RL-5', 'RL-4', 'RL-2', 'RL-7', 'ERR-7', 'ERR-4', 'RL-8', 'RL-11', 'ERR-3'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      await freshWindow(ctx)
      const limit = defaultTier(ctx).ordersPerMinute
      const sent = await exhaustOrders(ctx, w, limit)
      const accepted = sent.filter(succeeded).length
      const last = sent[sent.length - 1]!
      if (accepted > limit) ctx.fail(`${accepted} orders were accepted in one window; the Default tier allows ${limit}`, { exchange: last, expected: `HTTP 429 on order ${limit + 1}` })
      if (accepted < limit) ctx.fail(`order ${accepted + 1} of ${limit} allowed was not accepted: ${brief(last)}`, { exchange: last })
      if (statusOf(last) !== 429) ctx.fail(`order ${limit + 1}: expected HTTP 429, got ${brief(last)}`, { exchange: last })
      const body = jsonOf(last) ?? {}
      const problems: string[] = []
      if (body.error !== 'rate_limit_exceeded') problems.push(`error is ${JSON.stringify(body.error)}, not "rate_limit_exceeded"`)
      if (typeof body.message !== 'string') problems.push('message missing')
      if (!Number.isInteger(body.retry_after_secs)) problems.push(`retry_after_secs ${JSON.stringify(body.retry_after_secs)} is not an integer`)
      if (!Number.isInteger(body.limit)) problems.push(`limit ${JSON.stringify(body.limit)} is not an integer`)
      const h = rateHeaders(last)
      if (h.retryAfter === undefined) problems.push('Retry-After header missing')
      if (h.remaining !== 0) problems.push(`X-RateLimit-Remaining is ${h.remaining ?? 'missing'}, not 0`)
      if (h.missing.length) problems.push(`${h.missing.join(', ')} missing`)
      if (problems.length) {
        ctx.fail(`429 response: ${problems.join('; ')}`, {
          exchange: last,
          expected: '{"error":"rate_limit_exceeded","message":…,"retry_after_secs":<int>,"limit":<int>} with Retry-After and X-RateLimit-Remaining: 0',
        })
      }
      if (h.retryAfter !== body.retry_after_secs) ctx.warn(`Retry-After ${h.retryAfter} differs from retry_after_secs ${String(body.retry_after_secs)}`, { exchange: last, level: 'assumed', rules: ['RL-11'] })
      if (body.code !== 'rate_limit_exceeded') ctx.warn(`429 code is ${JSON.stringify(body.code)}; the reference uses rate_limit_exceeded`, { exchange: last, level: 'assumed', rules: ['ERR-15'] })
      if (body.limit !== limit) ctx.warn(`429 limit is ${String(body.limit)}, the Default tier's order limit is ${limit}`, { exchange: last, level: 'assumed', rules: ['RL-11'] })
      const wait = h.reset !== undefined ? h.reset - ctx.target.now() / 1000 : undefined
      if (wait !== undefined && typeof body.retry_after_secs === 'number' && Math.abs(body.retry_after_secs - wait) > 2) {
        ctx.warn(`retry_after_secs ${body.retry_after_secs} does not match the ${Math.round(wait)} s left until X-RateLimit-Reset`, { exchange: last, level: 'assumed', rules: ['RL-11'] })
      }
    },
  },
  {
    id: 'rl.categories',
    title: 'order, cancel and API categories are independent (cancels do not spend orders and vice versa)',
    rules: ['RL-3'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      await freshWindow(ctx)
      const tier = defaultTier(ctx)
      const first = await restingOrder(ctx, w)
      const second = await restingOrder(ctx, w)
      const c1 = await ctx.send('DELETE', '/order', (await cancelBody(ctx, w, { orderId: first.orderId })).text)
      if (!succeeded(c1)) ctx.fail(`cancel not accepted (${brief(c1)})`, { exchange: c1 })
      const hc = rateHeaders(c1)
      if (hc.remaining !== undefined && hc.limit !== undefined && hc.remaining !== hc.limit - 1) {
        ctx.fail(`after 2 orders and 1 cancel, the cancel response shows ${hc.remaining} of ${hc.limit} left; cancels must not count orders`, { exchange: c1, expected: `X-RateLimit-Remaining: ${hc.limit - 1}` })
      }
      const { e: o3 } = await placeOrder(ctx, { wallet: w })
      const ho = rateHeaders(o3)
      if (ho.remaining !== undefined && ho.limit !== undefined && ho.remaining !== ho.limit - 3) {
        ctx.fail(`after 3 orders and 1 cancel, the order response shows ${ho.remaining} of ${ho.limit} left; orders must not count cancels`, { exchange: o3, expected: `X-RateLimit-Remaining: ${ho.limit - 3}` })
      }
      // Exhaust the orders; a cancel must still go through.
      await orderLimitHit(ctx, w, tier.ordersPerMinute - 3)
      const c2 = await ctx.send('DELETE', '/order', (await cancelBody(ctx, w, { orderId: second.orderId })).text)
      if (statusOf(c2) === 429) ctx.fail('a cancel was refused with 429 after the order limit (not the cancel limit) was used up', { exchange: c2, expected: 'the cancel accepted' })
      if (!succeeded(c2)) ctx.fail(`a cancel after the order limit was used up: ${brief(c2)}`, { exchange: c2 })
    },
  },
  {
    id: 'rl.reset',
    title: 'after the limit is hit, the counters reset at X-RateLimit-Reset',
    rules: ['RL-1', 'RL-9', 'RL-10', 'RL-11'],
    level: 'stated',
    slow: true,
    async run(ctx) {
      const w = ctx.wallet()
      await freshWindow(ctx)
      const limit = defaultTier(ctx).ordersPerMinute
      const last = await orderLimitHit(ctx, w, limit)
      const reset = rateHeaders(last).reset
      if (reset === undefined) return ctx.fail('the 429 carries no X-RateLimit-Reset', { exchange: last })
      await ctx.target.waitUntil(reset)
      const { e } = await placeOrder(ctx, { wallet: w })
      if (!succeeded(e)) ctx.fail(`an order at X-RateLimit-Reset (${reset}) was not accepted: ${brief(e)}`, { exchange: e, expected: 'ACKED: a new window' })
      const h = rateHeaders(e)
      if (h.limit !== undefined && h.remaining !== h.limit - 1) ctx.fail(`the first order of the new window shows Remaining ${h.remaining}, expected ${h.limit - 1}`, { exchange: e })
      const window = ctx.spec.rateLimits.windowSeconds
      if (h.reset !== undefined && h.reset !== reset + window) ctx.warn(`the new window ends at ${h.reset}, expected ${reset + window}`, { exchange: e, level: 'assumed', rules: ['RL-11'] })
    },
  },
  {
    id: 'cap.open-orders',
    title: 'the order beyond the open-order cap is refused with limit_exceeded and the cap in the message',
    rules: ['CAP-1', 'CAP-3', 'ERR-8', 'CAP-5'],
    level: 'stated',
    slow: true,
    async run(ctx) {
      const w = ctx.wallet()
      const cap = defaultTier(ctx).maxOpenOrders
      let open = 0
      let guard = 0
      while (open < cap) {
        if (guard++ > cap * 3) ctx.fail(`could not rest ${cap} orders`)
        const { e } = await placeOrder(ctx, { wallet: w })
        if (succeeded(e)) {
          open++
          continue
        }
        if (statusOf(e) === 429) {
          const reset = rateHeaders(e).reset
          if (reset === undefined) return ctx.fail('a 429 without X-RateLimit-Reset: cannot wait for the next window', { exchange: e })
          await ctx.target.waitUntil(reset)
          continue
        }
        ctx.fail(`resting order ${open + 1} of the cap ${cap} was refused: ${brief(e)}`, { exchange: e })
      }
      let e: Exchange
      for (;;) {
        e = (await placeOrder(ctx, { wallet: w })).e
        if (statusOf(e) !== 429) break
        const reset = rateHeaders(e).reset
        if (reset === undefined) return ctx.fail('a 429 without X-RateLimit-Reset', { exchange: e })
        await ctx.target.waitUntil(reset)
      }
      if (succeeded(e)) ctx.fail(`a gtc order beyond the open-order cap ${cap} was accepted`, { exchange: e, expected: `limit_exceeded with a message stating ${cap}` })
      const body = jsonOf(e) ?? {}
      const s = statusOf(e)
      if (s >= 500) ctx.fail(`server error ${brief(e)}`, { exchange: e })
      const text = String(s === 200 ? (body.reason ?? '') : (body.message ?? ''))
      if (s >= 400 && body.error !== 'limit_exceeded') ctx.fail(`the cap refusal has error ${JSON.stringify(body.error)}, not "limit_exceeded"`, { exchange: e, expected: '{"error":"limit_exceeded","message":"… 100 …"}' })
      if (!new RegExp(`(^|\\D)${cap}(\\D|$)`).test(text)) ctx.fail(`the cap refusal message ${JSON.stringify(text)} does not state the cap ${cap}`, { exchange: e, rules: ['CAP-3', 'ERR-8'] })
      if (s !== 422 && codeOf(e) !== 'limit_exceeded') ctx.warn(`cap refusal answered ${brief(e)}; the reference answers 422 limit_exceeded`, { exchange: e, level: 'assumed', rules: ['CAP-5'] })
    },
  },
]

/** The known-tier wallet with the smallest positive position cap, else a fresh default-tier wallet. */
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

function positionsTaker(ctx: CheckContext): { wallet: Wallet; cap: number } {
  const tiers = ctx.spec.rateLimits.tiers
  let best: { wallet: Wallet; cap: number } | undefined
  for (const tw of ctx.target.tierWallets) {
    const cap = tiers[tw.tier]?.maxPositions ?? -1
    if (cap > 0 && (!best || cap < best.cap)) best = { wallet: walletFromKey(tw.privateKey, tw.tier), cap }
  }
  return best ?? { wallet: ctx.wallet(), cap: defaultTier(ctx).maxPositions }
}

export const positionChecks: Check[] = [
  {
    id: 'cap.positions',
    title: 'an order that would open a position beyond the positions cap is refused with limit_exceeded and the cap in the message',
    rules: ['CAP-2', 'CAP-3', 'ERR-8', 'CAP-5'],
    level: 'stated',
    async run(ctx) {
      const { wallet: taker, cap } = positionsTaker(ctx)
      if (cap < 0) return ctx.skip('the taker has no positions cap (-1: unlimited)')
      const symbols = ctx.target.symbols
      if (symbols.length < cap + 1) return ctx.skip(`needs ${cap + 1} listed instruments to open ${cap} positions and try one more (have ${symbols.length}: pass more --symbol, or a config wallet of a tier with a smaller cap)`)
      const maker = ctx.wallet()
      // One fill per instrument: the maker rests a sell above any resting buy, the taker lifts
      // the lowest ask with an ioc buy (a fill with anyone opens the position just the same).
      for (let i = 0; i < cap; i++) {
        const symbol = symbols[symbols.length - 1 - i]!
        const m = (await placeOrder(ctx, { wallet: maker, symbol, side: 'Sell', price: '999998', size: '1', route: 'book_only' })).e
        expectSuccess(ctx, m, `maker sell in ${symbol}`)
        const t = (await placeOrder(ctx, { wallet: taker, symbol, side: 'Buy', price: '999999', size: '1', tif: 'ioc', route: 'book_only' })).e
        if (!succeeded(t)) ctx.fail(`position ${i + 1} of the cap ${cap}: the taker's buy in ${symbol} was not accepted: ${brief(t)}`, { exchange: t })
        const filled = jsonOf(t)?.filled_size
        if (typeof filled === 'string' && /^0(\.0*)?$/.test(filled)) return ctx.skip(`the taker's ioc buy in ${symbol} did not fill, so no position was opened`)
      }
      const symbol = symbols[symbols.length - 1 - cap]!
      const e = (await placeOrder(ctx, { wallet: taker, symbol, side: 'Buy', price: '1', size: '1', route: 'book_only' })).e
      if (succeeded(e)) ctx.fail(`with ${cap} open positions, an order in a new instrument ${symbol} was accepted`, { exchange: e, expected: `limit_exceeded with a message stating ${cap}` })
      const s = statusOf(e)
      const body = jsonOf(e) ?? {}
      if (s >= 500) ctx.fail(`server error ${brief(e)}`, { exchange: e })
      const text = String(s === 200 ? (body.reason ?? '') : (body.message ?? ''))
      if (s >= 400 && body.error !== 'limit_exceeded') ctx.fail(`the positions-cap refusal has error ${JSON.stringify(body.error)}, not "limit_exceeded"`, { exchange: e })
      if (!new RegExp(`(^|\\D)${cap}(\\D|$)`).test(text)) ctx.fail(`the positions-cap refusal message ${JSON.stringify(text)} does not state the cap ${cap}`, { exchange: e, rules: ['CAP-3', 'ERR-8'] })
      if (s !== 422 && codeOf(e) !== 'limit_exceeded') ctx.warn(`positions-cap refusal answered ${brief(e)}; the reference answers 422 limit_exceeded`, { exchange: e, level: 'assumed', rules: ['CAP-5'] })
    },
  },
]

export const moreLimitChecks: Check[] = [
  {
    id: 'cap.unlimited-positions',
    title: 'a tier whose max positions is -1 opens positions beyond every finite cap',
    rules: ['CAP-4'],
    level: 'stated',
    async run(ctx) {
      const tiers = ctx.spec.rateLimits.tiers
      const unlimited = ctx.target.tierWallets.find((tw) => tiers[tw.tier]?.maxPositions === -1)
      if (!unlimited) return ctx.skip('needs a --config wallet of a tier with max positions -1 (e.g. market_maker)')
      const finite = Object.values(tiers).map((t) => t.maxPositions).filter((n) => n > 0)
      const beyond = Math.min(...finite) + 1
      const symbols = ctx.target.symbols
      if (symbols.length < beyond) return ctx.skip(`needs ${beyond} listed instruments (have ${symbols.length})`)
      // Beyond the smallest finite cap: a server that reads -1 as "0" or as a small cap refuses.
      await openPositions(ctx, walletFromKey(unlimited.privateKey, unlimited.tier), symbols.slice(-beyond))
    },
  },
  {
    id: 'rl.batch-crossing',
    title: 'a batch that would cross the order limit gets 429 as a whole and consumes nothing; a replacement costs no cancel',
    rules: ['RL-13', 'RL-5'],
    level: 'assumed',
    async run(ctx) {
      const w = ctx.wallet()
      await freshWindow(ctx)
      const limit = defaultTier(ctx).ordersPerMinute
      const batch = Math.max(1, Math.min(ctx.spec.rateLimits.maxBatch, limit - 3))
      const first = await ctx.send('POST', '/bulk_order', bulkBody('orders', await Promise.all(Array.from({ length: batch }, () => orderBody(ctx, { wallet: w })))))
      if (!succeeded(first)) ctx.fail(`a batch of ${batch} orders was not accepted: ${brief(first)}`, { exchange: first })
      let remaining = rateHeaders(first).remaining ?? limit - batch
      while (remaining > 2) {
        const { e } = await placeOrder(ctx, { wallet: w })
        if (!succeeded(e)) ctx.fail(`order with ${remaining} left in the window was not accepted: ${brief(e)}`, { exchange: e })
        remaining = rateHeaders(e).remaining ?? remaining - 1
      }
      const over = await ctx.send('POST', '/bulk_order', bulkBody('orders', await Promise.all(Array.from({ length: remaining + 1 }, () => orderBody(ctx, { wallet: w })))))
      if (statusOf(over) !== 429) ctx.fail(`a batch of ${remaining + 1} orders with ${remaining} left: expected HTTP 429 for the whole batch, got ${brief(over)}`, { exchange: over })
      const { e: after } = await placeOrder(ctx, { wallet: w })
      if (!succeeded(after)) ctx.fail(`after a refused batch, an order was not accepted (the batch consumed budget?): ${brief(after)}`, { exchange: after })
      const h = rateHeaders(after)
      if (h.remaining !== undefined && h.remaining !== remaining - 1) ctx.fail(`after the refused batch, Remaining is ${h.remaining}; expected ${remaining - 1} (the batch must consume nothing)`, { exchange: after })
      // A replacement: one order unit, no cancel unit.
      const orderId = String(jsonOf(after)?.order_id ?? '')
      const probe = await ctx.send('DELETE', '/order', (await cancelBody(ctx, w, { orderId: 'oec-no-such-order' })).text)
      const before = rateHeaders(probe).remaining
      const repl = await ctx.send('PUT', '/bulk_order', `{"replacements":[{"cancel":${(await cancelBody(ctx, w, { orderId })).text},"order":${(await orderBody(ctx, { wallet: w })).text}}]}`)
      if (!succeeded(repl)) ctx.fail(`replacement not accepted: ${brief(repl)}`, { exchange: repl })
      const probe2 = await ctx.send('DELETE', '/order', (await cancelBody(ctx, w, { orderId: 'oec-no-such-order' })).text)
      const after2 = rateHeaders(probe2).remaining
      if (before !== undefined && after2 !== undefined && after2 !== before - 1) {
        ctx.fail(`cancels Remaining went from ${before} to ${after2} across one replacement and one cancel; expected ${before - 1} (a replacement costs no cancel)`, { exchange: probe2 })
      }
    },
  },
]
