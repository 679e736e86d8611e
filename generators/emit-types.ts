/**
 * types.ts: one declaration per component schema, then per operation its request body, query
 * (and path/header) parameters, responses by status and response headers, and an `Operations`
 * map tying them to method and path.
 */
import type { WriterFunction } from 'ts-morph'
import { getPointer, isObject, type JsonObject } from '../src/contract/model.ts'
import type { Contract } from '../src/contract/load.ts'
import { toPointer } from '../src/contract/source.ts'
import { pascalCase, type NameRegistry } from './names.ts'
import { openapiFetchInterfaces, type FetchOperation } from './emit-paths.ts'
import { child, docOf, SchemaWalker, specError, type Direction, type SchemaContext } from './schema.ts'
import { declaration, kw, lit, ref, typeAliasStatement, union, type Prop } from './type-expr.ts'

const SCHEMAS = '/components/schemas'

/** Follows local `$ref`s, keeping the pointer of the node finally reached (for messages). */
function resolve(ctx: SchemaContext, node: unknown, pointer: string): { node: unknown; pointer: string } {
  const seen = new Set<string>()
  while (isObject(node) && typeof node.$ref === 'string') {
    const r = node.$ref
    if (!r.startsWith('#'))
      throw specError(ctx, child(pointer, '$ref'), `unsupported external $ref "${r}" (bundle the spec into one file first)`)
    if (seen.has(r)) throw specError(ctx, child(pointer, '$ref'), `circular $ref "${r}"`)
    seen.add(r)
    const target = getPointer(ctx.doc, r)
    if (target === undefined) throw specError(ctx, child(pointer, '$ref'), `unresolved $ref "${r}"`)
    node = target
    pointer = r.slice(1)
  }
  return { node, pointer }
}

/** The schema of a `content` map: JSON first, as the toolkit's bodies are JSON. */
function contentSchema(content: unknown, pointer: string): { schema: unknown; pointer: string; media: string } | undefined {
  if (!isObject(content)) return undefined
  const keys = Object.keys(content)
  const media = keys.find((k) => k === 'application/json') ?? keys.find((k) => /json/i.test(k)) ?? keys[0]
  if (media === undefined) return undefined
  const m = content[media]
  return { schema: isObject(m) ? m.schema : undefined, pointer: child(pointer, 'content', media, 'schema'), media }
}

const PARAM_GROUPS = { query: 'Query', path: 'PathParams', header: 'RequestHeaders', cookie: 'Cookies' } as const

export function emitTypes(spec: Contract, names: NameRegistry): WriterFunction[] {
  const schemas = isObject(getPointer(spec.doc, SCHEMAS)) ? (getPointer(spec.doc, SCHEMAS) as JsonObject) : {}
  const refNames = new Map<string, string>()
  const schemaNames: [string, string][] = []
  for (const key of Object.keys(schemas)) {
    const name = names.claim(pascalCase(key))
    schemaNames.push([key, name])
    refNames.set(`#${SCHEMAS}${toPointer([key])}`, name)
  }
  const variants = new DirectionVariants(spec.doc, refNames, names)
  const ctx: SchemaContext = {
    doc: spec.doc,
    file: spec.file,
    lineOf: (p) => spec.lineOf(p),
    refName: (r, direction) => variants.name(r, direction ?? 'both'),
  }
  const walker = new SchemaWalker(ctx)
  const writer = walker.toward('write')
  const reader = walker.toward('read')
  const out: WriterFunction[] = []

  for (const [key, name] of schemaNames) {
    const pointer = SCHEMAS + toPointer([key])
    out.push(declaration(name, walker.convert(schemas[key], pointer), docOf(schemas[key])))
  }
  const fetchOps: FetchOperation[] = []

  const operationsMap: Prop[] = []
  for (const op of spec.operations) {
    const raw = getPointer(spec.doc, op.pointer) as JsonObject
    const pathPointer = op.pointer.slice(0, op.pointer.lastIndexOf('/'))
    const pathItem = getPointer(spec.doc, pathPointer) as JsonObject
    const base = pascalCase(op.operationId)
    const entry: Prop[] = [
      { name: 'method', type: lit(op.method), optional: false },
      { name: 'path', type: lit(op.path), optional: false },
    ]
    let fetchBody: FetchOperation['body']
    const fetchParams: FetchOperation['params'] = {}
    const fetchResponses: FetchOperation['responses'][number][] = []

    // Request body.
    if (raw.requestBody !== undefined) {
      const body = resolve(ctx, raw.requestBody, child(op.pointer, 'requestBody'))
      const c = isObject(body.node) ? contentSchema(body.node.content, body.pointer) : undefined
      if (c) {
        const bodyType = writer.convert(c.schema, c.pointer)
        const required = isObject(body.node) && body.node.required === true
        const t = required ? bodyType : union([bodyType, kw('undefined')])
        fetchBody = { media: c.media, type: bodyType, required }
        const name = names.claim(`${base}Body`)
        const bodyDoc = docOf(body.node)
        out.push(
          typeAliasStatement(name, t, { ...bodyDoc, description: bodyDoc?.description ?? `Request body of ${op.method} ${op.path}.` }),
        )
        entry.push({ name: 'body', type: ref(name), optional: false })
      }
    }

    // Parameters: path-item level first, operation level overrides by (in, name).
    const params = new Map<string, { node: JsonObject; pointer: string }>()
    for (const [owner, ownerPointer] of [
      [pathItem, pathPointer],
      [raw, op.pointer],
    ] as const) {
      const list = owner.parameters
      if (!Array.isArray(list)) continue
      list.forEach((p, i) => {
        const r = resolve(ctx, p, child(ownerPointer, 'parameters', i))
        if (!isObject(r.node)) throw specError(ctx, r.pointer, 'a parameter must be a mapping')
        params.set(`${String(r.node.in)}\u0000${String(r.node.name)}`, { node: r.node, pointer: r.pointer })
      })
    }
    for (const [where, suffix] of Object.entries(PARAM_GROUPS)) {
      const group = [...params.values()].filter((p) => p.node.in === where)
      if (group.length === 0) continue
      const props: Prop[] = group.map(({ node, pointer }) => {
        const schema = 'schema' in node ? { schema: node.schema, pointer: child(pointer, 'schema') } : contentSchema(node.content, pointer)
        const doc = docOf(node)
        return {
          name: String(node.name),
          type: writer.convert(schema?.schema, schema?.pointer ?? pointer),
          optional: !(node.required === true || where === 'path'),
          ...(doc ? { doc } : {}),
        }
      })
      const name = names.claim(`${base}${suffix}`)
      fetchParams[where as keyof typeof PARAM_GROUPS] = { name, required: props.some((p) => !p.optional) }
      out.push(declaration(name, { kind: 'object', props }, { description: `${where} parameters of ${op.method} ${op.path}.` }))
      entry.push({
        name: where === 'query' ? 'query' : where === 'path' ? 'pathParams' : where === 'header' ? 'requestHeaders' : 'cookies',
        type: ref(name),
        optional: false,
      })
    }

    // Responses by status, and their headers.
    const responses: Prop[] = []
    const headers: Prop[] = []
    const rawResponses = isObject(raw.responses) ? raw.responses : {}
    for (const status of Object.keys(rawResponses)) {
      const r = resolve(ctx, rawResponses[status], child(op.pointer, 'responses', status))
      if (!isObject(r.node)) throw specError(ctx, r.pointer, 'a response must be a mapping')
      const c = contentSchema(r.node.content, r.pointer)
      const doc = docOf(r.node)
      const key = /^[1-5][0-9][0-9]$/.test(status) ? Number(status) : status
      const type = c ? reader.convert(c.schema, c.pointer) : kw('undefined')
      fetchResponses.push({ status: key, ...(c ? { media: c.media, type } : {}) })
      responses.push({
        name: key,
        type,
        optional: false,
        ...(doc ? { doc } : {}),
      })
      if (isObject(r.node.headers)) {
        const hprops: Prop[] = []
        for (const [hname, h] of Object.entries(r.node.headers)) {
          const hr = resolve(ctx, h, child(r.pointer, 'headers', hname))
          if (!isObject(hr.node)) throw specError(ctx, hr.pointer, 'a header must be a mapping')
          const schema =
            'schema' in hr.node
              ? { schema: hr.node.schema, pointer: child(hr.pointer, 'schema') }
              : contentSchema(hr.node.content, hr.pointer)
          const hdoc = docOf(hr.node)
          hprops.push({
            name: hname,
            type: reader.convert(schema?.schema, schema?.pointer ?? hr.pointer),
            optional: hr.node.required !== true,
            ...(hdoc ? { doc: hdoc } : {}),
          })
        }
        if (hprops.length > 0) headers.push({ name: key, type: { kind: 'object', props: hprops }, optional: false })
      }
    }
    const respName = names.claim(`${base}Responses`)
    out.push(
      declaration(
        respName,
        { kind: 'object', props: responses },
        { description: `Response bodies of ${op.method} ${op.path} by HTTP status.` },
      ),
    )
    entry.push({ name: 'responses', type: ref(respName), optional: false })
    if (headers.length > 0) {
      const headName = names.claim(`${base}ResponseHeaders`)
      out.push(
        declaration(
          headName,
          { kind: 'object', props: headers },
          { description: `Response headers of ${op.method} ${op.path} by HTTP status.` },
        ),
      )
      entry.push({ name: 'responseHeaders', type: ref(headName), optional: false })
    }

    fetchOps.push({
      operationId: op.operationId,
      method: op.method.toLowerCase(),
      path: op.path,
      params: fetchParams,
      ...(fetchBody ? { body: fetchBody } : {}),
      responses: fetchResponses,
    })
    const summary = [raw.summary, raw.description].filter((s): s is string => typeof s === 'string').map((s) => s.trim())
    const opDoc = docOf(raw)
    operationsMap.push({
      name: op.operationId,
      type: { kind: 'object', props: entry },
      optional: false,
      doc: {
        ...opDoc,
        description: [`${op.method} ${op.path}`, ...summary].join('\n\n'),
      },
    })
  }

  const opsName = names.claimAs('operations', 'Operations')
  out.push(
    declaration(
      opsName,
      { kind: 'object', props: operationsMap },
      { description: 'Every operation of the spec by operationId: method, path and the types above.' },
    ),
  )
  out.push(typeAliasStatement(names.claim('OperationId'), `keyof ${opsName}`, { description: 'An operationId of the spec.' }))
  out.push(...variants.drain(walker))
  out.push(...openapiFetchInterfaces(fetchOps, schemaNames, names))
  return out
}

/**
 * The request (`write`) and response (`read`) variants of the components that reach a
 * `readOnly` or `writeOnly` property, declared on first use: `Pet` keeps every property,
 * `PetWrite` (request bodies) lacks the readOnly ones and `PetRead` (responses) the writeOnly ones.
 */
class DirectionVariants {
  private readonly reaches = new Map<string, boolean>()
  private readonly declared = new Map<string, string>()
  private readonly pending: { ref: string; direction: Direction; name: string }[] = []

  constructor(
    private readonly doc: Record<string, unknown>,
    private readonly refNames: ReadonlyMap<string, string>,
    private readonly names: NameRegistry,
  ) {}

  name(ref: string, direction: Direction): string | undefined {
    const base = this.refNames.get(ref)
    if (base === undefined || direction === 'both' || !this.hasFlag(ref, direction === 'write' ? 'readOnly' : 'writeOnly')) return base
    const key = `${direction} ${ref}`
    let name = this.declared.get(key)
    if (name === undefined) {
      name = this.names.claim(`${base}${direction === 'write' ? 'Write' : 'Read'}`)
      this.declared.set(key, name)
      this.pending.push({ ref, direction, name })
    }
    return name
  }

  /** Declares every variant asked for so far (declaring one may ask for more). */
  drain(walker: SchemaWalker): WriterFunction[] {
    const out: WriterFunction[] = []
    for (let next = this.pending.shift(); next; next = this.pending.shift()) {
      const schema = getPointer(this.doc, next.ref)
      const what =
        next.direction === 'write' ? 'in a request (readOnly properties left out)' : 'in a response (writeOnly properties left out)'
      const doc = docOf(schema)
      out.push(
        declaration(next.name, walker.toward(next.direction).convert(schema, next.ref.slice(1)), {
          ...doc,
          description: `${doc?.description ? `${doc.description}\n\n` : ''}${this.refNames.get(next.ref)} ${what}.`,
        }),
      )
    }
    return out
  }

  /** Does the schema at `ref`, or one it reaches, carry `flag: true`? */
  private hasFlag(ref: string, flag: 'readOnly' | 'writeOnly'): boolean {
    const key = `${flag} ${ref}`
    const known = this.reaches.get(key)
    if (known !== undefined) return known
    this.reaches.set(key, false) // a cycle adds nothing
    const scan = (node: unknown): boolean => {
      if (Array.isArray(node)) return node.some(scan)
      if (!isObject(node)) return false
      if (node[flag] === true) return true
      if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) return this.hasFlag(node.$ref, flag)
      return Object.entries(node).some(([k, v]) => k !== 'example' && k !== 'examples' && k !== 'default' && scan(v))
    }
    const result = scan(getPointer(this.doc, ref))
    this.reaches.set(key, result)
    return result
  }
}
