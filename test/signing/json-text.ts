/**
 * JSON texts for property tests of the lossless parsers' fast paths: built token by token so that
 * the text itself varies (big and negative integers, fractions, exponents, `-0`, escapes,
 * repeated keys, `__proto__`, whitespace and separator styles), not only the value it denotes.
 */
import fc from 'fast-check'
import { isLosslessNumber } from 'lossless-json'

/** A JSON text built token by token, so that the text itself (not only its value) varies. */
export type Node = { t: 'raw'; text: string } | { t: 'arr'; items: Node[] } | { t: 'obj'; entries: [string, Node][] }

export const numberText = fc.oneof(
  fc.integer({ min: -1000, max: 1_000_000 }).map(String),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map(String),
  fc.constantFrom('0', '-0', '1.0', '1e3', '1E+3', '0.1', '-2.5e-3', '9007199254740993', '18446744073709551615', '1.5'),
)
const jsonKeyArb = fc.oneof(
  fc.constantFrom('id', 'op', 'kind', 'nonce', 'message', '__proto__', 'constructor', '1', 'a', 'b'),
  fc.string({ unit: 'binary', maxLength: 6 }),
)
export const stringText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"\\u0070rice"', '"a\\/b"', '"\\ud800"', '"tab\\there"', '"\\u00e9"', '"é"'),
)
const leaf = fc.oneof(numberText, stringText, fc.constantFrom('true', 'false', 'null')).map((text): Node => ({ t: 'raw', text }))
export const nodeArb: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }).map((items): Node => ({ t: 'arr', items })),
    // Entries, not a record: a key may repeat, with an equal or a different value.
    fc.array(fc.tuple(jsonKeyArb, tie('node')), { maxLength: 5 }).map((entries): Node => ({ t: 'obj', entries })),
  ),
})).node

export interface Style {
  comma: string
  colon: string
  pad: string
}
export const styleArb = fc.oneof(
  fc.constant<Style>({ comma: ',', colon: ':', pad: '' }),
  fc.constant<Style>({ comma: ', ', colon: ': ', pad: '' }),
  fc.record<Style>({
    comma: fc.constantFrom(',', ' ,', ',\t', ' , '),
    colon: fc.constantFrom(':', ' :', ':\r', ' : '),
    pad: fc.constantFrom('', ' ', '\t', ' \r'),
  }),
)

export function write(n: Node, s: Style): string {
  if (n.t === 'raw') return n.text
  if (n.t === 'arr') return `[${n.items.map((x) => write(x, s)).join(s.comma)}]`
  return `{${n.entries.map(([k, v]) => `${JSON.stringify(k)}${s.colon}${write(v, s)}`).join(s.comma)}}`
}

/**
 * A parsed tree as data, for comparing two parsers: lossless numbers by their digits, bigints and
 * numbers told apart (and -0 from 0), own keys in order, prototypes named.
 */
export function shape(v: unknown): unknown {
  if (isLosslessNumber(v)) return { n: v.value }
  if (typeof v === 'bigint') return { big: String(v) }
  if (typeof v === 'number') return { num: Object.is(v, -0) ? '-0' : String(v) }
  if (Array.isArray(v)) return { a: v.map(shape) }
  if (v !== null && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v) === Object.prototype ? 'Object' : 'other'
    return { o: Object.keys(v).map((k) => [k, shape((v as Record<string, unknown>)[k])]), proto }
  }
  return { v }
}

/** What a parser makes of a text: its tree's shape, or its error message. */
export function outcome(parse: (t: string) => unknown, text: string): unknown {
  try {
    return { ok: shape(parse(text)) }
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) }
  }
}
