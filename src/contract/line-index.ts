/**
 * The line of every value of a YAML or JSON text, from one js-yaml pass. The `yaml` package's
 * tree gave the same answers but took seconds on a 4 MB spec (its parse is several times slower
 * than js-yaml's), paid by the first finding that asked for a line. js-yaml tells a listener when
 * it opens and closes each node; the pass only records each node's line, value and children, and
 * a lookup matches the collections on its path to the keys and items of the values js-yaml built
 * (once each), so the index agrees with the data and a parse that asks for few lines pays little.
 * A path it cannot match with certainty (a sequence item left empty, which js-yaml reads without
 * a node) has no answer, and the caller falls back to the `yaml` tree.
 */
import { type CoreYamlState, loadCoreYaml } from './js-yaml.ts'

/** One node as read. */
interface Frame {
  /**
   * 0-based line where js-yaml began reading the node: its first character for the document and
   * a sequence item (a mapping's value may begin a line early, but an entry's line is its key's).
   */
  readonly line: number
  kind: CoreYamlState['kind']
  result: unknown
  /** Child nodes in reading order (none: a scalar). */
  children: Frame[] | undefined
  /** Matched on the first lookup through the node: a mapping's entries, a sequence's items. */
  entries?: Map<string, { line: number; value: Frame | undefined }> | undefined
  items?: Frame[] | undefined
}

class Unmatched extends Error {}

function matchMapping(obj: Record<string, unknown>, children: readonly Frame[]): Map<string, { line: number; value: Frame | undefined }> {
  const entries = new Map<string, { line: number; value: Frame | undefined }>()
  for (let i = 0; i < children.length; i++) {
    const key = children[i]!
    // A key node is a scalar naming an entry (js-yaml stores String(key)); anything else read
    // here without content (an empty node) is skipped.
    if (key.kind !== 'scalar' || !Object.hasOwn(obj, String(key.result))) continue
    const name = String(key.result)
    if (entries.has(name)) throw new Unmatched()
    const next = children[i + 1]
    // `a:` with nothing after it has no value node: the next node is then the next key.
    const hasValue = next !== undefined && Object.is(next.result, obj[name])
    entries.set(name, { line: key.line, value: hasValue ? next : undefined })
    if (hasValue) i++
  }
  if (entries.size !== Object.keys(obj).length) throw new Unmatched()
  return entries
}

function matchSequence(arr: readonly unknown[], children: readonly Frame[]): Frame[] {
  const items: Frame[] = []
  let i = 0
  for (const value of arr) {
    while (i < children.length && !Object.is(children[i]!.result, value)) i++
    if (i === children.length) throw new Unmatched()
    items.push(children[i++]!)
  }
  return items
}

/** Matches a collection's children to its value, once. */
function match(frame: Frame): void {
  if (frame.entries || frame.items) return
  const children = frame.children ?? []
  const only = children.length === 1 ? children[0]! : undefined
  if (only !== undefined && only.kind === frame.kind && Object.is(only.result, frame.result)) {
    // js-yaml reads some nodes twice over (a document's flow collection, a compact sequence
    // item tried as a mapping first): the inner reading is the node.
    match(only)
    frame.entries = only.entries
    frame.items = only.items
  } else if (frame.kind === 'mapping' && frame.result !== null && typeof frame.result === 'object') {
    frame.entries = matchMapping(frame.result as Record<string, unknown>, children)
  } else if (frame.kind === 'sequence' && Array.isArray(frame.result)) frame.items = matchSequence(frame.result, children)
}

/**
 * 1-based line of the value at a path of keys and indexes (a mapping entry: its key's line), or
 * of its nearest existing ancestor; undefined where the path cannot be matched with certainty.
 */
export type LineLookup = (tokens: readonly string[]) => number | undefined

/**
 * Parses `text` with js-yaml (the core schema, as loadCoreYaml) and indexes its lines in the same
 * pass: a caller that will ask for lines reads the text once. Throws js-yaml's error on text it
 * refuses.
 */
export function loadIndexed(text: string, file?: string): { doc: unknown; index: LineLookup | undefined } {
  const top: Frame = { line: 0, kind: null, result: undefined, children: [] }
  const open: Frame[] = [top]
  const doc = loadCoreYaml(text, file, (event, state) => {
    if (event === 'open') {
      const frame: Frame = { line: state.line, kind: null, result: undefined, children: undefined }
      const parent = open[open.length - 1]!
      ;(parent.children ??= []).push(frame)
      open.push(frame)
      return
    }
    const frame = open.pop()!
    frame.kind = state.kind
    frame.result = state.result
  })
  const root = top.children!.find((f) => f.result === doc)
  return { doc, index: root === undefined ? undefined : lookup(root) }
}

/** The line lookup of `text` alone (another parser read its values), or undefined. */
export function lineIndex(text: string): LineLookup | undefined {
  try {
    return loadIndexed(text).index
  } catch {
    return undefined
  }
}

function lookup(root: Frame): LineLookup {
  return (tokens) => {
    let node: Frame | undefined = root
    let line = root.line
    try {
      for (const token of tokens) {
        match(node)
        if (node.entries) {
          const entry = node.entries.get(token)
          if (entry === undefined) break
          line = entry.line
          node = entry.value
        } else if (node.items) {
          const item: Frame | undefined = /^(0|[1-9]\d*)$/.test(token) ? node.items[Number(token)] : undefined
          if (item === undefined) break
          line = item.line
          node = item
        } else break
        if (node === undefined) break
      }
    } catch (err) {
      if (err instanceof Unmatched) return undefined
      throw err
    }
    return line + 1
  }
}
