/**
 * `robust.malformed`: malformed bodies on every operation with a body get a 4xx with a code, never
 * a 5xx, a hang or a dropped connection. The specific codes are assumed, so another 4xx only warns.
 * The perp endpoint refuses a parsed body in the venue's envelope instead.
 */
import { brief } from '../../context.ts'
import { codeOf, isCode, jsonOf, statusOf, succeeded } from '../../answers.ts'
import { orderBody } from '../../builders.ts'
import type { Check, CheckContext } from '../../types.ts'
import type { KnownErrorCode } from '../../../../contract/generated/errors.ts'

interface Malformed {
  readonly id: string
  readonly title: string
  readonly body: (ctx: CheckContext) => Promise<string | Uint8Array>
  readonly codes: readonly KnownErrorCode[]
  readonly contentType?: string | null
}

const MALFORMED: readonly Malformed[] = [
  { id: 'truncated', title: 'truncated JSON', body: async () => '{"wallet":', codes: ['invalid_json'] },
  { id: 'garbage', title: 'not JSON at all', body: async () => 'hello, server', codes: ['invalid_json'] },
  { id: 'empty', title: 'an empty body', body: async () => '', codes: ['invalid_json', 'invalid_field'] },
  { id: 'null', title: 'the JSON value null', body: async () => 'null', codes: ['invalid_field', 'invalid_json'] },
  { id: 'array', title: 'a JSON array', body: async () => '[1,2,3]', codes: ['invalid_field', 'invalid_json'] },
  { id: 'number', title: 'a bare JSON number', body: async () => '12345678901234567890123', codes: ['invalid_field', 'invalid_json'] },
  {
    id: 'deep',
    title: '5000 nested arrays',
    body: async () => `${'['.repeat(5000)}${']'.repeat(5000)}`,
    codes: ['invalid_field', 'invalid_json'],
  },
  {
    id: 'deep-object',
    title: '2000 nested objects in a field',
    body: async () => `{"wallet":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
    codes: ['invalid_field', 'invalid_json'],
  },
  {
    id: 'duplicate-key',
    title: 'a signed order with a duplicate "price" key',
    body: async (ctx) => {
      const b = await orderBody(ctx, { wallet: ctx.wallet() })
      return b.text.replace(/^\{/, '{"price":"7",')
    },
    codes: ['invalid_field'],
  },
  {
    id: 'invalid-utf8',
    title: 'bytes that are not UTF-8',
    body: async () => new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    codes: ['invalid_json', 'invalid_field'],
  },
  {
    id: 'nul-bytes',
    title: 'NUL characters inside strings',
    body: async () => '{"wallet":"\\u0000\\u0000","nonce":1}',
    codes: ['invalid_field'],
  },
  { id: 'oversize', title: 'a 70 KiB body', body: async () => `{"client_id":"${'x'.repeat(70 * 1024)}"}`, codes: ['payload_too_large'] },
  {
    id: 'wrong-content-type',
    title: 'Content-Type text/plain',
    body: async () => '{"wallet":"0x0"}',
    codes: ['unsupported_media_type', 'invalid_field'],
    contentType: 'text/plain',
  },
]

export const ROBUST_MALFORMED = 'robust.malformed'

export const robustMalformed: Check<typeof ROBUST_MALFORMED> = {
  id: ROBUST_MALFORMED,
  title: 'malformed bodies on every operation with a body get a 4xx with a code, never a 5xx',
  rules: ['WIRE-1', 'ERR-15', 'WIRE-3', 'WIRE-4', 'ERR-1'],
  level: 'stated',
  async run(ctx) {
    const ops = ctx.spec.operations.filter((o) => o.requestSchema)
    for (const m of MALFORMED) {
      await ctx.case(m.id, `${m.title}, sent to every operation with a body`, async (c) => {
        const body = await m.body(c)
        for (const op of ops) {
          const headers: Record<string, string> = {}
          if (m.contentType) headers['content-type'] = m.contentType
          const e = await c.sendRaw(op.method, op.path, typeof body === 'string' ? { body, headers } : { rawBody: body, headers })
          if (!e.response) c.fail(`${op.method} ${op.path}: no response to ${m.title} (${e.error})`, { exchange: e, expected: 'a 4xx' })
          if (statusOf(e) >= 500)
            c.fail(`${op.method} ${op.path}: ${m.title} gave a server error ${brief(e)}`, {
              exchange: e,
              expected: `a 4xx (${m.codes.join(' or ')})`,
            })
          // The perp venue's envelope (HTTP 200 {status: "err"}) refuses a parsed body that breaks a field.
          if (statusOf(e) === 200 && jsonOf(e)?.status === 'err') {
            if (!m.codes.includes('invalid_field')) {
              c.warn(`${op.method} ${op.path}: ${m.title} answered ${brief(e)}; expected the HTTP error ${m.codes.join(' or ')}`, {
                exchange: e,
                level: 'assumed',
                rules: ['WIRE-3', 'WIRE-4'],
              })
            }
            continue
          }
          if (succeeded(e) || statusOf(e) < 400)
            c.fail(`${op.method} ${op.path}: ${m.title} was not refused (${brief(e)})`, {
              exchange: e,
              expected: `a 4xx (${m.codes.join(' or ')})`,
            })
          const code = codeOf(e)
          if (!isCode(code, ...m.codes))
            c.warn(`${op.method} ${op.path}: ${m.title} answered ${brief(e)}; expected ${m.codes.join(' or ')}`, {
              exchange: e,
              level: 'assumed',
              rules: ['WIRE-3', 'WIRE-4'],
            })
        }
      })
    }
  },
}
