/**
 * Identifier and literal helpers shared by the emitters. The spec names things freely (schema
 * keys with dashes, header names, numeric codes); generated TypeScript needs valid, unique names.
 */
import type { CodeBlockWriter } from 'ts-morph'

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

// Words that cannot name a type or a value declaration.
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with implements interface let ' +
    'package private protected public static yield any boolean number string symbol bigint object never unknown undefined type'
  ).split(' '),
)

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name)
}

/** `Foo-bar.baz` → `FooBarBaz`; keeps existing inner capitals; a leading digit gets `_`. */
export function pascalCase(name: string): string {
  const parts = name.split(/[^A-Za-z0-9]+/).filter(Boolean)
  let out = parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('')
  if (out === '') out = 'Unnamed'
  if (/^[0-9]/.test(out)) out = `_${out}`
  return out
}

/** `PlaceOrderWithoutRoute` → `placeOrderWithoutRoute`; `market_maker` → `marketMaker`. */
export function camelCase(name: string): string {
  const p = pascalCase(name)
  const out = p.startsWith('_') ? p : p[0]!.toLowerCase() + p.slice(1)
  return RESERVED.has(out) ? `${out}_` : out
}

/** A property name as it must appear in source: bare when it is an identifier or a plain number. */
export function propertyName(name: string | number): string {
  if (typeof name === 'number') return String(name)
  if (isIdentifier(name) || /^(0|[1-9][0-9]*)$/.test(name)) return name
  return stringLiteral(name)
}

/** A single-quoted TypeScript string literal, escaped so any text round-trips on one line. */
export function stringLiteral(text: string): string {
  let out = "'"
  for (const ch of text) {
    const c = ch.codePointAt(0)!
    if (ch === "'" || ch === '\\') out += `\\${ch}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (c < 0x20 || c === 0x2028 || c === 0x2029 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`
    else out += ch
  }
  return out + "'"
}

/** A value written on one line, or undefined when it holds an object or is too long for one. */
function inline(value: unknown, depth = 0): string | undefined {
  if (value === null) return 'null'
  if (typeof value === 'string') return stringLiteral(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value === 'bigint') return `${value}n`
  if (Array.isArray(value)) {
    const parts = value.map((v) => inline(v, depth + 1))
    if (parts.some((p) => p === undefined)) return undefined
    const text = `[${parts.join(', ')}]`
    return text.length <= 100 ? text : undefined
  }
  if (typeof value === 'object' && depth > 0) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    if (entries.length === 0) return '{}'
    const parts = entries.map(([k, v]) => (v !== null && typeof v === 'object' ? undefined : `${propertyName(k)}: ${inline(v, depth + 1)}`))
    if (parts.some((p) => p === undefined)) return undefined
    const text = `{ ${parts.join(', ')} }`
    return text.length <= 80 ? text : undefined
  }
  return undefined
}

/**
 * Writes a JSON-like value as a TypeScript literal: a top-level object one key per line, short
 * flat objects and arrays inline, longer ones one element per line.
 */
export function writeValue(writer: CodeBlockWriter, value: unknown, depth = 0): void {
  const one = inline(value, depth)
  if (one !== undefined) {
    writer.write(one)
    return
  }
  if (Array.isArray(value)) {
    writer.write('[').newLine()
    writer.indent(() => {
      for (const v of value) {
        writeValue(writer, v, depth + 1)
        writer.write(',').newLine()
      }
    })
    writer.write(']')
    return
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
  if (entries.length === 0) {
    writer.write('{}')
    return
  }
  writer.write('{').newLine()
  writer.indent(() => {
    for (const [k, v] of entries) {
      writer.write(`${propertyName(k)}: `)
      writeValue(writer, v, depth + 1)
      writer.write(',').newLine()
    }
  })
  writer.write('}')
}

/** Hands out unique exported names across all generated files, so `export *` never collides. */
export class NameRegistry {
  private readonly taken = new Set<string>()
  private readonly roles = new Map<string, string>()

  /** Claims `base`, or `base2`, `base3`, ... when taken. */
  claim(base: string): string {
    let name = RESERVED.has(base) ? `${base}_` : base
    for (let n = 2; this.taken.has(name); n++) name = `${base}${n}`
    this.taken.add(name)
    return name
  }

  /** Claims a name for a declaration another file refers to by its role (e.g. the operations map). */
  claimAs(role: string, base: string): string {
    const name = this.claim(base)
    this.roles.set(role, name)
    return name
  }

  /** The name claimed for `role`, if that file was generated. */
  nameOf(role: string): string | undefined {
    return this.roles.get(role)
  }

  has(name: string): boolean {
    return this.taken.has(name)
  }
}
