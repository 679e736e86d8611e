/**
 * Perp actions read exactly. The edge parses bodies losslessly, but the plain value it hands to
 * validation holds JS doubles, which cannot carry an order ID such as 2^53+1. The action that is
 * hashed and acted on is rebuilt from the recorded source text: every integer becomes a bigint,
 * and a number that is not a plain integer in 0..2^64-1 is a bad field (the venue's msgpack has
 * no floats, so such an action could not have been signed as sent).
 */
import { escapePointerToken, type ParsedBodyOk } from '../../signing/index.ts'

const U64_MAX = (1n << 64n) - 1n
const PLAIN = /^(0|[1-9][0-9]*)$/

export type Exact = { ok: true; value: unknown } | { ok: false; field: string; message: string }

function dotted(pointer: string): string {
  let out = ''
  for (const raw of pointer.slice(1).split('/')) {
    const t = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    out += /^\d+$/.test(t) ? `[${t}]` : out === '' ? t : `.${t}`
  }
  return out
}

/** The value at `pointer` (plain, from the parsed body) with its integers as bigints. */
export function exactAt(body: ParsedBodyOk, pointer: string, value: unknown): Exact {
  let problem: { field: string; message: string } | undefined
  const walk = (v: unknown, at: string): unknown => {
    if (problem) return undefined
    if (typeof v === 'number') {
      const text = body.numbers.get(at) ?? String(v)
      if (!PLAIN.test(text) || BigInt(text) > U64_MAX) {
        const field = dotted(at)
        problem = { field, message: `invalid field "${field}": ${text.slice(0, 40)} is not an integer in 0..${U64_MAX}` }
        return undefined
      }
      return BigInt(text)
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${at}/${i}`))
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {}
      for (const [k, x] of Object.entries(v)) {
        const value = walk(x, `${at}/${escapePointerToken(k)}`)
        if (k === '__proto__') Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true })
        else out[k] = value
      }
      return out
    }
    return v
  }
  const out = walk(value, pointer)
  return problem ? { ok: false, ...problem } : { ok: true, value: out }
}

/** A list position named by an exact integer, or undefined past the end. */
export function indexIn<T>(list: readonly T[], i: bigint): T | undefined {
  return i < BigInt(list.length) ? list[Number(i)] : undefined
}
