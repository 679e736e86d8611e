/**
 * `err.orderbook-unlisted`: GET /orderbook of any symbol the server does not list (lower case,
 * malformed, an impossible date, empty) is a missing instrument, the seed's HTTP 200 envelope with
 * 13020; only a missing `symbol` parameter is a 400. A symbol a server cannot read is still not an
 * instrument it has, and a client that branches on 13020 must see it (DECISIONS, instruments).
 */
import { isObject } from '../../../../contract/index.ts'
import { brief } from '../../context.ts'
import { codeOf, isCode, jsonOf, statusOf } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'
import { pathOf } from '../../../target/routes.ts'

export const ERR_ORDERBOOK_UNLISTED = 'err.orderbook-unlisted'

export const errOrderbookUnlisted: Check<typeof ERR_ORDERBOOK_UNLISTED> = {
  id: ERR_ORDERBOOK_UNLISTED,
  title: 'GET /orderbook of an unlisted symbol (lower case, malformed, empty) is the 13020 envelope; only a missing symbol is a 400',
  rules: ['ERR-17', 'ERR-12'],
  level: 'assumed',
  async run(ctx) {
    const code = ctx.spec.catalog.find((c) => c.surface === 'jsonrpc')?.code ?? 13020
    const expected = `HTTP 200 {"jsonrpc":"2.0","result":null,"error":{"code":${code},...}}`
    const first = ctx.target.symbols[0] ?? ''
    const unlisted: [string, string, string][] = [
      ['lower-case', 'lower case', first.toLowerCase() === first ? `x${first}` : first.toLowerCase()],
      ['malformed', 'malformed', 'not a symbol'],
      ['impossible-date', 'an impossible date', 'BTC-20260230-1-C'],
      ['empty', 'empty', ''],
    ]
    for (const [id, what, symbol] of unlisted) {
      await ctx.case(id, `an unlisted symbol (${what}): the ${code} envelope`, async (c) => {
        const u = await call(c, 'getOrderbook', undefined, { symbol })
        const uj = jsonOf(u)
        const uerr = uj && isObject(uj.error) ? uj.error : undefined
        if (statusOf(u) >= 500) c.fail(`${JSON.stringify(symbol)}: server error ${brief(u)}`, { exchange: u, expected, level: 'stated' })
        if (statusOf(u) !== 200 || uj?.result !== null || uerr?.code !== code)
          c.fail(`${JSON.stringify(symbol)} answered ${brief(u)}, not the ${code} envelope of a missing instrument`, {
            exchange: u,
            expected,
          })
      })
    }
    await ctx.case('no-symbol', 'no symbol parameter at all: 400 invalid_field', async (c) => {
      const e = await c.send('GET', pathOf(c, 'getOrderbook'))
      if (statusOf(e) >= 500) c.fail(`server error ${brief(e)}`, { exchange: e, level: 'stated' })
      if (statusOf(e) !== 400 || !isCode(codeOf(e), 'invalid_field'))
        c.fail(`GET /orderbook without symbol answered ${brief(e)}`, { exchange: e, expected: 'HTTP 400 {"code":"invalid_field",...}' })
    })
  },
}
