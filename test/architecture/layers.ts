/**
 * The layering check as a pure function: an import graph and a layer table in, the violations
 * out, each one line. The table lists layers top to bottom, each a set of rooms (a folder such
 * as `src/check/explore/`, or one file such as `src/errors.ts`); a file belongs to the most
 * particular room that holds it. An arrow may stay inside its room or go down to a lower layer;
 * an arrow up, or sideways into another room of the same layer, is a violation, and so is any
 * import circle between files (type-only imports included: a circle of types still ties the
 * files to each other), and so is an `import()` of a computed path, whose arrow no one can see.
 * The same function judges src/ and the planted trees of test/fixtures/layers/, so a test can
 * show that it fails.
 */
import type { ImportGraph } from './imports.ts'

export interface Layer {
  readonly name: string
  /** Folders end with `/`; anything else names one file. */
  readonly rooms: readonly string[]
}

export type Violation =
  | { readonly kind: 'unplaced'; readonly file: string }
  | { readonly kind: 'empty-room'; readonly room: string }
  | { readonly kind: 'unresolved' | 'computed'; readonly file: string; readonly line: number; readonly specifier: string }
  | {
      readonly kind: 'upward' | 'sideways'
      readonly file: string
      readonly line: number
      readonly to: string
      readonly from: Place
      readonly into: Place
    }
  | { readonly kind: 'circle'; readonly files: readonly string[] }

/** Where a file sits: its room and its layer (0 = top). */
export interface Place {
  readonly room: string
  readonly layer: number
  readonly layerName: string
}

/** The layer table of a Markdown page: the lines of its ```layers block, `name room room ...`, top first. */
export function parseLayers(markdown: string): Layer[] {
  const block = /^```layers\n([\s\S]*?)^```/m.exec(markdown)
  if (!block) throw new Error('no ```layers block: the page must list the layers, top first, one per line')
  return block[1]!
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((words) => words[0])
    .map(([name, ...rooms]) => ({ name: name!, rooms }))
}

const holds = (room: string, file: string) => (room.endsWith('/') ? file.startsWith(room) : file === room)

/** The room of `file`: the most particular one that holds it. */
export function placeOf(layers: readonly Layer[], file: string): Place | undefined {
  let best: Place | undefined
  layers.forEach((layer, i) => {
    for (const room of layer.rooms)
      if (holds(room, file) && (!best || room.length > best.room.length)) best = { room, layer: i, layerName: layer.name }
  })
  return best
}

/** Every violation of the table by the graph: no exceptions are kept. */
export function checkLayers(graph: ImportGraph, layers: readonly Layer[]): Violation[] {
  const out: Violation[] = []
  const files = [...graph.keys()]
  for (const layer of layers)
    for (const room of layer.rooms)
      if (!files.some((f) => holds(room, f) && placeOf(layers, f)?.room === room)) out.push({ kind: 'empty-room', room })
  for (const [file, imports] of graph) {
    const from = placeOf(layers, file)
    if (!from) {
      out.push({ kind: 'unplaced', file })
      continue
    }
    for (const { to, line, unresolved, computed } of imports) {
      if (unresolved || computed) {
        out.push({ kind: computed ? 'computed' : 'unresolved', file, line, specifier: to })
        continue
      }
      const into = placeOf(layers, to)
      if (!into || into.room === from.room || into.layer > from.layer) continue
      out.push({ kind: into.layer < from.layer ? 'upward' : 'sideways', file, line, to, from, into })
    }
  }
  for (const files of importCircles(graph)) out.push({ kind: 'circle', files })
  return out
}

/**
 * The import circles: every set of files that reach each other (Tarjan's strongly connected
 * components; a file that imports itself is a circle of one), each sorted, in file order.
 */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  const visit = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const { to } of graph.get(v) ?? []) {
      if (!graph.has(to)) continue
      if (!index.has(to)) {
        visit(to)
        low.set(v, Math.min(low.get(v)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      component.push(w)
    } while (w !== v)
    const selfImport = (graph.get(v) ?? []).some((i) => i.to === v)
    if (component.length > 1 || selfImport) circles.push(component.sort())
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v)
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

/** One line per violation, naming what is wrong and where. */
export function describeViolation(v: Violation): string {
  switch (v.kind) {
    case 'unplaced':
      return `${v.file}: in no room of the layer table (add its folder to a layer)`
    case 'empty-room':
      return `${v.room}: a room of the layer table that holds no file (remove it or fix its path)`
    case 'unresolved':
      return `${v.file}:${v.line}: '${v.specifier}' names no file of the tree`
    case 'computed':
      return `${v.file}:${v.line}: import() of a computed path (${v.specifier}): write each path out, so the check can follow it`
    case 'upward':
    case 'sideways': {
      const how =
        v.kind === 'upward' ? `up from layer ${v.from.layerName} to ${v.into.layerName}` : `sideways within layer ${v.from.layerName}`
      return `${v.file}:${v.line}: imports ${v.to}, ${how} (${v.from.room} -> ${v.into.room})`
    }
    case 'circle':
      return `import circle: ${v.files.join(', ')}`
  }
}
