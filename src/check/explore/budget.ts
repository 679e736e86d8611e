/** `--explore [BUDGET]`: a duration (`60s`, `2m`, `1500ms`) or a number of sequences (`500`). Pure. */
import { InputError } from '../../errors.ts'
import type { ExploreBudget } from './explore.ts'

export const DEFAULT_BUDGET: ExploreBudget = { ms: 60_000 }

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 }

export function parseBudget(text: string | true): ExploreBudget {
  if (text === true) return DEFAULT_BUDGET
  const m = /^(\d+)(ms|s|m)?$/.exec(text.trim())
  const n = m ? Number(m[1]) : Number.NaN
  if (!m || !Number.isSafeInteger(n) || n < 1)
    throw new InputError(`--explore takes a duration such as 60s, 2m or 1500ms, or a number of sequences, not "${text}"`)
  return m[2] ? { ms: n * UNIT_MS[m[2]]! } : { sequences: n }
}
