/**
 * Steps of the concurrency checks (`rl.*-burst`, `rl.bulk-race`, `cap.*-burst`, `cap.bulk-race`,
 * `nonce.race`): requests sent at the same moment over separate connections, and the invariants
 * a burst is judged by. A burst is never judged by order of arrival (which request wins is the
 * server's business), only by what no order of arrival allows: more acceptances than the limit
 * in one window, more open orders than the cap, a refusal in another form than the stated one.
 */
import type { OperationId } from '../../../contract/generated/types.ts'
import { brief } from '../context.ts'
import { bulkBody, orderBody, placeOrder } from '../builders.ts'
import { jsonOf, rateHeaders, statusOf, succeeded } from '../answers.ts'
import type { HttpExchange } from '../../target/http.ts'
import { pathOf, route } from '../../target/routes.ts'
import type { CheckContext } from '../types.ts'
import type { Wallet } from '../../target/wallets.ts'
import { capRefusalProblems, defaultTier, rateLimitRefusalProblems, STATED_429 } from './rate-limits.ts'

export interface BurstRequest {
  readonly op: OperationId
  readonly body: string
}

/**
 * Sends every request at once, each over a connection of its own (one keep-alive socket would
 * hand them to the server one after another), opened and answered once before the burst (see
 * ConnectionPool). The answers come back in request order.
 */
export async function sendAtOnce(ctx: CheckContext, requests: readonly BurstRequest[]): Promise<HttpExchange[]> {
  const pool = await ctx.http.pool(requests.length, pathOf(ctx, 'getOrderbook', { symbol: ctx.target.symbols[0] ?? '' }))
  try {
    return await Promise.all(
      requests.map((r) => {
        const { method, path } = route(ctx, r.op)
        return ctx.sendRaw(method, path, { body: r.body, pool })
      }),
    )
  } finally {
    pool.close()
  }
}

/** How many requests (or units) a burst aimed past a limit sends: enough over it to show, and never fewer than 50 at once. */
export function pastLimit(limit: number): number {
  return Math.max(50, limit + Math.max(10, Math.ceil(limit / 6)))
}

/** An answer of a burst and how many units (orders, cancels) it took from the window when it got through. */
export interface Counted {
  readonly e: HttpExchange
  readonly units: number
}

/**
 * Units that got through per rate-limit window. A burst may straddle two windows (a live
 * target's clock is its own), so each answer counts in the window its own X-RateLimit-Reset
 * names; an answer without one can only be judged against every window the burst saw.
 */
export function expectWithinLimit(ctx: CheckContext, counted: readonly Counted[], limit: number, what: string): void {
  const windows = new Map<number, { units: number; last: HttpExchange }>()
  const seen = Math.max(1, windowsSeen(counted.map((c) => c.e)))
  let unplaced = 0
  let total = 0
  let last: HttpExchange | undefined
  for (const { e, units } of counted) {
    const reset = rateHeaders(e).reset
    if (units === 0) continue
    total += units
    last = e
    if (reset === undefined) unplaced += units
    else {
      const w = windows.get(reset) ?? { units: 0, last: e }
      windows.set(reset, { units: w.units + units, last: e })
    }
  }
  for (const [reset, w] of windows) {
    if (w.units > limit)
      ctx.fail(`${w.units} ${what} got through in the window ending at ${reset}; the limit is ${limit} per window`, {
        exchange: w.last,
        expected: `at most ${limit} ${what} per window, HTTP 429 for the rest`,
      })
  }
  if (unplaced > 0 && total > limit * seen)
    ctx.fail(`${total} ${what} got through in a burst that saw ${seen} window(s); the limit is ${limit} per window`, {
      exchange: last,
      expected: `at most ${limit} ${what} per window, HTTP 429 for the rest`,
    })
}

/** How many rate-limit windows the answers of a burst name (their distinct X-RateLimit-Reset). */
export function windowsSeen(answers: readonly HttpExchange[]): number {
  return new Set(answers.map((e) => rateHeaders(e).reset).filter((r) => r !== undefined)).size
}

/**
 * Every answer of a burst: never a 5xx, a 429 only in the stated form. A request that got no
 * answer at all (a connection dropped, the timeout passed on a starved machine) breaks no stated
 * rule: it is a warning, and the invariants are judged on the answers that came.
 */
export function expectAnswered(ctx: CheckContext, answers: readonly HttpExchange[]): void {
  const lost = answers.filter((e) => !e.response)
  if (lost.length)
    ctx.warn(`${lost.length} of ${answers.length} requests of the burst got no answer (${lost[0]!.error ?? 'connection failed'})`, {
      exchange: lost[0],
      level: 'assumed',
    })
  for (const e of answers) {
    if (statusOf(e) >= 500) ctx.fail(`a request of the burst got a server error ${brief(e)}`, { exchange: e })
    if (statusOf(e) === 429) {
      const problems = rateLimitRefusalProblems(e)
      if (problems.length)
        ctx.fail(`a 429 of the burst: ${problems.join('; ')}`, { exchange: e, expected: STATED_429, rules: ['ERR-7', 'RL-5'] })
    }
  }
}

/** The results of a batch answer (its slots), or the answer itself for a single request. */
export function resultsOf(e: HttpExchange): readonly Record<string, unknown>[] {
  const body = jsonOf(e)
  if (Array.isArray(body?.results)) return body.results.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
  return body ? [body] : []
}

/** How many orders of an answer (a single order or a batch) were accepted. */
export function ackedUnits(e: HttpExchange): number {
  if (statusOf(e) !== 200) return 0
  if (!Array.isArray(jsonOf(e)?.results)) return succeeded(e) ? 1 : 0
  return resultsOf(e).filter((r) => r.status === 'ACKED').length
}

/**
 * Judges a burst aimed at the open-order cap: `room` orders could still rest when it started;
 * more accepted breaks the cap, and every order refused otherwise than by a 429 must be a cap
 * refusal in the stated form (a single answer or a batch slot).
 */
export function expectCapHeld(ctx: CheckContext, answers: readonly HttpExchange[], cap: number, room: number): void {
  const accepted = answers.reduce((n, e) => n + ackedUnits(e), 0)
  if (accepted > room) {
    const over = [...answers].reverse().find((e) => ackedUnits(e) > 0)
    ctx.fail(
      `${cap - room + accepted} orders rest for one wallet; the open-order cap is ${cap} (${accepted} of the burst accepted with room for ${room})`,
      {
        exchange: over,
        expected: `at most ${room} accepted, the rest refused with limit_exceeded stating ${cap}`,
        rules: ['CAP-1'],
      },
    )
  }
  for (const e of answers) {
    if (statusOf(e) === 429 || !e.response) continue
    const status = statusOf(e)
    const refusals = status === 200 ? resultsOf(e).filter((r) => r.status !== 'ACKED') : [jsonOf(e) ?? {}]
    for (const r of refusals) {
      const problems = capRefusalProblems(r, cap)
      if (problems.length)
        ctx.fail(`an order of the burst was refused, but not as a cap refusal: ${problems.join('; ')} (${brief(e)})`, {
          exchange: e,
          expected: `{"error":"limit_exceeded","message":"… ${cap} …"} (a REJECTED result keeps its reason beside them)`,
          rules: ['CAP-3', 'ERR-8'],
        })
    }
  }
  // Room left untaken is a fault only when every request was answered and none was rate limited.
  const limited = answers.some((e) => statusOf(e) === 429 || !e.response)
  if (!limited && accepted < room)
    ctx.fail(`only ${accepted} orders of the burst were accepted with room for ${room} under the cap ${cap}`, {
      exchange: answers.find((e) => ackedUnits(e) === 0 && statusOf(e) !== 429),
      expected: `${room} accepted`,
      rules: ['CAP-1'],
    })
}

/**
 * Rests `count` orders for a wallet (sent `at` a time), waiting for the next window whenever the
 * order limit is reached, then waits for the window after the last one, so that a burst that
 * follows starts with a whole window's budget.
 */
export async function restThenFreshWindow(
  ctx: CheckContext,
  w: Wallet,
  count: number,
  place: (w: Wallet) => Promise<HttpExchange>,
  at = 10,
): Promise<void> {
  let rested = 0
  let reset: number | undefined
  let guard = 0
  while (rested < count) {
    if (guard++ > count * 3) ctx.fail(`could not rest ${count} orders`)
    const sent = await Promise.all(Array.from({ length: Math.min(at, count - rested) }, () => place(w)))
    for (const e of sent) {
      reset = rateHeaders(e).reset ?? reset
      if (succeeded(e)) rested++
      else if (statusOf(e) !== 429) ctx.fail(`resting order ${rested + 1} of ${count} was refused: ${brief(e)}`, { exchange: e })
    }
    if (sent.some((e) => statusOf(e) === 429)) {
      if (reset === undefined) ctx.fail('a 429 without X-RateLimit-Reset: cannot wait for the next window', { exchange: sent[0] })
      await ctx.target.waitUntil(reset)
    }
  }
  if (reset === undefined) ctx.fail('an order answer without X-RateLimit-Reset: cannot wait for the next window')
  await ctx.target.waitUntil(reset)
}

/**
 * A burst aimed at the open-order cap: `size` orders (at least 50, within one window's order
 * budget when it allows) and the room left under the cap when it starts, so that a quarter of
 * the burst is refused by a correct server.
 */
export function capBurstPlan(limit: number, cap: number): { size: number; room: number } {
  const size = Math.max(50, Math.min(limit, cap))
  return { size, room: Math.min(cap, Math.floor((size * 3) / 4)) }
}

/**
 * The open-order cap under a burst: a fresh wallet rests all but `room` orders of the default
 * tier's cap, then `requests` (`size` orders for it) go at once; every request answered, never
 * more resting than the cap.
 */
export async function capBurst(ctx: CheckContext, requests: (w: Wallet, size: number) => Promise<readonly BurstRequest[]>): Promise<void> {
  const w = ctx.wallet()
  const tier = defaultTier(ctx)
  const cap = tier.maxOpenOrders
  const { size, room } = capBurstPlan(tier.ordersPerMinute, cap)
  await restThenFreshWindow(ctx, w, cap - room, async (x) => (await placeOrder(ctx, { wallet: x })).e)
  const answers = await sendAtOnce(ctx, await requests(w, size))
  expectAnswered(ctx, answers)
  expectCapHeld(ctx, answers, cap, room)
}

/**
 * `units` resting orders for one wallet as batches and single orders mixed, to be sent at once:
 * a third of the units in batches of up to 10 items (every variant takes that many), the batches
 * spread among the single orders.
 */
export async function bulkRaceRequests(ctx: CheckContext, w: Wallet, units: number): Promise<BurstRequest[]> {
  const per = Math.max(1, Math.min(10, ctx.spec.rateLimits.maxBatch))
  const batches = Math.max(1, Math.floor(units / 3 / per))
  const singles = Math.max(0, units - batches * per)
  const one = async () => (await orderBody(ctx, { wallet: w })).text
  const bulk = async (): Promise<BurstRequest> => ({
    op: 'placeOrders',
    body: bulkBody('orders', await Promise.all(Array.from({ length: per }, one))),
  })
  const single = async (): Promise<BurstRequest> => ({ op: 'placeOrder', body: await one() })
  const out = await Promise.all(Array.from({ length: singles }, single))
  const every = Math.max(1, Math.floor(out.length / batches))
  for (let i = 0; i < batches; i++) out.splice(Math.min(out.length, i * (every + 1)), 0, await bulk())
  return out
}

/** Every valid single order of a burst was either accepted or refused with a 429 (a batch may also answer a slot REJECTED). */
export function expectOnlyRateLimited(ctx: CheckContext, answers: readonly HttpExchange[]): void {
  for (const e of answers)
    if (e.response && ackedUnits(e) === 0 && statusOf(e) !== 429)
      ctx.fail(`a valid order of the burst was refused otherwise than by the rate limit: ${brief(e)}`, {
        exchange: e,
        expected: 'ACKED, or HTTP 429 once the limit is used up',
      })
}
