/**
 * The line of every value of a YAML or JSON text, built in one js-yaml pass. The `yaml` package's
 * tree gave the same answers but took seconds on a 4 MB spec (its parse is several times slower
 * than js-yaml's), paid by the first finding that asked for a line. js-yaml tells a listener when
 * it opens and closes each node; a closed collection is matched to the keys and items of the value
 * it built, so the index agrees with the data. Text it cannot match with certainty (a sequence
 * item left empty, which js-yaml reads without a node) gets no index, and the caller falls back to
 * the `yaml` tree.
 */
import { type CoreYamlState, loadCoreYaml } from './js-yaml.ts'

/** One node as read: where it starts, and once closed, how to reach its children. */
interface Frame {
  /**
   * 0-based line where js-yaml began reading the node: its first character for the document and
   * a sequence item (a mapping's value may begin a line early, but an entry's line is its key's).
   */
  line: number
  kind: CoreYamlState['kind']
  result: unknown
  /** Child nodes in reading order while open; dropped once matched. */
  children: Frame[] | undefined
  /** A mapping's entries: the key's line, and the value's node when it has one. */
  entries?: Map<string, { line: number; value: Frame | undefined }>
  /** A sequence's items, in order. */
  items?: Frame[]
}

class Unmatched extends Error {}

function matchMapping(frame: Frame, children: Frame[]): void {
  const obj = frame.result as Record<string, unknown>
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
  frame.entries = entries
}

function matchSequence(frame: Frame, children: Frame[]): void {
  const arr = frame.result as unknown[]
  const items: Frame[] = []
  let i = 0
  for (const value of arr) {
    while (i < children.length && !Object.is(children[i]!.result, value)) i++
    if (i === children.length) throw new Unmatched()
    items.push(children[i++]!)
  }
  frame.items = items
}

/**
 * A line lookup for `text`: 1-based line of the value at a path of keys and indexes (a mapping
 * entry: its key's line), or of the nearest existing ancestor. Undefined when js-yaml refuses the
 * text or its nodes cannot be matched to the values with certainty.
 */
export function lineIndex(text: string): ((tokens: readonly string[]) => number) | undefined {
  const top: Frame = { line: 0, kind: null, result: undefined, children: [] }
  const open: Frame[] = [top]
  let doc: unknown
  try {
    doc = loadCoreYaml(text, undefined, (event, state) => {
      if (event === 'open') {
        const frame: Frame = { line: state.line, kind: null, result: undefined, children: [] }
        open[open.length - 1]!.children!.push(frame)
        open.push(frame)
        return
      }
      const frame = open.pop()!
      const children = frame.children!
      frame.children = undefined
      frame.kind = state.kind
      frame.result = state.result
      const only = children.length === 1 ? children[0]! : undefined
      if (only !== undefined && only.kind === state.kind && Object.is(only.result, state.result)) {
        // js-yaml reads some nodes twice over (a document's flow collection, a compact sequence
        // item tried as a mapping first): the inner reading is the node.
        frame.entries = only.entries
        frame.items = only.items
      } else if (state.kind === 'mapping' && state.result !== null && typeof state.result === 'object') matchMapping(frame, children)
      else if (state.kind === 'sequence' && Array.isArray(state.result)) matchSequence(frame, children)
    })
  } catch {
    return undefined
  }
  const root = top.children!.find((f) => f.result === doc)
  if (root === undefined) return undefined
  return (tokens) => {
    let node: Frame | undefined = root
    let line = root.line
    for (const token of tokens) {
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
    return line + 1
  }
}
