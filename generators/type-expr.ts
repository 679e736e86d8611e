/**
 * A small type-expression tree between JSON Schema and ts-morph: the schema walker builds it,
 * and the writers below print it (and whole declarations) onto a ts-morph CodeBlockWriter.
 */
import type { CodeBlockWriter, WriterFunction } from 'ts-morph'
import { propertyName, stringLiteral, writeValue } from './names.ts'

export interface Doc {
  readonly description?: string
  readonly deprecated?: boolean
  /** `x-assumed-why` of an element the source document does not show. */
  readonly assumed?: string
  /** Extra JSDoc tags, e.g. `@see`. */
  readonly tags?: readonly { readonly tagName: string; readonly text?: string }[]
}

export interface Prop {
  readonly name: string | number
  readonly type: TypeExpr
  readonly optional: boolean
  readonly doc?: Doc
}

export type Keyword = 'string' | 'number' | 'boolean' | 'null' | 'unknown' | 'never' | 'undefined' | 'bigint'

export type TypeExpr =
  | { readonly kind: 'ref'; readonly name: string }
  | { readonly kind: 'keyword'; readonly name: Keyword }
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null }
  /** `` `${prefix}${string}` `` for a pattern with a fixed literal prefix (e.g. `0x`). */
  | { readonly kind: 'template'; readonly prefix: string }
  | { readonly kind: 'union'; readonly members: readonly TypeExpr[] }
  | { readonly kind: 'intersection'; readonly members: readonly TypeExpr[] }
  | { readonly kind: 'array'; readonly items: TypeExpr }
  | { readonly kind: 'tuple'; readonly items: readonly TypeExpr[]; readonly rest?: TypeExpr }
  | { readonly kind: 'object'; readonly props: readonly Prop[]; readonly index?: TypeExpr }
  /** A type written after a `/* note *\/` comment: what the type leaves out of the schema. */
  | { readonly kind: 'noted'; readonly note: string; readonly type: TypeExpr }

export const kw = (name: Keyword): TypeExpr => ({ kind: 'keyword', name })
export const ref = (name: string): TypeExpr => ({ kind: 'ref', name })
export const lit = (value: string | number | boolean | null): TypeExpr => ({ kind: 'literal', value })

function key(t: TypeExpr): string {
  return JSON.stringify(t)
}

/** A union with duplicates removed and nested unions flattened; `unknown` absorbs everything. */
export function union(members: readonly TypeExpr[]): TypeExpr {
  const flat: TypeExpr[] = []
  const seen = new Set<string>()
  for (const m of members) {
    for (const x of m.kind === 'union' ? m.members : [m]) {
      if (x.kind === 'keyword' && x.name === 'never') continue
      const k = key(x)
      if (!seen.has(k)) {
        seen.add(k)
        flat.push(x)
      }
    }
  }
  if (flat.some((x) => x.kind === 'keyword' && x.name === 'unknown')) return kw('unknown')
  if (flat.length === 0) return kw('never')
  return flat.length === 1 ? flat[0]! : { kind: 'union', members: flat }
}

export function intersection(members: readonly TypeExpr[]): TypeExpr {
  const flat = members
    .flatMap((m) => (m.kind === 'intersection' ? m.members : [m]))
    .filter((m) => !(m.kind === 'keyword' && m.name === 'unknown'))
  if (flat.length === 0) return kw('unknown')
  return flat.length === 1 ? flat[0]! : { kind: 'intersection', members: flat }
}

/** JSDoc text for a doc: `*\/` escaped so a description can never end the comment. */
function docText(doc: Doc | undefined): { description?: string; tags: { tagName: string; text?: string }[] } | undefined {
  if (!doc) return undefined
  const clean = (s: string) => s.replace(/\*\//g, '*\\/').trimEnd()
  const tags: { tagName: string; text?: string }[] = []
  if (doc.assumed !== undefined)
    tags.push({ tagName: 'remarks', text: clean(`Assumed (not shown by the source document): ${doc.assumed}`) })
  for (const t of doc.tags ?? []) tags.push({ tagName: t.tagName, ...(t.text !== undefined ? { text: clean(t.text) } : {}) })
  if (doc.deprecated) tags.push({ tagName: 'deprecated' })
  const description = doc.description ? clean(doc.description) : undefined
  if (!description && tags.length === 0) return undefined
  return { ...(description ? { description } : {}), tags }
}

/** Writes a JSDoc block: one line when it fits, else one ` * ` line per description line and tag. */
export function writeDoc(writer: CodeBlockWriter, doc: Doc | undefined): void {
  const d = docText(doc)
  if (!d) return
  const lines = [...(d.description ? d.description.split('\n') : [])]
  for (const t of d.tags) lines.push(`@${t.tagName}${t.text ? ` ${t.text.replace(/\n/g, ' ')}` : ''}`)
  if (lines.length === 1) {
    writer.writeLine(`/** ${lines[0]} */`)
    return
  }
  writer.writeLine('/**')
  for (const l of lines) writer.writeLine(l ? ` * ${l}` : ' *')
  writer.writeLine(' */')
}

function needsParens(t: TypeExpr, context: 'array' | 'intersection'): boolean {
  if (t.kind === 'noted') return true
  if (t.kind === 'union') return true
  return context === 'array' && t.kind === 'intersection'
}

/** The one-line text of a name, keyword, literal or template type; undefined for anything else. */
function simpleText(t: TypeExpr): string | undefined {
  switch (t.kind) {
    case 'ref':
    case 'keyword':
      return t.name
    case 'literal':
      return typeof t.value === 'string' ? stringLiteral(t.value) : String(t.value)
    case 'template':
      return `\`${t.prefix}\${string}\``
    default:
      return undefined
  }
}

/** Writes a type expression. Objects are multi-line, one member per line. */
export function writeType(writer: CodeBlockWriter, t: TypeExpr): void {
  switch (t.kind) {
    case 'ref':
      writer.write(t.name)
      return
    case 'keyword':
      writer.write(t.name)
      return
    case 'literal':
      writer.write(typeof t.value === 'string' ? stringLiteral(t.value) : String(t.value))
      return
    case 'template':
      // biome-ignore lint/suspicious/noTemplateCurlyInString: this writes a TypeScript template literal type, `${string}` is its source text
      writer.write('`').write(t.prefix).write('${string}`')
      return
    case 'union':
    case 'intersection':
      t.members.forEach((m, i) => {
        if (i > 0) writer.write(t.kind === 'union' ? ' | ' : ' & ')
        const wrap = t.kind === 'intersection' && needsParens(m, 'intersection')
        if (wrap) writer.write('(')
        writeType(writer, m)
        if (wrap) writer.write(')')
      })
      return
    case 'array': {
      const wrap = needsParens(t.items, 'array')
      if (wrap) writer.write('(')
      writeType(writer, t.items)
      writer.write(wrap ? ')[]' : '[]')
      return
    }
    case 'noted': {
      writer.write(`/* ${t.note.replace(/\*\//g, '*\\/')} */ `)
      const wrap = t.type.kind === 'union' || t.type.kind === 'intersection'
      if (wrap) writer.write('(')
      writeType(writer, t.type)
      if (wrap) writer.write(')')
      return
    }
    case 'tuple':
      writer.write('[')
      t.items.forEach((m, i) => {
        if (i > 0) writer.write(', ')
        writeType(writer, m)
      })
      if (t.rest) {
        if (t.items.length > 0) writer.write(', ')
        writer.write('...')
        writeType(writer, { kind: 'array', items: t.rest })
      }
      writer.write(']')
      return
    case 'object':
      if (t.props.length === 0 && !t.index) {
        writer.write('{}')
        return
      }
      writer.write('{').newLine()
      writer.indent(() => {
        for (const p of t.props) {
          writeDoc(writer, p.doc)
          writer.write(`${propertyName(p.name)}${p.optional ? '?' : ''}: `)
          writeType(writer, p.type)
          writer.write(';').newLine()
        }
        if (t.index) {
          writer.write('[key: string]: ')
          writeType(writer, t.index)
          writer.write(';').newLine()
        }
      })
      writer.write('}')
  }
}

/*
 * Declarations are written as ts-morph writer statements rather than declaration structures:
 * ts-morph prints a structure's multi-line type or initializer with a hanging indent (every
 * line after the first one level too deep), and running its formatter to undo that costs more
 * than the whole generation. A statement writer runs at the file's own indentation (and needs
 * no TypeScript compiler, see project.ts).
 */

/** `export interface Name { ... }` for an object type. */
export function interfaceStatement(name: string, t: TypeExpr & { kind: 'object' }, doc: Doc | undefined): WriterFunction {
  return (w) => {
    w.blankLineIfLastNot()
    writeDoc(w, doc)
    w.write(`export interface ${name} `)
    writeType(w, t)
    w.newLine()
  }
}

/** `export type Name = ...;` (a string is taken as a type expression the emitter built from names). */
export function typeAliasStatement(name: string, t: TypeExpr | string, doc: Doc | undefined): WriterFunction {
  return (w) => {
    w.blankLineIfLastNot()
    writeDoc(w, doc)
    w.write(`export type ${name} =`)
    const members = typeof t !== 'string' && t.kind === 'union' ? t.members.map(simpleText) : []
    if (members.length > 0 && members.every((m) => m !== undefined) && members.join(' | ').length + name.length > 90) {
      // A long union of simple members: one member per line, as prettier prints it.
      const level = w.getIndentationLevel()
      w.setIndentationLevel(level + 1)
      for (const m of members) w.newLine().write(`| ${m}`)
      w.setIndentationLevel(level)
    } else {
      w.write(' ')
      if (typeof t === 'string') w.write(t)
      else writeType(w, t)
    }
    w.write(';').newLine()
  }
}

/** `export const name = <initializer>;` */
export function constStatement(name: string, initializer: WriterFunction, doc: Doc | undefined): WriterFunction {
  return (w) => {
    w.blankLineIfLastNot()
    writeDoc(w, doc)
    w.write(`export const ${name} = `)
    initializer(w)
    w.write(';').newLine()
  }
}

/** `export const name = <value> as const;`: a JSON-like value written as a literal. */
export function constValueStatement(name: string, value: unknown, doc: Doc | undefined): WriterFunction {
  return constStatement(
    name,
    (w) => {
      writeValue(w, value)
      w.write(' as const')
    },
    doc,
  )
}

/** A top-level declaration: an interface for an object type, a type alias for anything else. */
export function declaration(name: string, t: TypeExpr, doc: Doc | undefined): WriterFunction {
  return t.kind === 'object' ? interfaceStatement(name, t, doc) : typeAliasStatement(name, t, doc)
}

/** `export function name(params): returnType { body }` with a one-statement-per-line body. */
export function functionStatement(
  name: string,
  parameters: readonly { readonly name: string; readonly type: string }[],
  returnType: string,
  body: WriterFunction,
  doc: Doc | undefined,
): WriterFunction {
  return (w) => {
    w.blankLineIfLastNot()
    writeDoc(w, doc)
    w.write(`export function ${name}(${parameters.map((p) => `${p.name}: ${p.type}`).join(', ')}): ${returnType} `)
    w.inlineBlock(() => body(w))
    w.newLine()
  }
}
