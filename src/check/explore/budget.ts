/**
 * The explorer's budget flags, parsed. Pure. `--explore [BUDGET]`: a duration (`60s`, `2m`,
 * `1500ms`) or a number of sequences (`500`); `--shrink BUDGET`: a duration or a number of reruns;
 * `--shard I/N`: part I of N of a campaign.
 */
import { InputError } from '../../errors.ts'
import type { ExploreBudget } from './explore.ts'
import type { ShrinkBudget } from './shrink.ts'

export const DEFAULT_BUDGET: ExploreBudget = { ms: 60_000 }

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 }

/** A count or a duration in ms; undefined when the text is neither. */
function amount(text: string): { count: number } | { ms: number } | undefined {
  const m = /^(\d+)(ms|s|m)?$/.exec(text.trim())
  const n = m ? Number(m[1]) : Number.NaN
  if (!m || !Number.isSafeInteger(n) || n < 1) return undefined
  return m[2] ? { ms: n * UNIT_MS[m[2]]! } : { count: n }
}

export function parseBudget(text: string | true): ExploreBudget {
  if (text === true) return DEFAULT_BUDGET
  const a = amount(text)
  if (!a) throw new InputError(`--explore takes a duration such as 60s, 2m or 1500ms, or a number of sequences, not "${text}"`)
  return 'ms' in a ? a : { sequences: a.count }
}

export function parseShrink(text: string): ShrinkBudget {
  const a = amount(text)
  if (!a) throw new InputError(`--shrink takes a duration such as 30s or a number of reruns such as 200, not "${text}"`)
  return 'ms' in a ? a : { runs: a.count }
}

export function parseShard(text: string): { index: number; of: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim())
  const [index, of] = m ? [Number(m[1]), Number(m[2])] : [Number.NaN, Number.NaN]
  if (!m || !(of >= 1) || !(index >= 1) || index > of)
    throw new InputError(`--shard takes I/N, part I of N with 1 <= I <= N (such as 2/4), not "${text}"`)
  return { index, of }
}
