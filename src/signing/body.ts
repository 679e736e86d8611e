/**
 * Lossless JSON bodies. Canonical text (what JSON.stringify writes) is read natively once a
 * round trip proves nothing was lost; anything else goes through lossless-json, so a nonce such
 * as 2^64-1 keeps every digit, and a pre-scan (iterative, so hostile nesting cannot blow the stack) enforces the depth
 * limit and finds duplicate keys, which lossless-json lets through when the values are equal.
 */
import type { Code } from '../contract/codes.ts'
import { isLosslessNumber, parse as losslessParse } from 'lossless-json'
import { parseCanonical } from './lossless.ts'
import { UINT64_MAX } from './types.ts'

export type ParsedBodyOk = {
  ok: true
  /** Plain JSON, numbers as JS numbers: ajv-ready. */
  value: unknown
  /** JSON pointer → exact source text of every number. */
  numbers: ReadonlyMap<string, string>
}
export type ParsedBody = ParsedBodyOk | { ok: false; code: Code<'invalid_json' | 'invalid_field'>; field: string | null; message: string }

export function escapePointerToken(t: string): string {
  return t.replace(/~/g, '~0').replace(/\//g, '~1')
}

interface ScanResult {
  tooDeep: boolean
  duplicate?: { key: string; at: string }
}

/**
 * Walks the text once, outside strings, tracking the open containers. Only meaningful on text
 * that lossless-json accepts, except the depth figure, which is safe on anything.
 */
function scan(text: string, maxDepth: number): ScanResult {
  // Per open container: for objects the keys seen so far and the pointer; for arrays the index.
  const stack: { keys: Set<string> | null; pointer: string; index: number; expectKey: boolean; lastKey: string }[] = []
  let duplicate: ScanResult['duplicate']
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 0x22 /* " */) {
      let j = i + 1
      let escaped = false
      while (j < n) {
        const d = text.charCodeAt(j)
        if (d === 0x5c) {
          escaped = true
          j += 2
          continue
        }
        if (d === 0x22) break
        j++
      }
      const top = stack[stack.length - 1]
      if (top?.keys && top.expectKey && duplicate === undefined) {
        const raw = text.slice(i + 1, j)
        let key = raw
        if (escaped) {
          try {
            key = JSON.parse(`"${raw}"`) as string
          } catch {
            key = raw
          }
        }
        if (top.keys.has(key)) duplicate = { key, at: top.pointer }
        top.keys.add(key)
        top.lastKey = key
        top.expectKey = false
      }
      i = j + 1
      continue
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const parent = stack[stack.length - 1]
      const pointer = parent ? `${parent.pointer}/${escapePointerToken(parent.keys ? parent.lastKey : String(parent.index))}` : ''
      stack.push({ keys: c === 0x7b ? new Set() : null, pointer, index: 0, expectKey: c === 0x7b, lastKey: '' })
      if (stack.length > maxDepth) return { tooDeep: true }
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop()
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1]
      if (top) {
        if (top.keys) top.expectKey = true
        else top.index++
      }
    }
    i++
  }
  return duplicate ? { tooDeep: false, duplicate } : { tooDeep: false }
}

/** lossless-json tree → plain JSON, recording the text of every number by pointer. */
function plain(node: unknown, pointer: string, numbers: Map<string, string>): unknown {
  if (isLosslessNumber(node)) {
    numbers.set(pointer, node.value)
    return Number(node.value)
  }
  if (Array.isArray(node)) return node.map((v, i) => plain(v, `${pointer}/${i}`, numbers))
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(node)) {
      const value = plain(v, `${pointer}/${escapePointerToken(k)}`, numbers)
      // A "__proto__" key is data: plain assignment would set the prototype instead.
      if (k === '__proto__') Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true })
      else out[k] = value
    }
    return out
  }
  return node
}

/**
 * The numbers of a natively parsed tree by pointer (their printed form is their source text when
 * the text round-trips); false when containers nest deeper than maxDepth.
 */
function recordNumbers(v: unknown, pointer: string, numbers: Map<string, string>, depth: number, maxDepth: number): boolean {
  if (typeof v === 'number') {
    numbers.set(pointer, String(v))
    return true
  }
  if (v === null || typeof v !== 'object') return true
  if (depth > maxDepth) return false
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!recordNumbers(v[i], `${pointer}/${i}`, numbers, depth + 1, maxDepth)) return false
    return true
  }
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k]
    if (
      (typeof x === 'number' || (x !== null && typeof x === 'object')) &&
      !recordNumbers(x, `${pointer}/${escapePointerToken(k)}`, numbers, depth + 1, maxDepth)
    )
      return false
  }
  return true
}

/**
 * The fast path: a body in JSON.stringify's canonical form (`parseCanonical`; signed bodies as
 * clients write them) is JSON.parse's plain tree, `__proto__` kept as data; its numbers' texts
 * are recorded from that tree. Anything else, whitespace included, goes the lossless way below.
 * undefined: not taken.
 */
function canonicalBody(text: string, maxDepth: number): ParsedBodyOk | undefined {
  const fast = parseCanonical(text)
  if (!fast) return undefined
  const numbers = new Map<string, string>()
  return recordNumbers(fast.value, '', numbers, 1, maxDepth) ? { ok: true, value: fast.value, numbers } : undefined
}

/**
 * Lossless JSON parse: duplicate keys ⇒ invalid_field naming the key; depth > maxDepth (default 32) ⇒ invalid_field.
 * `fastPath: false` forces the lossless-json route (tests compare the two).
 */
export function parseBody(text: string, opts: { maxDepth?: number; fastPath?: boolean } = {}): ParsedBody {
  const maxDepth = opts.maxDepth ?? 32
  if (typeof text !== 'string') return { ok: false, code: 'invalid_json', field: null, message: 'body is not text' }
  if (opts.fastPath !== false) {
    const fast = canonicalBody(text, maxDepth)
    if (fast) return fast
  }
  const pre = scan(text, maxDepth)
  if (pre.tooDeep) return { ok: false, code: 'invalid_field', field: null, message: `body nests deeper than ${maxDepth} levels` }
  let tree: unknown
  try {
    tree = losslessParse(text)
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err)
    const dup = /^Duplicate key '(.*)' encountered/.exec(msg)
    if (dup) return { ok: false, code: 'invalid_field', field: dup[1] ?? null, message: `duplicate key "${dup[1]}"` }
    return { ok: false, code: 'invalid_json', field: null, message: `invalid JSON: ${msg.split('\n')[0]}` }
  }
  if (pre.duplicate) {
    const { key, at } = pre.duplicate
    return { ok: false, code: 'invalid_field', field: key, message: `duplicate key "${key}"${at ? ` in ${at}` : ''}` }
  }
  const numbers = new Map<string, string>()
  return { ok: true, value: plain(tree, '', numbers), numbers }
}

function valueAt(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc
  let node = doc
  for (const raw of pointer.slice(1).split('/')) {
    const t = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(node)) node = node[Number(t)]
    else if (node !== null && typeof node === 'object') node = (node as Record<string, unknown>)[t]
    else return undefined
  }
  return node
}

const PLAIN_UINT = /^(0|[1-9][0-9]*)$/

function fieldName(pointer: string): string {
  return pointer.slice(1).replace(/~1/g, '/').replace(/~0/g, '~') || '(body)'
}

/** Exact uint64 at a pointer: rejects strings, negatives, fractions, exponent form, > 2^64-1 with a message naming the field. */
export function readUint64(body: ParsedBodyOk, pointer: string): { ok: true; value: bigint } | { ok: false; message: string } {
  const text = body.numbers.get(pointer)
  if (text !== undefined && PLAIN_UINT.test(text) && text.length <= 20) {
    // The common case first, without building the field's name for a message.
    const value = BigInt(text)
    if (value <= UINT64_MAX) return { ok: true, value }
  }
  const name = fieldName(pointer)
  if (text === undefined) {
    const v = valueAt(body.value, pointer)
    if (v === undefined) return { ok: false, message: `${name} is missing` }
    return {
      ok: false,
      message: `${name} must be a JSON integer in 0..${UINT64_MAX}, got a ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}`,
    }
  }
  if (!PLAIN_UINT.test(text)) {
    const why = text.startsWith('-')
      ? 'negative'
      : /[eE]/.test(text)
        ? 'in exponent form'
        : text.includes('.')
          ? 'fractional'
          : 'not a plain integer'
    return { ok: false, message: `${name} must be an integer in 0..${UINT64_MAX}, got ${text} (${why})` }
  }
  const value = BigInt(text)
  if (value > UINT64_MAX) return { ok: false, message: `${name} must be an integer in 0..${UINT64_MAX}, got ${text} (above 2^64-1)` }
  return { ok: true, value }
}
