/**
 * `err.rejected-reason`: every REJECTED result of the run carries a non-empty text `reason`. The
 * seed states it for order results (single, bulk, a replacement's order); for the assumed cancel
 * results a missing reason is a warning.
 */
import { isObject } from '../../../../contract/index.ts'
import type { OperationId, Tif } from '../../../../contract/generated/types.ts'
import { jsonOf, statusOf } from '../../answers.ts'
import { placeOrder, withState } from '../../builders.ts'
import type { HttpExchange } from '../../../target/http.ts'
import { route } from '../../../target/routes.ts'
import type { Check, CheckContext, Level } from '../../types.ts'

export const ERR_REJECTED_REASON = 'err.rejected-reason'

/** Where the results of an operation's 200 body sit, and whether the seed states their shape. */
type Reader = (body: Record<string, unknown>) => { result: unknown; where: string; level: Level }[]

const slots =
  (level: Level, pick?: 'order' | 'cancel'): Reader =>
  (body) =>
    (Array.isArray(body.results) ? body.results : []).map((r: unknown, i) => ({
      result: pick && isObject(r) ? r[pick] : r,
      where: `results[${i}]${pick ? `.${pick}` : ''}`,
      level,
    }))

const READERS: Partial<Record<OperationId, readonly Reader[]>> = {
  placeOrder: [(body) => [{ result: body, where: 'the body', level: 'stated' }]],
  placeOrders: [slots('stated')],
  replaceOrders: [slots('stated', 'order'), slots('assumed', 'cancel')],
  cancelOrder: [(body) => [{ result: body, where: 'the body', level: 'assumed' }]],
  cancelOrders: [slots('assumed')],
  cancelOrdersByClientId: [slots('assumed')],
}

function operationOf(ctx: CheckContext, e: HttpExchange): OperationId | undefined {
  const path = new URL(e.request.url).pathname
  return (Object.keys(READERS) as OperationId[]).find((id) => {
    const r = route(ctx, id)
    return r.method === e.request.method && r.path === path
  })
}

export const errRejectedReason: Check<typeof ERR_REJECTED_REASON> = {
  id: ERR_REJECTED_REASON,
  title: 'every REJECTED result of the run carries a non-empty text reason',
  rules: ['PO-9', 'ERR-11'],
  level: 'stated',
  // Reads every response of the run: runs once every earlier check is done.
  shares: ['history'],
  async run(ctx) {
    // Material of its own, so the check run alone still reads a rejection: an fok with nothing to fill, an unknown instrument.
    const w = await withState(ctx, ctx.wallet())
    await placeOrder(ctx, { wallet: w, tif: 'fok' satisfies Tif })
    await placeOrder(ctx, { wallet: w, symbol: ctx.target.missingSymbol })
    let seen = 0
    for (const e of ctx.history()) {
      const s = statusOf(e)
      const body = jsonOf(e)
      if (s < 200 || s > 299 || !body) continue
      const id = operationOf(ctx, e)
      for (const read of (id && READERS[id]) ?? []) {
        for (const { result, where, level } of read(body)) {
          if (!isObject(result) || result.status !== 'REJECTED') continue
          seen++
          if (typeof result.reason !== 'string' || result.reason.trim() === '') {
            const message = `${e.request.method} ${new URL(e.request.url).pathname}: a REJECTED result in ${where} has no text reason (${JSON.stringify(result.reason)})`
            if (level === 'stated') ctx.fail(message, { exchange: e, expected: '{"status":"REJECTED","reason":"<text>"}' })
            ctx.warn(message, { exchange: e, level: 'assumed', expected: '{"status":"REJECTED","reason":"<text>"}' })
          }
        }
      }
    }
    if (seen === 0) ctx.skip('no REJECTED result was seen')
  },
}
