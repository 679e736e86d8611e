/** `err.orderbook-missing`: GET /orderbook of a missing instrument: HTTP 200, jsonrpc "2.0", result null, error {code 13020, message "not_found"}. */
import { isObject } from '../../../../contract/index.ts'
import { brief } from '../../context.ts'
import { jsonOf, statusOf } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'
import { label } from '../../../target/routes.ts'
import type { KnownErrorCode } from '../../../../contract/generated/errors.ts'

export const ERR_ORDERBOOK_MISSING = 'err.orderbook-missing'

export const errOrderbookMissing: Check<typeof ERR_ORDERBOOK_MISSING> = {
  id: ERR_ORDERBOOK_MISSING,
  title: 'GET /orderbook of a missing instrument: HTTP 200, jsonrpc "2.0", result null, error {code 13020, message "not_found"}',
  rules: ['ERR-12', 'EP-8', 'ERR-13'],
  level: 'stated',
  async run(ctx) {
    const rpc = ctx.spec.catalog.find((c) => c.surface === 'jsonrpc')
    const code = rpc?.code ?? 13020
    // The JSON-RPC message reuses the HTTP code's name when the catalog gives none.
    const message = rpc?.message ?? ('not_found' satisfies KnownErrorCode)
    const e = await call(ctx, 'getOrderbook', undefined, { symbol: ctx.target.missingSymbol })
    const expected = `HTTP 200 {"jsonrpc":"2.0","result":null,"error":{"code":${code},"message":"${message}"}}`
    if (statusOf(e) !== 200) ctx.fail(`expected HTTP 200 with the JSON-RPC envelope, got ${brief(e)}`, { exchange: e, expected })
    const j = jsonOf(e)
    const err = j && isObject(j.error) ? j.error : undefined
    const problems: string[] = []
    if (j?.jsonrpc !== '2.0') problems.push(`jsonrpc is ${JSON.stringify(j?.jsonrpc)}`)
    if (!j || j.result !== null) problems.push(`result is ${JSON.stringify(j?.result)}, not null`)
    if (!err) problems.push('error is not an object')
    else {
      if (err.code !== code) problems.push(`error.code is ${JSON.stringify(err.code)}, not the number ${code}`)
      if (err.message !== message) problems.push(`error.message is ${JSON.stringify(err.message)}, not "${message}"`)
    }
    if (problems.length) ctx.fail(`envelope: ${problems.join('; ')}`, { exchange: e, expected })
    const first = ctx.target.symbols[0] ?? ''
    const listed = await call(ctx, 'getOrderbook', undefined, { symbol: first })
    const lj = jsonOf(listed)
    if (statusOf(listed) !== 200 || lj?.jsonrpc !== '2.0' || lj.error !== null) {
      ctx.fail(
        `${label(ctx, 'getOrderbook')} of the listed ${ctx.target.symbols[0]}: expected the envelope with error null, got ${brief(listed)}`,
        { exchange: listed, rules: ['EP-8'] },
      )
    }
  },
}
