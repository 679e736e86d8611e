/**
 * `perp.exact-integers`: integers of a perp action past 2^53 are hashed exactly: a correctly
 * signed action carrying one is authenticated (an `ok` envelope, whatever its statuses say),
 * which a server that reads the integer as a double cannot do: it hashes another action and
 * recovers some other signer.
 */
import { brief } from '../../context.ts'
import { call } from '../../operations.ts'
import { statusOf, succeeded } from '../../answers.ts'
import { withState } from '../../builders.ts'
import type { Check, CheckContext } from '../../types.ts'
import type { Wallet } from '../../../target/wallets.ts'
import { defaultPerpAction, perpOrder } from './orders.ts'

export const PERP_EXACT_INTEGERS = 'perp.exact-integers'

async function expectAuthenticated(ctx: CheckContext, w: Wallet, action: Record<string, unknown>, what: string): Promise<void> {
  const e = await call(ctx, 'perpExchange', await perpOrder(ctx, w, { action }))
  if (statusOf(e) >= 500) ctx.fail(`${what} gave a server error ${brief(e)}`, { exchange: e, level: 'stated' })
  if (!succeeded(e))
    ctx.fail(`a correctly signed ${what} was refused (${brief(e)}): the server hashed a rounded integer`, {
      exchange: e,
      expected: '{"status":"ok",...} (with an error status: no such order or asset)',
    })
}

export const perpExactIntegers: Check<typeof PERP_EXACT_INTEGERS> = {
  id: PERP_EXACT_INTEGERS,
  title: 'perp actions with integers past 2^53 (a cancel with o = 2^53+1, an order with a = 2^64-1) are authenticated',
  rules: ['PERP-9', 'PERP-5'],
  level: 'assumed',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet(), 'options order that gives the perp key state')
    await ctx.case('cancel-oid', 'a cancel with o = 2^53+1', async (c) => {
      const o = 2n ** 53n + 1n
      await expectAuthenticated(c, w, { type: 'cancel', cancels: [{ a: 0, o }] }, `cancel with o = ${o}`)
    })
    await ctx.case('order-asset', 'an order with asset index a = 2^64-1 (msgpack uint64)', async (c) => {
      const action = defaultPerpAction()
      const a = 2n ** 64n - 1n
      ;(action.orders as Record<string, unknown>[])[0]!.a = a
      await expectAuthenticated(c, w, action, `order with a = ${a}`)
    })
  },
}
