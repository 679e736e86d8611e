/** `err.head`: HEAD responses have no body and no error-code header. */
import type { Check } from '../../types.ts'
import { pathOf } from '../../../target/routes.ts'

export const ERR_HEAD = 'err.head'

export const errHead: Check<typeof ERR_HEAD> = {
  id: ERR_HEAD,
  title: 'HEAD responses have no body and no error-code header',
  rules: ['ERR-5'],
  level: 'stated',
  async run(ctx) {
    const w = ctx.wallet()
    const paths = [
      pathOf(ctx, 'listOrders', { wallet: w.address }),
      pathOf(ctx, 'getOrderbook', { symbol: ctx.target.symbols[0] ?? '' }),
      pathOf(ctx, 'getOrderbook', { symbol: ctx.target.missingSymbol }),
      pathOf(ctx, 'listOrders', { wallet: 'not-an-address' }),
      '/no-such-path',
    ]
    for (const p of paths) {
      // Through the HTTP client (logged, with a curl command) and over a raw socket, which
      // sees bytes sent after the headers that an HTTP client silently drops.
      const e = await ctx.send('HEAD', p)
      const raw = await ctx.http.rawHead(p)
      if ('error' in raw) return ctx.fail(`HEAD ${p}: ${raw.error}`, { exchange: e })
      if (raw.trailing.length > 0)
        ctx.fail(`HEAD ${p} sent ${raw.trailing.length} bytes after the headers (a body): ${JSON.stringify(raw.trailing.slice(0, 80))}`, {
          exchange: e,
          expected: 'no body',
        })
      if ((e.response?.body.length ?? 0) > 0)
        ctx.fail(`HEAD ${p} returned a body (${e.response!.body.length} bytes)`, { exchange: e, expected: 'no body' })
      const codeHeader = Object.keys(raw.headers).find((h) => /error-?code|x-error/i.test(h))
      if (codeHeader) ctx.fail(`HEAD ${p} carries an error-code header ${codeHeader}`, { exchange: e, expected: 'the status alone' })
    }
  },
}
