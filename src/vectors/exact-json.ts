/**
 * JSON for vector files whose perp actions carry integers past 2^53 (order IDs up to 2^64-1).
 * A JS number cannot hold them, so in memory they are bigints and on disk plain JSON integers,
 * exactly as the venue's wire carries them; integers a number holds exactly stay numbers.
 */
import { parse as losslessParse } from 'lossless-json'

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

/**
 * JSON.parse's tree when it provably is parseExact's: the text is what JSON.stringify writes
 * for that tree, compact or with the two-space indent the vector generator writes (one final
 * newline allowed), so no number token lost digits or was written in another form and no key
 * was repeated (the output would differ), and no integer is past 2^53 (those are bigints here).
 * Loading the shipped vectors goes this way: a third of lossless-json's time.
 */
function parseWritten(text: string): { readonly value: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text)
    const body = text.endsWith('\n') ? text.slice(0, -1) : text
    if ((JSON.stringify(value, null, 2) === body || JSON.stringify(value) === body) && !hasUnsafeInteger(value)) return { value }
  } catch {
    // Not JSON, or nested past the stack: lossless-json gives its own verdict.
  }
  return undefined
}

/** JSON.parse that turns an integer a double cannot hold exactly into a bigint. */
export function parseExact(text: string): unknown {
  const fast = parseWritten(text)
  return fast ? fast.value : parseExactLossless(text)
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
