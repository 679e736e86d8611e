/** `ops.health`: GET /health answers 200 {"status":"ok"}. */
import { brief } from '../../context.ts'
import { jsonOf, statusOf } from '../../answers.ts'
import type { Check } from '../../types.ts'
import { call } from '../../operations.ts'

export const OPS_HEALTH = 'ops.health'

export const opsHealth: Check<typeof OPS_HEALTH> = {
  id: OPS_HEALTH,
  title: 'GET /health answers 200 {"status":"ok"}',
  rules: ['EP-11'],
  level: 'assumed',
  async run(ctx) {
    const e = await call(ctx, 'getHealth')
    if (statusOf(e) !== 200 || jsonOf(e)?.status !== 'ok') ctx.fail(`expected HTTP 200 {"status":"ok"}, got ${brief(e)}`, { exchange: e })
  },
}
