/**
 * JSON Schema (OpenAPI 3.0/3.1 dialect) → TypeExpr. Constructs a TypeScript type cannot express
 * faithfully are refused with one line naming the JSON pointer, rather than silently widened.
 */
import { InputError } from '../src/errors.ts'
import { getPointer, isObject, type JsonObject } from '../src/contract/model.ts'
import { toPointer } from '../src/contract/source.ts'
import { intersection, kw, lit, union, type Doc, type Prop, type TypeExpr } from './type-expr.ts'

/** Keywords that change the set of valid values in ways a structural TS type cannot follow. */
const UNSUPPORTED = [
  'patternProperties',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependencies',
  'unevaluatedItems',
  '$dynamicRef',
  '$recursiveRef',
] as const

/**
 * Which side of an exchange a type is for: `write` (a request) leaves out `readOnly` properties,
 * `read` (a response) leaves out `writeOnly` ones; `both` (a component's own type) keeps all.
 */
export type Direction = 'both' | 'read' | 'write'

export interface SchemaContext {
  readonly doc: Record<string, unknown>
  readonly file: string
  lineOf(pointer: string): number
  /**
   * The generated type name of a `$ref` target, when the target is a named component; for a
   * direction, the name of its request or response variant when it has one.
   */
  refName(ref: string, direction?: Direction): string | undefined
}

/** One line naming file, line and JSON pointer: what the CLI prints for an input it cannot handle. */
export function specError(ctx: SchemaContext, pointer: string, what: string): InputError {
  return new InputError(`${ctx.file}:${ctx.lineOf(pointer)}: ${what} at #${pointer}`)
}

export function child(pointer: string, ...tokens: (string | number)[]): string {
  return pointer + toPointer(tokens)
}

/** The doc of a schema node (description or title, deprecated, x-assumed). */
export function docOf(node: unknown): Doc | undefined {
  if (!isObject(node)) return undefined
  const description = typeof node.description === 'string' ? node.description : typeof node.title === 'string' ? node.title : undefined
  const doc: Doc = {
    ...(description ? { description: description.trim() } : {}),
    ...(node.deprecated === true ? { deprecated: true } : {}),
    ...(node['x-assumed'] === true ? { assumed: typeof node['x-assumed-why'] === 'string' ? node['x-assumed-why'] : 'yes' } : {}),
  }
  return Object.keys(doc).length > 0 ? doc : undefined
}

const IS_LITERAL_CHAR = /[A-Za-z0-9_:/-]/

/** True when the regex has a `|` outside any group or class (so no prefix is fixed). */
function topLevelAlternation(pattern: string): boolean {
  let depth = 0
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\') i++
    else if (inClass) inClass = c !== ']'
    else if (c === '[') inClass = true
    else if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === '|' && depth === 0) return true
  }
  return false
}

/** `^0x[0-9a-f]{40}$` → `0x`: the literal text every match starts with, if any. */
export function literalPrefix(pattern: string): string | undefined {
  if (!pattern.startsWith('^') || topLevelAlternation(pattern)) return undefined
  let prefix = ''
  let i = 1
  while (i < pattern.length) {
    let ch = pattern[i]!
    let width = 1
    if (ch === '\\' && /[./_:-]/.test(pattern[i + 1] ?? '')) {
      ch = pattern[i + 1]!
      width = 2
    } else if (!IS_LITERAL_CHAR.test(ch)) break
    const next = pattern[i + width] ?? ''
    if ('?*{'.includes(next) && next !== '') break
    prefix += ch
    if (next === '+') break
    i += width
  }
  return prefix === '' ? undefined : prefix
}

/** A property left out of one direction's type: `readOnly` from requests, `writeOnly` from responses. */
export function hiddenIn(direction: Direction, prop: unknown, doc: Record<string, unknown>): boolean {
  if (direction === 'both') return false
  const flag = direction === 'write' ? 'readOnly' : 'writeOnly'
  if (isObject(prop) && prop[flag] === true) return true
  const target = isObject(prop) && typeof prop.$ref === 'string' && prop.$ref.startsWith('#') ? getPointer(doc, prop.$ref) : undefined
  return isObject(target) && target[flag] === true
}

export class SchemaWalker {
  constructor(
    private readonly ctx: SchemaContext,
    private readonly direction: Direction = 'both',
  ) {}

  /** The same walker for one side of an exchange. */
  toward(direction: Direction): SchemaWalker {
    return direction === this.direction ? this : new SchemaWalker(this.ctx, direction)
  }

  /** Converts the schema at `pointer` (a JSON pointer without `#`). */
  convert(node: unknown, pointer: string, stack: readonly string[] = []): TypeExpr {
    if (node === undefined || node === true) return kw('unknown')
    if (node === false) return kw('never')
    if (!isObject(node)) throw specError(this.ctx, pointer, 'not a schema (expected a mapping)')

    if (typeof node.$ref === 'string') return this.reference(node.$ref, pointer, stack)
    for (const k of UNSUPPORTED) {
      if (k in node)
        throw specError(
          this.ctx,
          child(pointer, k),
          `unsupported JSON Schema construct "${k}" (oec generate cannot express it as a TypeScript type)`,
        )
    }
    if ('unevaluatedProperties' in node && node.unevaluatedProperties !== false) {
      throw specError(
        this.ctx,
        child(pointer, 'unevaluatedProperties'),
        'unsupported JSON Schema construct "unevaluatedProperties" (oec generate cannot express it as a TypeScript type)',
      )
    }

    const parts: TypeExpr[] = []
    const base = this.base(node, pointer, stack)
    if (base) parts.push(base)
    if (Array.isArray(node.allOf)) node.allOf.forEach((s, i) => parts.push(this.convert(s, child(pointer, 'allOf', i), stack)))
    for (const k of ['oneOf', 'anyOf'] as const) {
      const list = node[k]
      if (Array.isArray(list)) {
        parts.push(union(list.map((s, i) => this.narrow(node, s, this.convert(s, child(pointer, k, i), stack)))))
      }
    }
    let t = intersection(parts)
    if (node.nullable === true) t = union([t, kw('null')])
    // A TypeScript type cannot subtract a schema: as openapi-typescript does, `not` leaves the
    // type as wide as the rest of the schema (`unknown` when `not` stands alone), and says so.
    if ('not' in node) t = { kind: 'noted', note: `JSON Schema "not" at #${pointer}: its excluded values are not expressed`, type: t }
    return t
  }

  /**
   * A member of a union with a `discriminator`: its tag property is the literal(s) that select
   * it (the `mapping` keys that name it, else its component name), so a check of the tag
   * narrows the union as it does in openapi-typescript's output.
   */
  private narrow(parent: JsonObject, member: unknown, t: TypeExpr): TypeExpr {
    const d = parent.discriminator
    if (!isObject(d) || typeof d.propertyName !== 'string' || !isObject(member) || typeof member.$ref !== 'string') return t
    const ref = member.$ref
    const mapping = isObject(d.mapping) ? d.mapping : {}
    const mapped = Object.entries(mapping)
      .filter(([, target]) => target === ref || (typeof target === 'string' && !target.includes('/') && ref.endsWith(`/${target}`)))
      .map(([tag]) => tag)
    const tags =
      mapped.length > 0
        ? mapped
        : [
            decodeURIComponent(ref.slice(ref.lastIndexOf('/') + 1))
              .replace(/~1/g, '/')
              .replace(/~0/g, '~'),
          ]
    return intersection([t, { kind: 'object', props: [{ name: d.propertyName, type: union(tags.map((v) => lit(v))), optional: false }] }])
  }

  private reference(ref: string, pointer: string, stack: readonly string[]): TypeExpr {
    if (!ref.startsWith('#'))
      throw specError(this.ctx, child(pointer, '$ref'), `unsupported external $ref "${ref}" (bundle the spec into one file first)`)
    const name = this.ctx.refName(ref, this.direction)
    if (name) return { kind: 'ref', name }
    const target = getPointer(this.ctx.doc, ref)
    if (target === undefined) throw specError(this.ctx, child(pointer, '$ref'), `unresolved $ref "${ref}"`)
    if (stack.includes(ref)) throw specError(this.ctx, child(pointer, '$ref'), `circular $ref "${ref}" to an unnamed schema`)
    return this.convert(target, ref.slice(1), [...stack, ref])
  }

  /** A required name described by a sibling `allOf` member (its type comes from there, not `unknown`). */
  private inherited(node: JsonObject, name: string): boolean {
    if (!Array.isArray(node.allOf)) return false
    return node.allOf.some((m) => {
      const s = isObject(m) && typeof m.$ref === 'string' ? getPointer(this.ctx.doc, m.$ref) : m
      return isObject(s) && isObject(s.properties) && name in s.properties
    })
  }

  /** The type implied by `const`, `enum` and `type` (undefined when only composition is given). */
  private base(node: JsonObject, pointer: string, stack: readonly string[]): TypeExpr | undefined {
    const primitive = (v: unknown): v is string | number | boolean | null =>
      v === null || ['string', 'number', 'boolean'].includes(typeof v)
    if ('const' in node && primitive(node.const)) return lit(node.const)
    if (Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every(primitive)) return union(node.enum.map((v) => lit(v)))
    let types: unknown = node.type
    if (types === undefined) {
      if ('properties' in node || 'additionalProperties' in node || 'required' in node) types = 'object'
      else if ('items' in node || 'prefixItems' in node) types = 'array'
      else return undefined
    }
    const list = Array.isArray(types) ? types : [types]
    return union(list.map((t) => this.ofType(node, t, pointer, stack)))
  }

  private ofType(node: JsonObject, type: unknown, pointer: string, stack: readonly string[]): TypeExpr {
    switch (type) {
      case 'string': {
        const prefix = typeof node.pattern === 'string' ? literalPrefix(node.pattern) : undefined
        return prefix ? { kind: 'template', prefix } : kw('string')
      }
      case 'integer':
      case 'number': {
        // A 64-bit integer does not fit a JS number; the body may carry it exactly as a bigint.
        const wide =
          node.format === 'int64' ||
          node.format === 'uint64' ||
          (typeof node.maximum === 'number' && node.maximum > Number.MAX_SAFE_INTEGER)
        return wide ? union([kw('number'), kw('bigint')]) : kw('number')
      }
      case 'boolean':
        return kw('boolean')
      case 'null':
        return kw('null')
      case 'array':
        return this.array(node, pointer, stack)
      case 'object':
        return this.object(node, pointer, stack)
      default:
        throw specError(this.ctx, child(pointer, 'type'), `unknown schema type ${JSON.stringify(type)}`)
    }
  }

  private array(node: JsonObject, pointer: string, stack: readonly string[]): TypeExpr {
    if (Array.isArray(node.prefixItems)) {
      const items = node.prefixItems.map((s, i) => this.convert(s, child(pointer, 'prefixItems', i), stack))
      if (node.items === false) return { kind: 'tuple', items }
      return { kind: 'tuple', items, rest: this.convert(node.items, child(pointer, 'items'), stack) }
    }
    return { kind: 'array', items: this.convert(node.items, child(pointer, 'items'), stack) }
  }

  private object(node: JsonObject, pointer: string, stack: readonly string[]): TypeExpr {
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : [])
    const props: Prop[] = []
    const properties = isObject(node.properties) ? node.properties : {}
    for (const [name, sub] of Object.entries(properties)) {
      if (hiddenIn(this.direction, sub, this.ctx.doc)) continue
      const doc = docOf(sub)
      props.push({
        name,
        type: this.convert(sub, child(pointer, 'properties', name), stack),
        optional: !required.has(name),
        ...(doc ? { doc } : {}),
      })
    }
    // `required` naming a property the schema does not describe still makes it required.
    for (const name of required)
      if (!(name in properties) && !this.inherited(node, name)) props.push({ name, type: kw('unknown'), optional: false })

    const ap = node.additionalProperties
    // additionalProperties: false is a closed type: TypeScript's excess-property check then
    // rejects a misspelled key in an object literal. Anything else stays open to unknown keys.
    if (ap === false) return { kind: 'object', props, ...(props.length === 0 ? { index: kw('never') } : {}) }
    let index = ap === undefined || ap === true ? kw('unknown') : this.convert(ap, child(pointer, 'additionalProperties'), stack)
    if (index.kind !== 'keyword' || index.name !== 'unknown') {
      // Every declared property must fit the index signature.
      index = union([index, ...props.map((p) => p.type), ...(props.some((p) => p.optional) ? [kw('undefined')] : [])])
    }
    return { kind: 'object', props, index }
  }
}
