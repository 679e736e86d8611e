import { readFileSync } from 'node:fs'
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml'
import { InputError } from '../errors.ts'

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
  return tokens.map((t) => '/' + String(t).replace(/~/g, '~0').replace(/\//g, '~1')).join('')
}

/** Parses spec text. Throws InputError naming the line of the first YAML error. */
export function parseSpecText(text: string, file: string): SpecSource {
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

  const lineOf = (pointer: string): number => {
    let node: unknown = yamlDoc.contents
    let line = 1
    const at = (n: unknown) => {
      const range = (n as Node | undefined)?.range
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

  return { file, text, doc: doc as Record<string, unknown>, lineOf }
}

export function readSpecFile(path: string): SpecSource {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (code ?? 'unreadable')
    throw new InputError(`cannot read spec ${path}: ${why}`)
  }
  return parseSpecText(text, path)
}
