/** `perp.info-meta`: POST /info {"type":"meta"} lists the perp universe, asset index = position. */
import { brief } from '../../context.ts'
import { call } from '../../operations.ts'
import { jsonOf, statusOf } from '../../answers.ts'
import type { Check } from '../../types.ts'

export const PERP_INFO_META = 'perp.info-meta'

export const perpInfoMeta: Check<typeof PERP_INFO_META> = {
  id: PERP_INFO_META,
  title: 'POST /info {"type":"meta"} lists the perp universe; asset index = position',
  rules: ['PERP-10'],
  level: 'assumed',
  async run(ctx) {
    const e = await call(ctx, 'perpInfo', '{"type":"meta"}')
    const universe = jsonOf(e)?.universe
    if (statusOf(e) !== 200 || !Array.isArray(universe)) return ctx.fail(`expected {universe: [...]}, got ${brief(e)}`, { exchange: e })
    const bad = (universe as Record<string, unknown>[]).find(
      (u) => typeof u?.name !== 'string' || !Number.isInteger(u.szDecimals) || !Number.isInteger(u.maxLeverage),
    )
    if (bad) ctx.fail(`a universe entry is not {name, szDecimals, maxLeverage}: ${JSON.stringify(bad).slice(0, 120)}`, { exchange: e })
    const names = (universe as { name?: unknown }[]).map((u) => u.name)
    const first = ctx.target.symbols[0]
    if (first !== undefined && names[0] !== first)
      ctx.fail(`asset index 0 is ${JSON.stringify(names[0])}, but the target's first instrument is ${first}`, { exchange: e })
    const other = await call(ctx, 'perpInfo', '{"type":"noSuchRequest"}')
    if (statusOf(other) !== 400)
      ctx.fail(`an info request type the server does not answer: expected 400, got ${brief(other)}`, { exchange: other })
  },
}
