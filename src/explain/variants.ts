/**
 * The likely wrong values of one field, each a pure function of the value sent: decimal
 * spellings, letter case, nearby nonces and the integers a double could have rounded to.
 * Order matters: the search tries earlier values first, so the likelier spellings lead.
 */

const PLAIN = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/
const ANY_DECIMAL = /^([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/

/** m × 10^-scale, exact; null when the text is no decimal number. */
function parseDecimal(text: string): { m: bigint; scale: number } | null {
  const t = text.trim()
  const match = ANY_DECIMAL.exec(t)
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return null
  const int = match[1] ?? ''
  const frac = match[2] ?? ''
  const exp = Number(match[3] ?? '0')
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 60) return null
  return { m: BigInt(`${int}${frac}` || '0'), scale: frac.length - exp }
}

/** The plain decimal text of m × 10^-scale with exactly `decimals` digits after the point. */
function plainText(m: bigint, scale: number, decimals: number): string | null {
  if (decimals < 0) return null
  let digits: bigint
  if (decimals >= scale) digits = m * 10n ** BigInt(decimals - scale)
  else {
    const div = 10n ** BigInt(scale - decimals)
    if (m % div !== 0n) return null
    digits = m / div
  }
  const s = digits.toString().padStart(decimals + 1, '0')
  return decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`
}

/** Fewest decimals that still write the value exactly. */
function minimalScale(m: bigint, scale: number): number {
  let s = scale
  let v = m
  while (s > 0 && v % 10n === 0n) {
    v /= 10n
    s--
  }
  return Math.max(0, s)
}

/**
 * Other spellings of the same decimal: trailing zeros dropped or added, a trailing `.0`,
 * exponent forms (`1e2`, `1.5E+2`) and the text a JavaScript number prints. The value itself
 * is never among them.
 */
export function decimalSpellings(text: string): string[] {
  const d = parseDecimal(text)
  if (!d) return []
  const out: string[] = []
  const add = (s: string | null) => {
    if (s !== null && s !== text && !out.includes(s)) out.push(s)
  }
  const min = minimalScale(d.m, d.scale)
  const sentDecimals = PLAIN.test(text) ? (text.split('.')[1]?.length ?? 0) : min
  // Closest spellings first: one zero more or less than sent, then the shortest form.
  add(plainText(d.m, d.scale, sentDecimals + 1))
  add(plainText(d.m, d.scale, sentDecimals - 1))
  add(plainText(d.m, d.scale, min))
  for (let k = min; k <= min + 3; k++) add(plainText(d.m, d.scale, k))
  const n = Number(text)
  if (Number.isFinite(n)) {
    add(String(n))
    const e = n.toExponential()
    add(e)
    add(e.replace('e+', 'e'))
    add(e.toUpperCase())
  }
  if (text.startsWith('0.')) add(text.slice(1))
  return out
}

/** Case variants of a word (`Buy` → `buy`, `BUY`), never the word itself. */
export function caseSpellings(text: string): string[] {
  const out: string[] = []
  const lower = text.toLowerCase()
  for (const s of [lower, text.toUpperCase(), lower.charAt(0).toUpperCase() + lower.slice(1)])
    if (s !== text && !out.includes(s)) out.push(s)
  return out
}

const UINT64_MAX = (1n << 64n) - 1n
const TWO_53 = 1n << 53n

/** Nonces a few steps away: an off-by-one counter, a nonce bumped twice. */
export function nearbyNonces(n: bigint, reach = 5): bigint[] {
  const out: bigint[] = []
  for (let d = 1n; d <= BigInt(reach); d++) {
    if (n - d >= 0n) out.push(n - d)
    if (n + d <= UINT64_MAX) out.push(n + d)
  }
  return out
}

/**
 * Nonces that differ from `n` by a trip through a JavaScript number: the rounded value (signed
 * after rounding, sent exact) and every integer that rounds to the same double as `n` (signed
 * exact, sent after rounding), nearest first, at most `cap` of them.
 */
export function doubleNonces(n: bigint, cap = 4096): bigint[] {
  if (n <= TWO_53) return []
  const out: bigint[] = []
  const rounded = BigInt(Number(n))
  if (rounded !== n && rounded <= UINT64_MAX) out.push(rounded)
  const d = Number(n)
  for (let k = 1n; out.length < cap; k++) {
    let any = false
    for (const x of [n - k, n + k]) {
      if (x < 0n || x > UINT64_MAX) continue
      if (Number(x) === d) {
        any = true
        if (x !== rounded) out.push(x)
      }
    }
    // Past both ends of the double's rounding interval: nothing further rounds to it.
    if (!any && k > 1n && Number(n - k) !== d && Number(n + k) !== d) break
  }
  return out
}
