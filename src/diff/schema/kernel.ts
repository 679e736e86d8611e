/**
 * The walker's kernel: what every keyword family of the schema comparison works with (the
 * context, a pair of nodes, the change records) and the one way back into the walk. A family
 * never imports the walker (index.ts): it recurses through `pair.walk`, the walker passed down
 * with each pair, as oasdiff passes its walker to its checkers. So the arrows run one way,
 * index.ts → families → kernel.ts, and the walk still reaches every depth.
 */
import { isObject, type JsonObject } from '../../contract/model.ts'
import type { ChangeExtra, ChangeSink } from '../collect.ts'
import type { DiffRuleId, SchemaSuffix } from '../registry.ts'
import type { Sameness } from '../same.ts'

export type Direction = 'request' | 'response'
/** Where the schema sits: it decides the rule id family (`header`: a response header). */
export type Site = 'body' | 'parameter' | 'header-parameter' | 'header'

/**
 * A change found inside a schema, relative to the schema it was found from: `rel` is the
 * property path below it, and `text` builds the sentence from the element's name. Records are
 * memoized per schema pair, so a shared component is compared once, however many operations
 * use it, and each operation still names the element by its own path (`orders[].route`).
 */
export interface SchemaChange {
  /**
   * A keyword change, named by the site (a list: the first the site has a rule for); or a rule
   * that is the same at every site.
   */
  readonly rule: SchemaSuffix | readonly SchemaSuffix[] | { readonly id: DiffRuleId }
  readonly pointer: string
  readonly rel: string
  readonly text: (noun: string) => string
  readonly extra: Omit<ChangeExtra, 'where'>
}

export type SchemaMemo = Map<string, readonly SchemaChange[]>

export interface SchemaContext {
  readonly c: ChangeSink
  /** Shared by every comparison between the same two documents. */
  readonly memo: SchemaMemo
  /** Pairs that parse-once shares between the documents: nothing to compare. */
  readonly same: Sameness
  readonly baseDoc: unknown
  readonly headDoc: unknown
  readonly dir: Direction
  readonly site: Site
  /** Names the element in a sentence: `label` is the property path, '' for the root. */
  readonly noun: (label: string) => string
  /** Operation (and status) the schema belongs to, e.g. `POST /order`. */
  readonly where: string
}

/** `orders[]` + `route` → `orders[].route`. */
export function joinLabel(prefix: string, rel: string): string {
  if (!prefix) return rel
  if (!rel) return prefix
  return rel.startsWith('[') || rel.startsWith('{') ? `${prefix}${rel}` : `${prefix}.${rel}`
}

// Module-level helpers rather than per-call closures: this runs for every schema node of big specs.
export function push(
  out: SchemaChange[],
  rule: SchemaChange['rule'],
  pointer: string,
  text: (noun: string) => string,
  extra: SchemaChange['extra'] = {},
  rel = '',
): void {
  out.push({ rule, pointer, rel, text, extra })
}

/** Adds a child comparison's changes under the child's relative path. */
export function nest(out: SchemaChange[], rel: string, changes: readonly SchemaChange[]): void {
  for (const c of changes) out.push(rel ? { ...c, rel: joinLabel(rel, c.rel) } : c)
}

/**
 * The changes between the schemas at `b`/`h` (either may be a `$ref`), relative to them; `stack`
 * carries the `$ref` pairs being compared. The walker of index.ts, handed to every family.
 */
export type SchemaWalk = (
  ctx: SchemaContext,
  b: unknown,
  bPtr: string,
  h: unknown,
  hPtr: string,
  stack: Set<string>,
) => readonly SchemaChange[]

/** One pair of nodes, both resolved; `stack` carries the `$ref` pairs being compared. */
export interface NodePair {
  readonly ctx: SchemaContext
  readonly bs: JsonObject
  readonly bPtr: string
  readonly hs: JsonObject
  readonly hPtr: string
  readonly out: SchemaChange[]
  readonly stack: Set<string>
  /** The walk itself, to compare a pair of subschemas. */
  readonly walk: SchemaWalk
}

/** Recurses into a subschema both sides have, at `key` (a keyword path such as `items`). */
export function descend(p: NodePair, key: string, rel: string, b: unknown = getPath(p.bs, key), h: unknown = getPath(p.hs, key)): void {
  if (!isObject(b) || !isObject(h)) return
  nest(p.out, rel, p.walk(p.ctx, b, `${p.bPtr}/${key}`, h, `${p.hPtr}/${key}`, p.stack))
}

function getPath(node: JsonObject, key: string): unknown {
  let cur: unknown = node
  for (const t of key.split('/'))
    cur = isObject(cur) ? cur[t.replace(/~1/g, '/').replace(/~0/g, '~')] : Array.isArray(cur) ? cur[Number(t)] : undefined
  return cur
}
