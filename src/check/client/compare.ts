/**
 * Judging a testee's answers against a vector case. Bodies are compared by meaning (the
 * signing protocol's rule): the same keys, strings identical character for character (only
 * address fields compared without regard to case: an address is 20 bytes, a client id that looks
 * like hex is still text), integers with identical digits, `route` present exactly when it was
 * signed. Whitespace, key order and escaping are free.
 */
import { isLosslessNumber, parse as losslessParse } from 'lossless-json'
import type { VectorCase } from '../../vectors/model.ts'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

function show(v: unknown): string {
  if (isLosslessNumber(v)) return `the JSON number ${(v as { value: string }).value}`
  if (typeof v === 'string') return `the string ${JSON.stringify(v).slice(0, 80)}`
  if (v === undefined) return 'nothing'
  return `${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`
}

/** Differences between an expected and an actual body text, as short phrases (empty: same meaning). */
export function bodyDifferences(
  expectedText: string,
  actualText: unknown,
  opts: {
    presenceOnly?: readonly string[]
    /** Top-level keys holding addresses, compared without regard to case. */
    addresses?: readonly string[]
  } = {},
): string[] {
  if (typeof actualText !== 'string') return [`body is ${show(actualText)}, not JSON text`]
  let actual: unknown
  try {
    actual = losslessParse(actualText)
  } catch {
    return [`body is not JSON: ${actualText.slice(0, 80)}`]
  }
  const expected = losslessParse(expectedText) as Record<string, unknown>
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`body is ${show(actual)}, not an object`]
  const got = actual as Record<string, unknown>
  const out: string[] = []
  for (const key of Object.keys(expected)) {
    if (!(key in got)) out.push(key === 'route' ? 'route: missing although it was signed' : `${key}: missing`)
  }
  for (const key of Object.keys(got)) {
    if (!(key in expected))
      out.push(
        key === 'route'
          ? `route: ${show(got[key])} is present although the message was signed without route`
          : `${key}: not expected in the body`,
      )
  }
  for (const [key, want] of Object.entries(expected)) {
    if (!(key in got) || opts.presenceOnly?.includes(key)) continue
    const have = got[key]
    const address =
      opts.addresses?.includes(key) && typeof want === 'string' && typeof have === 'string' && ADDRESS.test(want) && ADDRESS.test(have)
    if (address ? want.toLowerCase() !== have.toLowerCase() : !sameValue(want, have))
      out.push(`${key}: expected ${show(want)}, got ${show(have)}`)
  }
  return out
}

function sameValue(want: unknown, have: unknown): boolean {
  if (isLosslessNumber(want)) return isLosslessNumber(have) && (want as { value: string }).value === (have as { value: string }).value
  if (typeof want === 'string') {
    return want === have
  }
  if (want === null || typeof want !== 'object') return want === have
  if (Array.isArray(want)) return Array.isArray(have) && want.length === have.length && want.every((w, i) => sameValue(w, have[i]))
  if (have === null || typeof have !== 'object' || Array.isArray(have)) return false
  const w = want as Record<string, unknown>
  const h = have as Record<string, unknown>
  const keys = Object.keys(w)
  return keys.length === Object.keys(h).length && keys.every((k) => k in h && sameValue(w[k], h[k]))
}

/** Body keys of the case's address fields (typed `address` in its struct; body names follow the snake_case of typed ones). */
function addressKeys(c: VectorCase): string[] {
  const fields = c.typedData.types[c.typedData.primaryType] ?? []
  return fields.filter((f) => f.type === 'address').flatMap((f) => [f.name, f.name.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)])
}

const lowerEq = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase()

/** Problems with a sign answer (empty: exactly right). */
export function signProblems(c: VectorCase, a: Record<string, unknown>): string[] {
  if (typeof a.error === 'string') return [`sign: the testee refused to sign: ${a.error.slice(0, 160)}`]
  const out: string[] = []
  if (c.kind === 'Agent') {
    if (!lowerEq(a.connectionId, c.perp!.connectionId))
      out.push(`sign: connectionId ${String(a.connectionId)}, expected ${c.perp!.connectionId}`)
  }
  // The body first: it names the field at fault, the hashes only show that something is.
  if (c.kind !== 'Agent' && c.request) {
    // The signature value is judged on its own below; in the body only its presence counts.
    for (const d of bodyDifferences(c.request.body, a.body, { presenceOnly: ['signature'], addresses: addressKeys(c) }))
      out.push(`sign: body ${d}`)
  }
  if (!lowerEq(a.digest, c.digest)) out.push(`sign: digest ${String(a.digest)}, expected ${c.digest}`)
  if (!lowerEq(a.signature, c.signature)) out.push(`sign: signature ${clipHex(a.signature)}, expected ${clipHex(c.signature)}`)
  return out
}

/** Problems with a verify answer: it must recover the signer exactly when the vector says so. */
export function verifyProblems(c: VectorCase, a: Record<string, unknown>): { problems: string[]; tooLenient: boolean } {
  const v = c.verify!
  const signer = typeof a.signer === 'string' ? a.signer : null
  const accepted = signer !== null && signer.toLowerCase() === c.signer.toLowerCase()
  const out: string[] = []
  if (v.digest && typeof a.digest === 'string' && a.digest.toLowerCase() !== v.digest.toLowerCase())
    out.push(`verify: digest ${a.digest}, expected ${v.digest}`)
  if (accepted && !v.accept) out.push(`verify: accepted (recovered the signer ${signer}) but a correct verifier refuses this signature`)
  if (!accepted && v.accept)
    out.push(
      `verify: refused (${signer ? `recovered ${signer}` : typeof a.error === 'string' ? a.error.slice(0, 120) : 'no signer'}), expected the signer ${c.signer}`,
    )
  return { problems: out, tooLenient: accepted && !v.accept }
}

function clipHex(v: unknown): string {
  if (typeof v !== 'string') return String(v)
  return v.length > 24 ? `${v.slice(0, 14)}…${v.slice(-8)}` : v
}
