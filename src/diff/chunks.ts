/**
 * Parse-once for a pair of YAML specs. Two versions of a big spec share almost all of their
 * text, so both are cut into block-mapping entries (a top-level key, a path, a schema): the base
 * is parsed whole and each of its entry texts remembers its value; the head is assembled from
 * those values and only the entries whose text changed are parsed. The cut is made on lines
 * alone (a key at the mapping's indentation), and anything it cannot cut with certainty
 * (document markers, directives, tabs, a line at the mapping's indentation that is not a plain
 * key) makes it give up, so the caller parses the whole text as before.
 */
import { loadCoreYaml } from '../contract/js-yaml.ts'
import type { JsonObject } from '../contract/model.ts'

/** Entry text → its parsed value, filled from the base document and read for the head. */
export type ChunkCache = Map<string, unknown>

/** A mapping bigger than this many lines is cut into its entries; smaller ones are one entry. */
const CUT_LINES = 400
/** A block-mapping key line: `key:`, `"key":` or `'key':`, then a space, a comment or the end. */
const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-?:[\]{},&*!|>%@`][^#]*?|-[^\s#][^#]*?)\s*:(?:\s|$)/
/** A key YAML reads as its own text: plain characters, and not a number, boolean or null. */
const PLAIN_KEY = /^[A-Za-z0-9_/{}.$][A-Za-z0-9_/{}.$ -]*$/
const RESOLVED_KEY = /^[-+]?(?:\.?\d|0[xo]|\.inf|\.nan)|^(?:true|false|null)$/i
const UNSAFE = /^(?:---|\.\.\.)/

class GiveUp extends Error {}

/** Called for each entry that is not cut further: its key path and its text. */
type Visit = (path: readonly string[], chunk: string) => void

interface Source {
  readonly text: string
  /** Where each line starts in `text` (one more entry: past the end), so an entry is one slice. */
  readonly starts: Int32Array
  /**
   * Spaces before each line's content, or BLANK for a line of nothing but spaces or a comment:
   * measured once, where the nested mappings used to measure a line again at each depth.
   */
  readonly indents: Int32Array
  readonly visit: Visit
}

const BLANK = -1

/** Spaces before line `i`'s content (BLANK: nothing but a comment or spaces). */
function measureIndent(text: string, from: number, end: number): number {
  let p = from
  while (text.charCodeAt(p) === 32) p++
  if (p >= end) return BLANK
  const ch = text.charCodeAt(p)
  return ch === 35 /* # */ || ch === 13 /* \r */ ? BLANK : p - from
}

const lineAt = (src: Source, i: number, indent: number) => src.text.slice(src.starts[i]! + indent, src.starts[i + 1]! - 1)

/** Visits the entries of `text`; false when it cannot be cut safely. Lines are offsets, never split strings. */
function cut(text: string, visit: Visit): boolean {
  if (text.includes('\t')) return false
  const offsets: number[] = [0]
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) offsets.push(at + 1)
  offsets.push(text.length + 1)
  const starts = Int32Array.from(offsets)
  const indents = new Int32Array(starts.length - 1)
  for (let i = 0; i < starts.length - 1; i++) {
    const ch = text.charCodeAt(starts[i]!)
    // Document markers and directives: more than one document, or one the cut cannot read.
    if (ch === 37 /* % */ || ((ch === 45 || ch === 46) && UNSAFE.test(text.slice(starts[i]!, starts[i]! + 3)))) return false
    indents[i] = measureIndent(text, starts[i]!, starts[i + 1]! - 1)
  }
  try {
    mapping({ text, starts, indents, visit }, [], 0, starts.length - 1, 0)
    return true
  } catch (err) {
    if (err instanceof GiveUp) return false
    throw err
  }
}

/** Lines [from, to) are the entries of a block mapping at `indent`. */
function mapping(src: Source, path: readonly string[], from: number, to: number, indent: number): void {
  let start = -1
  const { indents } = src
  for (let i = from; i < to; i++) {
    const n = indents[i]!
    // Most lines are inside an entry: one comparison skips them.
    if ((start >= 0 && n > indent) || n === BLANK) continue
    if (n < indent) throw new GiveUp()
    if (n > indent) {
      if (start < 0) throw new GiveUp()
      continue
    }
    if (!KEY.test(lineAt(src, i, n))) throw new GiveUp()
    if (start >= 0) entry(src, path, start, i, indent)
    start = i
  }
  if (start >= 0) entry(src, path, start, to, indent)
}

/** One entry (key line and its block): cut further when it is a big block mapping. */
function entry(src: Source, path: readonly string[], from: number, to: number, indent: number): void {
  const head = lineAt(src, from, indent).trimEnd()
  if (to - from > CUT_LINES && head.endsWith(':')) {
    let first = from + 1
    while (first < to && src.indents[first] === BLANK) first++
    const child = first < to ? src.indents[first]! : 0
    if (child > indent && KEY.test(lineAt(src, first, child))) return mapping(src, [...path, keyOf(head.slice(0, -1))], from + 1, to, child)
  }
  const raw = KEY.exec(head)![1]!
  src.visit([...path, keyOf(raw)], src.text.slice(src.starts[from], src.starts[to]! - 1))
}

/** A key as YAML reads it. */
function keyOf(raw: string): string {
  const k = raw.trim()
  if (PLAIN_KEY.test(k) && !RESOLVED_KEY.test(k)) return k
  const parsed = loadCoreYaml(`${k}: 0`)
  const keys = parsed && typeof parsed === 'object' ? Object.keys(parsed) : []
  if (keys.length !== 1) throw new GiveUp()
  return keys[0]!
}

function valueAt(doc: unknown, path: readonly string[]): unknown {
  let node = doc
  for (const k of path) node = (node as Record<string, unknown> | undefined)?.[k]
  return node
}

/** A `$ref` and its value, quoted or plain, in YAML or JSON spelling. */
const REF = /(?:^|[\s{,])["']?\$ref["']?\s*:\s*(?:"([^"\\\n]*)"|'([^'\n]*)'|([^\s,}#'"][^\s,}]*))/g

/**
 * The `$ref`s an entry's value holds, read from its text (far cheaper than walking the value),
 * for same.ts. Absent when the text holds a `$ref` the pattern did not read: then the value is
 * walked instead.
 */
const entryRefs = new WeakMap<object, readonly string[]>()

export function refsOf(node: object): readonly string[] | undefined {
  return entryRefs.get(node)
}

function readRefs(chunk: string): string[] | undefined {
  const refs: string[] = []
  for (const m of chunk.matchAll(REF)) refs.push(m[1] ?? m[2] ?? m[3]!)
  return refs.length === chunk.split('$ref').length - 1 ? refs : undefined
}

/** After a whole parse of the base text: each of its entry texts remembers its value (and its refs). */
export function indexChunks(text: string, doc: JsonObject, cache: ChunkCache): void {
  const entries: [string, unknown][] = []
  if (!cut(text, (path, chunk) => entries.push([chunk, valueAt(doc, path)]))) return
  for (const [chunk, value] of entries) {
    cache.set(chunk, value)
    const refs = value !== null && typeof value === 'object' ? readRefs(chunk) : undefined
    if (refs) entryRefs.set(value as object, refs)
  }
}

/** The head document assembled from remembered entries, parsing only new ones; undefined: parse it whole. */
export function parseFromChunks(text: string, cache: ChunkCache): JsonObject | undefined {
  if (cache.size === 0) return undefined
  const doc: JsonObject = {}
  const ok = cut(text, (path, chunk) => {
    let value = cache.get(chunk)
    if (value === undefined) {
      let parsed: unknown
      try {
        parsed = loadCoreYaml(chunk)
      } catch {
        throw new GiveUp()
      }
      const key = path[path.length - 1]!
      if (parsed === null || typeof parsed !== 'object' || Object.keys(parsed).length !== 1 || !Object.hasOwn(parsed, key))
        throw new GiveUp()
      value = (parsed as Record<string, unknown>)[key]
    }
    let node = doc as Record<string, unknown>
    for (const k of path.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>
    // A duplicate key: the whole-text parser reports it with its line.
    if (Object.hasOwn(node, path[path.length - 1]!)) throw new GiveUp()
    node[path[path.length - 1]!] = value
  })
  return ok ? doc : undefined
}
