/**
 * Exact decimal arithmetic for sizes, prices and positions: a bigint coefficient and a count of
 * fraction digits. Prices are compared and quantities added without floating-point error.
 */
export interface Dec {
  readonly coef: bigint
  readonly scale: number
}

const DECIMAL_RE = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/

export function parseDec(text: string): Dec {
  if (!DECIMAL_RE.test(text)) throw new RangeError(`not a plain decimal: ${text.slice(0, 40)}`)
  const dot = text.indexOf('.')
  if (dot < 0) return { coef: BigInt(text), scale: 0 }
  return { coef: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 }
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.coef, b.coef, a.scale]
  if (a.scale > b.scale) return [a.coef, b.coef * 10n ** BigInt(a.scale - b.scale), a.scale]
  return [a.coef * 10n ** BigInt(b.scale - a.scale), b.coef, b.scale]
}

export function cmp(a: Dec, b: Dec): -1 | 0 | 1 {
  const [x, y] = align(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

export function add(a: Dec, b: Dec): Dec {
  const [x, y, scale] = align(a, b)
  return { coef: x + y, scale }
}

export function sub(a: Dec, b: Dec): Dec {
  const [x, y, scale] = align(a, b)
  return { coef: x - y, scale }
}

export function neg(a: Dec): Dec {
  return { coef: -a.coef, scale: a.scale }
}

export function min(a: Dec, b: Dec): Dec {
  return cmp(a, b) <= 0 ? a : b
}

export function mul(a: Dec, b: Dec): Dec {
  return { coef: a.coef * b.coef, scale: a.scale + b.scale }
}

export const ZERO: Dec = { coef: 0n, scale: 0 }

export function isZero(a: Dec): boolean {
  return a.coef === 0n
}

/** Canonical text: no trailing fraction zeros, `0` for zero. */
export function formatDec(a: Dec): string {
  let { coef, scale } = a
  while (scale > 0 && coef % 10n === 0n) {
    coef /= 10n
    scale -= 1
  }
  const negative = coef < 0n
  let digits = (negative ? -coef : coef).toString()
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0')
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
  }
  return negative ? `-${digits}` : digits
}

/** Quotient rounded down to `digits` fraction digits (average prices). */
export function div(a: Dec, b: Dec, digits = 8): Dec {
  const [x, y] = align(a, b)
  if (y === 0n) return ZERO
  return { coef: (x * 10n ** BigInt(digits)) / y, scale: digits }
}
