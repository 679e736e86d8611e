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

/** JSON.parse that turns an integer a double cannot hold exactly into a bigint. */
export function parseExact(text: string): unknown {
  return losslessParse(text, null, (value: string) => {
    if (/^-?(0|[1-9][0-9]*)$/.test(value)) {
      const n = Number(value)
      return Number.isSafeInteger(n) ? n : BigInt(value)
    }
    return Number(value)
  })
}
