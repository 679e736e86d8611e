/**
 * Nonces: unique per wallet, consumed only by a request that took effect, gaps and decreasing
 * values allowed, the whole uint64 range exact (2^53+1 and 2^64-1 are where JSON.parse-based
 * servers break), and at most one of several concurrent requests with one nonce succeeds.
 */
import { brief } from '../context.ts'
import { expectRefused, expectSuccess, orderBody, placeOrder, statusOf, succeeded } from '../helpers.ts'
import type { Check, CheckContext } from '../types.ts'
import type { Wallet } from '../wallets.ts'

/** Sends an order with this nonce; it must be ACKED (the nonce then counts as consumed). */
async function acked(ctx: CheckContext, w: Wallet, nonce: bigint, what: string): Promise<void> {
  const { e } = await placeOrder(ctx, { wallet: w, nonce })
  expectSuccess(ctx, e, what)
}

async function reused(ctx: CheckContext, w: Wallet, nonce: bigint, what: string): Promise<void> {
  const { e } = await placeOrder(ctx, { wallet: w, nonce })
  expectRefused(ctx, e, what, { codes: ['nonce_reused'] })
}

export const nonceChecks: Check[] = [
  {
    id: 'nonce.reuse-after-success',
    title: 'a nonce consumed by an accepted order cannot be used again by the same wallet',
    rules: ['NONCE-2', 'NONCE-7'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      const n = ctx.nonce(w)
      await acked(ctx, w, n, 'first order with nonce N')
      await reused(ctx, w, n, 'second order (another client_id) with the same nonce N')
    },
  },
  {
    id: 'nonce.retry-after-failure',
    title: 'a request that failed may be retried with the same nonce',
    rules: ['NONCE-5', 'NONCE-7', 'SIGFAIL-4'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      await ctx.case('after-bad-signature', 'retry after a refused signature (wrong chain ID)', async (c) => {
        const n = c.nonce(w)
        const { e } = await placeOrder(c, { wallet: w, nonce: n }, { domain: { chainId: 1 } })
        if (succeeded(e)) c.fail(`an order signed under chainId 1 was accepted (${brief(e)})`, { exchange: e, rules: ['SIGFAIL-4'] })
        await acked(c, w, n, 'retry with the same nonce after a refused signature')
      })
      await ctx.case('after-invalid-field', 'retry after a 400 invalid_field (side "buy")', async (c) => {
        const n = c.nonce(w)
        const { e } = await placeOrder(c, { wallet: w, nonce: n, side: 'buy' })
        if (succeeded(e)) c.fail(`side "buy" was accepted (${brief(e)})`, { exchange: e, rules: ['PO-1'] })
        await acked(c, w, n, 'retry with the same nonce after an invalid field')
      })
      await ctx.case('after-rejected', 'retry after a 200 REJECTED order (unknown instrument)', async (c) => {
        const n = c.nonce(w)
        const { e } = await placeOrder(c, { wallet: w, nonce: n, symbol: c.target.missingSymbol })
        if (succeeded(e)) c.skip(`the target accepted an order for ${c.target.missingSymbol}; pass --missing-symbol`)
        await acked(c, w, n, 'retry with the same nonce after a REJECTED order')
      }, { level: 'assumed', rules: ['NONCE-7', 'NONCE-5'] })
    },
  },
  {
    id: 'nonce.gaps-decreasing',
    title: 'gaps and decreasing nonces are allowed',
    rules: ['NONCE-4', 'NONCE-8', 'NONCE-3'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      const base = ctx.nonce(w)
      await acked(ctx, w, base + 1_000_000n, 'nonce N+1000000 (a gap)')
      await ctx.case('decreasing', 'a lower, unused nonce after a higher one', async (c) => {
        await acked(c, w, base + 5n, 'nonce N+5 after N+1000000')
        await acked(c, w, base, 'nonce N after N+5')
      }, { level: 'assumed', rules: ['NONCE-8'] })
    },
  },
  {
    id: 'nonce.uint64-max',
    title: 'nonce 2^64-1 round-trips exactly (accepted, then detected as reused, 2^64-2 still free)',
    rules: ['NONCE-1', 'NONCE-2', 'WIRE-2'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      const max = (1n << 64n) - 1n
      await acked(ctx, w, max, 'nonce 2^64-1')
      await reused(ctx, w, max, 'nonce 2^64-1 again')
      await acked(ctx, w, max - 1n, 'nonce 2^64-2 (distinct from 2^64-1)')
    },
  },
  {
    id: 'nonce.precision-2p53',
    title: 'nonce 2^53+1 round-trips exactly (2^53 and 2^53+1 are different nonces)',
    rules: ['NONCE-1', 'NONCE-2', 'WIRE-2'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      const n = (1n << 53n) + 1n
      await acked(ctx, w, n, 'nonce 2^53+1')
      await acked(ctx, w, n - 1n, 'nonce 2^53 after 2^53+1 (a double would make them equal)')
      await acked(ctx, w, n + 2n, 'nonce 2^53+3')
      await reused(ctx, w, n, 'nonce 2^53+1 again')
      // The order record, when listed, must not show a rounded nonce either (not all servers list it).
      const list = await ctx.send('GET', `/orders?wallet=${w.address}`)
      if (statusOf(list) === 200 && list.response?.body.includes('9007199254740992') && !list.response.body.includes('9007199254740993')) {
        ctx.fail('GET /orders shows the nonce rounded to 9007199254740992', { exchange: list })
      }
    },
  },
  {
    id: 'nonce.concurrent',
    title: 'of 6 concurrent orders with one nonce, at most one is accepted',
    rules: ['NONCE-2', 'NONCE-8'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      const n = ctx.nonce(w)
      const bodies = await Promise.all(Array.from({ length: 6 }, () => orderBody(ctx, { wallet: w, nonce: n })))
      const results = await Promise.all(bodies.map((b) => ctx.send('POST', '/order', b.text)))
      const ok = results.filter(succeeded)
      if (ok.length > 1) ctx.fail(`${ok.length} of 6 concurrent orders with nonce ${n} were accepted`, { expected: 'at most one accepted', exchange: ok[1] })
      for (const e of results) if (statusOf(e) >= 500) ctx.fail(`a concurrent request got a server error ${brief(e)}`, { exchange: e })
    },
  },
]
