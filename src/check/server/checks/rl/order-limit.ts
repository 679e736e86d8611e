/** `rl.order-limit`: the limit+1-th order in a window gets 429 with the stated body, Retry-After = retry_after_secs, Remaining 0. */
import { brief } from '../../context.ts'
import { isCode, jsonOf, rateHeaders, statusOf, succeeded } from '../../answers.ts'
import { defaultTier, exhaustOrders, freshWindow, rateLimitRefusalProblems, STATED_429 } from '../../steps/rate-limits.ts'
import type { HttpExchange } from '../../../target/http.ts'
import type { Check, CheckContext } from '../../types.ts'
import type { Wallet } from '../../../target/wallets.ts'

export const RL_ORDER_LIMIT = 'rl.order-limit'

/**
 * Uses up the order limit and returns the 429 that ends it. A check that needs a 429 skips when
 * none came and points here: this check is the one that reports it.
 */
export async function orderLimitHit(ctx: CheckContext, w: Wallet, limit: number): Promise<HttpExchange> {
  const sent = await exhaustOrders(ctx, w, limit)
  const last = sent[sent.length - 1]!
  if (statusOf(last) !== 429) ctx.skip(`the order limit was not reached (${brief(last)}); ${RL_ORDER_LIMIT} reports that`)
  return last
}

export const rlOrderLimit: Check<typeof RL_ORDER_LIMIT> = {
  id: RL_ORDER_LIMIT,
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
    if (accepted > limit)
      ctx.fail(`${accepted} orders were accepted in one window; the Default tier allows ${limit}`, {
        exchange: last,
        expected: `HTTP 429 on order ${limit + 1}`,
      })
    if (accepted < limit) ctx.fail(`order ${accepted + 1} of ${limit} allowed was not accepted: ${brief(last)}`, { exchange: last })
    if (statusOf(last) !== 429) ctx.fail(`order ${limit + 1}: expected HTTP 429, got ${brief(last)}`, { exchange: last })
    const problems = rateLimitRefusalProblems(last)
    if (problems.length) ctx.fail(`429 response: ${problems.join('; ')}`, { exchange: last, expected: STATED_429 })
    const body = jsonOf(last) ?? {}
    const h = rateHeaders(last)
    if (h.retryAfter !== body.retry_after_secs)
      ctx.warn(`Retry-After ${h.retryAfter} differs from retry_after_secs ${String(body.retry_after_secs)}`, {
        exchange: last,
        level: 'assumed',
        rules: ['RL-11'],
      })
    if (!isCode(body.code, 'rate_limit_exceeded'))
      ctx.warn(`429 code is ${JSON.stringify(body.code)}; the reference uses rate_limit_exceeded`, {
        exchange: last,
        level: 'assumed',
        rules: ['ERR-15'],
      })
    if (body.limit !== limit)
      ctx.warn(`429 limit is ${String(body.limit)}, the Default tier's order limit is ${limit}`, {
        exchange: last,
        level: 'assumed',
        rules: ['RL-11'],
      })
    const wait = h.reset !== undefined ? h.reset - ctx.target.now() / 1000 : undefined
    if (wait !== undefined && typeof body.retry_after_secs === 'number' && Math.abs(body.retry_after_secs - wait) > 2) {
      ctx.warn(`retry_after_secs ${body.retry_after_secs} does not match the ${Math.round(wait)} s left until X-RateLimit-Reset`, {
        exchange: last,
        level: 'assumed',
        rules: ['RL-11'],
      })
    }
  },
}
