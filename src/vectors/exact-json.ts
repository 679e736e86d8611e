/**
 * JSON for vector files whose perp actions carry integers past 2^53 (order IDs up to 2^64-1).
 * A JS number cannot hold them, so in memory they are bigints and on disk plain JSON integers,
 * exactly as the venue's wire carries them; integers a number holds exactly stay numbers.
 */
import { parse as losslessParse } from 'lossless-json'
import { parseCanonical } from '../signing/lossless.ts'

/** The generator's two-space layout, then compact. */
const VECTOR_LAYOUTS = [2, undefined] as const

const MARK = '\u0000bigint:'

/** JSON.stringify that writes a bigint as its digits. */
export function stringifyExact(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v}` : v), indent)
  return text.replace(/"\\u0000bigint:(-?[0-9]+)"/g, '$1')
}

/** True when some number in the tree is an integer a double may not hold exactly (past 2^53). */
function hasUnsafeInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v)
  if (v === null || typeof v !== 'object') return false
  for (const x of Array.isArray(v) ? v : Object.values(v)) if (hasUnsafeInteger(x)) return true
  return false
}

/** JSON.parse that turns an integer a double cannot hold exactly into a bigint. */
export function parseExact(text: string): unknown {
  // The engine's parse when the text is what JSON.stringify writes (two-space indent, as the
  // generator writes, or compact; one final newline) and no integer is past 2^53 (those are
  // bigints here): the shipped vector files load faster than through lossless-json.
  const fast = parseCanonical(text.endsWith('\n') ? text.slice(0, -1) : text, VECTOR_LAYOUTS)
  return fast && !hasUnsafeInteger(fast.value) ? fast.value : parseExactLossless(text)
}

/** parseExact through lossless-json alone, every number read from its digits (tests compare the two). */
export function parseExactLossless(text: string): unknown {
  return losslessParse(text, null, (value: string) => {
    if (/^-?(0|[1-9][0-9]*)$/.test(value)) {
      const n = Number(value)
      return Number.isSafeInteger(n) ? n : BigInt(value)
    }
    return Number(value)
  })
}
