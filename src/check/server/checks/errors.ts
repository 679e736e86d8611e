/**
 * The error surfaces: the HTTP error body (code + message) over every error response of the
 * run, codes outside the catalog (a warning: clients tolerate them), HEAD without a body, and
 * the JSON-RPC 13020 envelope of GET /orderbook for a missing instrument.
 */
import { deref, getPointer, isObject } from '../../../contract/index.ts'
import { brief } from '../context.ts'
import { rawHead, type Exchange } from '../http.ts'
import { jsonOf, statusOf } from '../helpers.ts'
import type { Check, CheckContext } from '../types.ts'

/** The `code` pattern of the spec's ErrorBody (a stable lowercase identifier). */
function codePattern(ctx: CheckContext): RegExp {
  const schema = deref(ctx.spec.doc, getPointer(ctx.spec.doc, '/components/schemas/ErrorBody'))
  const code = isObject(schema) && isObject(schema.properties) ? schema.properties.code : undefined
  const pattern = isObject(code) && typeof code.pattern === 'string' ? code.pattern : '^[a-z][a-z0-9_]*$'
  return new RegExp(pattern)
}

/** A few error responses of its own, so the body checks have material even when run alone. */
async function provokeErrors(ctx: CheckContext): Promise<void> {
  await ctx.send('POST', '/order', '{"wallet":')
  await ctx.send('GET', '/no-such-path')
  await ctx.send('PATCH', '/order', '{}')
  await ctx.send('GET', '/orders?wallet=not-an-address')
}

function errorResponses(ctx: CheckContext): Exchange[] {
  return ctx.history().filter((e) => e.request.method !== 'HEAD' && e.response && e.response.status >= 400)
}

export const errorChecks: Check[] = [
  {
    id: 'err.orderbook-missing',
    title: 'GET /orderbook of a missing instrument: HTTP 200, jsonrpc "2.0", result null, error {code 13020, message "not_found"}',
    rules: ['ERR-12', 'EP-8', 'ERR-13'],
    level: 'stated',
    async run(ctx) {
      const rpc = ctx.spec.catalog.find((c) => c.surface === 'jsonrpc')
      const code = rpc?.code ?? 13020
      const message = rpc?.message ?? 'not_found'
      const e = await ctx.send('GET', `/orderbook?symbol=${encodeURIComponent(ctx.target.missingSymbol)}`)
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
      const listed = await ctx.send('GET', `/orderbook?symbol=${encodeURIComponent(ctx.target.symbols[0] ?? '')}`)
      const lj = jsonOf(listed)
      if (statusOf(listed) !== 200 || lj?.jsonrpc !== '2.0' || lj.error !== null) {
        ctx.fail(`GET /orderbook of the listed ${ctx.target.symbols[0]}: expected the envelope with error null, got ${brief(listed)}`, { exchange: listed, rules: ['EP-8'] })
      }
    },
  },
  {
    id: 'err.head',
    title: 'HEAD responses have no body and no error-code header',
    rules: ['ERR-5'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      const paths = [
        `/orders?wallet=${w.address}`,
        `/orderbook?symbol=${encodeURIComponent(ctx.target.symbols[0] ?? '')}`,
        `/orderbook?symbol=${encodeURIComponent(ctx.target.missingSymbol)}`,
        '/orders?wallet=not-an-address',
        '/no-such-path',
      ]
      for (const p of paths) {
        // Through the HTTP client (logged, with a curl command) and over a raw socket, which
        // sees bytes sent after the headers that an HTTP client silently drops.
        const e = await ctx.send('HEAD', p)
        const raw = await rawHead(ctx.target.url, p)
        if ('error' in raw) return ctx.fail(`HEAD ${p}: ${raw.error}`, { exchange: e })
        if (raw.trailing.length > 0) ctx.fail(`HEAD ${p} sent ${raw.trailing.length} bytes after the headers (a body): ${JSON.stringify(raw.trailing.slice(0, 80))}`, { exchange: e, expected: 'no body' })
        if ((e.response?.body.length ?? 0) > 0) ctx.fail(`HEAD ${p} returned a body (${e.response!.body.length} bytes)`, { exchange: e, expected: 'no body' })
        const codeHeader = Object.keys(raw.headers).find((h) => /error-?code|x-error/i.test(h))
        if (codeHeader) ctx.fail(`HEAD ${p} carries an error-code header ${codeHeader}`, { exchange: e, expected: 'the status alone' })
      }
    },
  },
  {
    id: 'err.body-shape',
    title: 'every 4xx/5xx JSON body of the run has a lowercase string code and a string message',
    rules: ['ERR-1', 'ERR-2', 'WIRE-1'],
    level: 'stated',
    async run(ctx) {
      await provokeErrors(ctx)
      const re = codePattern(ctx)
      const seen = new Set<string>()
      let checked = 0
      for (const e of errorResponses(ctx)) {
        const key = `${e.request.method} ${new URL(e.request.url).pathname} ${statusOf(e)}`
        checked++
        const j = jsonOf(e)
        let problem: string | undefined
        if (!j) problem = `a ${statusOf(e)} body that is not a JSON object`
        else if (typeof j.code !== 'string') problem = `no string "code" (${JSON.stringify(j.code)})`
        else if (!re.test(j.code)) problem = `code ${JSON.stringify(j.code)} is not a lowercase identifier`
        else if (typeof j.message !== 'string') problem = `no string "message"`
        if (problem && !seen.has(key)) {
          seen.add(key)
          ctx.fail(`${key}: ${problem}`, { exchange: e, expected: '{"code":"<lowercase_id>","message":"..."}' })
        }
      }
      if (checked === 0) ctx.skip('no error responses were seen')
    },
  },
  {
    id: 'err.catalog-codes',
    title: 'error codes come from the published catalog (an unknown code is a warning: clients tolerate it)',
    rules: ['ERR-15', 'ERR-14'],
    level: 'assumed',
    async run(ctx) {
      await provokeErrors(ctx)
      const known = new Set(ctx.spec.catalog.filter((c) => c.surface === 'http').map((c) => String(c.code)))
      const unknown = new Map<string, Exchange>()
      for (const e of errorResponses(ctx)) {
        const code = jsonOf(e)?.code
        if (typeof code === 'string' && !known.has(code) && !unknown.has(code)) unknown.set(code, e)
      }
      if (unknown.size) {
        ctx.fail(`codes outside the ${ctx.spec.catalogKey} catalog: ${[...unknown.keys()].join(', ')}`, { exchange: [...unknown.values()][0], expected: `one of ${[...known].join(', ')}` })
      }
    },
  },
]
