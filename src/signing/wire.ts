/**
 * The one body model of the toolkit: a request body as ordered entries of JSON values, written
 * to exact text. The signer writes its requests with it, the vectors their bodies and the
 * runner its probes; `RawJson` is how a body says something a JSON value cannot (a price as
 * a number, `1e3`, a nonce past 2^64, a truncated value), digit for digit.
 */

/** JSON text inserted verbatim. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A string, a bigint (written as its digits), another JSON value, or raw text. */
export type BodyValue = string | bigint | number | boolean | null | RawJson | readonly BodyValue[] | { readonly [k: string]: BodyValue }
export type BodyEntries = [string, BodyValue][]

export function jsonText(v: BodyValue): string {
  if (v instanceof RawJson) return v.text
  if (typeof v === 'bigint') return v.toString()
  if (v === null || typeof v !== 'object') return JSON.stringify(v)
  if (Array.isArray(v)) return `[${v.map(jsonText).join(',')}]`
  return `{${Object.entries(v as Record<string, BodyValue>)
    .map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`)
    .join(',')}}`
}

/** `{"k":v,...}` in entry order, no whitespace. */
export function bodyText(entries: readonly (readonly [string, BodyValue])[]): string {
  let out = '{'
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i]!
    out += `${i ? ',' : ''}${JSON.stringify(k)}:${jsonText(v)}`
  }
  return `${out}}`
}

/** The entries with `key` replaced (in place), removed (`undefined`) or added before `signature`. */
export function setEntry(entries: readonly (readonly [string, BodyValue])[], key: string, value: BodyValue | undefined): BodyEntries {
  const out: BodyEntries = []
  let found = false
  for (const [k, v] of entries) {
    if (k === key) {
      found = true
      if (value !== undefined) out.push([k, value])
    } else out.push([k, v])
  }
  if (!found && value !== undefined) {
    const sigAt = out.findIndex(([k]) => k === 'signature')
    out.splice(sigAt < 0 ? out.length : sigAt, 0, [key, value])
  }
  return out
}
