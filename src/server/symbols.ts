/**
 * The instrument symbol grammar: the spec's `Symbol` pattern plus a real calendar date, which a
 * regular expression cannot say (20260230 matches the pattern but is no date).
 */
import { getPointer, type Contract } from '../contract/index.ts'

export function symbolPattern(spec: Contract): RegExp {
  const pattern = getPointer(spec.doc, '/components/schemas/Symbol/pattern')
  if (typeof pattern !== 'string') throw new Error('spec: components.schemas.Symbol has no pattern')
  return new RegExp(pattern, 'u')
}

/** YYYYMMDD names a day that exists in the proleptic Gregorian calendar. */
export function isCalendarDate(yyyymmdd: string): boolean {
  if (!/^\d{8}$/.test(yyyymmdd)) return false
  const y = Number(yyyymmdd.slice(0, 4))
  const m = Number(yyyymmdd.slice(4, 6))
  const d = Number(yyyymmdd.slice(6, 8))
  if (m < 1 || m > 12 || d < 1) return false
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!
  return d <= days
}

/** Why `symbol` breaks the grammar, or null when it is well-formed. */
export function symbolProblem(symbol: string, pattern: RegExp): string | null {
  if (!pattern.test(symbol)) return `does not match <UNDERLYING>-<YYYYMMDD>-<STRIKE>-<C|P>`
  const date = symbol.split('-')[1] ?? ''
  if (!isCalendarDate(date)) return `${date} is not a calendar date`
  return null
}
