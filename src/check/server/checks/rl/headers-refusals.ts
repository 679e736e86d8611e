/**
 * `rl.headers-refusals`: the rate-limit headers on the refusals a server gives before it reads a
 * wallet: a body over the size limit and a Content-Type that is not JSON, on every rate-limited
 * operation. The seed puts them on "success and error responses of all rate-limited endpoints",
 * and these are the error responses a server most easily answers from an early exit without them.
 */
import { brief } from '../../context.ts'
import { statusOf } from '../../answers.ts'
import { checkHeaders } from '../../steps/rate-limits.ts'
import type { Check } from '../../types.ts'

export const RL_HEADERS_REFUSALS = 'rl.headers-refusals'

/** Bigger than the assumed 64 KiB limit; any server has some limit, so a refusal is what to expect. */
const OVERSIZED = `{"client_id":"${'x'.repeat(70 * 1024)}"}`

const PROBES = [
  { id: 'oversized', what: 'a 70 KiB body', body: OVERSIZED, headers: {} },
  { id: 'media-type', what: 'Content-Type text/plain', body: '{}', headers: { 'content-type': 'text/plain' } },
] as const

export const rlHeadersRefusals: Check<typeof RL_HEADERS_REFUSALS> = {
  id: RL_HEADERS_REFUSALS,
  title: 'X-RateLimit-* on the refusal of an oversized body and of a non-JSON Content-Type, on every rate-limited endpoint',
  rules: ['RL-6', 'RL-8', 'RL-9'],
  level: 'stated',
  async run(ctx) {
    for (const op of ctx.spec.operations.filter((o) => o.rateLimit)) {
      for (const p of PROBES) {
        await ctx.case(
          `${op.operationId}.${p.id}`,
          `${op.method} ${op.path} with ${p.what}: the refusal carries the rate-limit headers`,
          async (c) => {
            const e = await c.sendRaw(op.method, op.path, { body: p.body, headers: { ...p.headers } })
            if (!e.response) c.fail(`${op.method} ${op.path}: no response to ${p.what} (${e.error})`, { exchange: e })
            if (statusOf(e) === 404 && op.assumed) c.skip(`${op.method} ${op.path} is not served (${brief(e)})`)
            checkHeaders(c, e, `${op.method} ${op.path} ${p.what} → ${statusOf(e)}`, op.rateLimit!.category)
          },
          { level: op.assumed ? 'assumed' : 'stated' },
        )
      }
    }
  },
}
