import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type * as Yaml from 'yaml'
import { InputError } from '../errors.ts'
import { loadCoreYaml } from './js-yaml.ts'
import { type LineLookup, lineIndex, loadIndexed } from './line-index.ts'

// Loaded on first use: a spec without findings never needs positions, and the module costs start-up.
let yamlModule: typeof Yaml | undefined
const yaml = (): typeof Yaml => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml)

/** A parsed YAML or JSON document that still knows where each value came from. */
export interface SpecSource {
  /** The path as the user gave it (or a label such as `git:ref:path`). */
  readonly file: string
  readonly text: string
  /** Plain JSON-compatible data. */
  readonly doc: Record<string, unknown>
  /** 1-based line of the value at a JSON pointer; the nearest existing ancestor if absent. */
  lineOf(pointer: string): number
}

export function pointerTokens(pointer: string): string[] {
  if (pointer === '' || pointer === '#') return []
  return pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
}

export function toPointer(tokens: readonly (string | number)[]): string {
  // Called for every reference of a large spec (tens of thousands on Stripe's): most tokens need no escape.
  let pointer = ''
  for (const t of tokens) {
    const s = String(t)
    pointer += s.includes('~') || s.includes('/') ? `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}` : `/${s}`
  }
  return pointer
}

/** Parses spec text. Throws InputError naming the line of the first YAML error. */
export function parseSpecText(text: string, file: string): SpecSource {
  const { LineCounter, parseDocument } = yaml()
  const lineCounter = new LineCounter()
  const yamlDoc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false })
  const first = yamlDoc.errors[0]
  if (first) {
    const line = lineCounter.linePos(first.pos[0]).line
    const what = first.message.split('\n')[0] ?? 'parse error'
    throw new InputError(`${file}:${line}: invalid YAML: ${what}`)
  }
  const doc = yamlDoc.toJS({ maxAliasCount: 100 }) as unknown
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new InputError(`${file}: not an OpenAPI document (the top level is not a mapping)`)
  }

  return { file, text, doc: doc as Record<string, unknown>, lineOf: linesOf(yamlDoc, lineCounter) }
}

/** The line lookup of a parsed YAML document. */
function linesOf(yamlDoc: Yaml.Document, lineCounter: Yaml.LineCounter): (pointer: string) => number {
  const { isMap, isScalar, isSeq } = yaml()
  return (pointer: string): number => {
    let node: unknown = yamlDoc.contents
    let line = 1
    const at = (n: unknown) => {
      const range = (n as Yaml.Node | undefined)?.range
      if (range) line = lineCounter.linePos(range[0]).line
    }
    at(node)
    for (const token of pointerTokens(pointer)) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === token)
        if (!pair) break
        at(pair.key)
        node = pair.value
      } else if (isSeq(node)) {
        const item = node.items[Number(token)]
        if (item === undefined) break
        at(item)
        node = item
      } else break
    }
    return line
  }
}

/**
 * Line lookup for text another parser already read (so it is valid and has no duplicate key):
 * js-yaml's one-pass index (line-index.ts), and where it has no answer the YAML tree.
 */
export function lineLocator(text: string): (pointer: string) => number {
  return withTree(text, lineIndex(text))
}

/** The index's answer, else the YAML tree's (built once, only when asked). */
function withTree(text: string, index: LineLookup | undefined): (pointer: string) => number {
  let tree: ((pointer: string) => number) | undefined
  const fromTree = (pointer: string) => (tree ??= treeLocator(text))(pointer)
  return index === undefined ? fromTree : (pointer) => index(pointerTokens(pointer)) ?? fromTree(pointer)
}

/**
 * The YAML tree without the duplicate-key check (quadratic in a mapping's size) and without
 * building values: seconds on a 4 MB spec.
 */
function treeLocator(text: string): (pointer: string) => number {
  const { LineCounter, parseDocument } = yaml()
  const lineCounter = new LineCounter()
  const yamlDoc = parseDocument(text, { lineCounter, uniqueKeys: false })
  return linesOf(yamlDoc, lineCounter)
}

/** A YAML alias (`*name`) could expand exponentially when walked: such text keeps the guarded parser. */
const ALIAS = /(^|[\s[{,:-])\*[A-Za-z0-9_-]+\s*($|[,\]}\n])/m

export interface ReadOptions {
  /**
   * Record every node's line while parsing (line-index.ts): for a caller that will likely ask for
   * lines (lint), one pass instead of a second parse at the first finding; a parse that then asks
   * for none pays the recording.
   */
  readonly indexLines?: boolean
}

/**
 * The same SpecSource as parseSpecText, parsed by js-yaml (about 100 ms less for the shipped
 * spec); lines come from js-yaml's index (built now with `indexLines`, else at the first line
 * asked for), or from `yaml` where the index cannot be had; `yaml` also names the line of an
 * error when js-yaml refuses the text.
 */
export function parseSpecTextFast(text: string, file: string, options: ReadOptions = {}): SpecSource {
  if (ALIAS.test(text)) return parseSpecText(text, file)
  let doc: unknown
  let located: ((pointer: string) => number) | undefined
  try {
    if (options.indexLines) {
      const read = loadIndexed(text, file)
      doc = read.doc
      located = withTree(text, read.index)
    } else doc = loadCoreYaml(text, file)
  } catch {
    return parseSpecText(text, file)
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return parseSpecText(text, file)
  return { file, text, doc: doc as Record<string, unknown>, lineOf: (pointer) => (located ??= lineLocator(text))(pointer) }
}

export function readSpecFile(path: string, options: ReadOptions = {}): SpecSource {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (code ?? 'unreadable')
    throw new InputError(`cannot read spec ${path}: ${why}`)
  }
  return parseSpecTextFast(text, path, options)
}
