/**
 * Compares two JSON Schemas with `$ref`s resolved, so moving a schema inline or into a component
 * is not a change. What counts as breaking depends on the direction: a request schema must not
 * reject what it accepted; a response schema must not send what clients could not expect. The
 * keyword families live one per file beside this walker; each names its change by a suffix
 * (`max-length-decreased`) and the site turns it into a rule id (`request-body-…`,
 * `response-property-…`, `request-parameter-…`), whose registry entry gives the level.
 */
import type { JsonObject } from '../../contract/model.ts'
import { resolve } from '../refs.ts'
import { isRuleId, type DiffRuleId, type SchemaSuffix } from '../registry.ts'
import { compareAlternatives } from './alternatives.ts'
import { compareApplicators } from './applicators.ts'
import { compareBounds } from './bounds.ts'
import { compareComposition } from './composition.ts'
import { compareProperties } from './properties.ts'
import { compareTypes } from './types.ts'
import type { Direction, NodePair, SchemaChange, SchemaContext, Site } from './kernel.ts'
import { compareValues } from './values.ts'

export { joinLabel, type Direction, type SchemaChange, type SchemaContext, type SchemaMemo, type Site } from './kernel.ts'

type Rule = SchemaChange['rule']
const isFixed = (rule: Rule): rule is { readonly id: DiffRuleId } => typeof rule === 'object' && !Array.isArray(rule)

/** The rule id of a keyword change at a site, or undefined where no rule names it. */
export function ruleAt(site: Site, dir: Direction, rule: Rule, rel: string): DiffRuleId | undefined {
  if (isFixed(rule)) return rule.id
  const suffixes: readonly SchemaSuffix[] = typeof rule === 'string' ? [rule] : rule
  for (const suffix of suffixes) {
    const id = namesAt(site, dir, suffix, rel).find(isRuleId)
    if (id) return id
  }
  return undefined
}

/** The ids a keyword change may have at a site, most particular first (oasdiff lacks some). */
function namesAt(site: Site, dir: Direction, suffix: SchemaSuffix, rel: string): string[] {
  if (site === 'parameter' || site === 'header-parameter') {
    if (!rel) return [`request-parameter-${suffix}`]
    const inHeader = site === 'header-parameter' ? [`request-header-property-${suffix}`] : []
    return [...inHeader, `request-parameter-property-${suffix}`, `request-parameter-${suffix}`]
  }
  if (site === 'header') return [`response-header-${suffix}`, `response-property-${suffix}`]
  if (rel) return [`${dir}-property-${suffix}`]
  return dir === 'response'
    ? [`response-body-${suffix}`, `response-mediatype-${suffix}`, `response-property-${suffix}`]
    : [`request-body-${suffix}`, `request-property-${suffix}`]
}

/** Compares two schemas from an operation and adds what changed to the collector. */
export function compareSchemas(ctx: SchemaContext, b: unknown, bPtr: string, h: unknown, hPtr: string): void {
  for (const r of diffSchema(ctx, b, bPtr, h, hPtr)) {
    const id = ruleAt(ctx.site, ctx.dir, r.rule, r.rel)
    if (id) ctx.c.add(id, r.pointer, r.text(ctx.noun(r.rel)), { ...r.extra, where: ctx.where })
  }
}

/**
 * The changes between the schemas at `b`/`h` (either may be a `$ref`), relative to them.
 * A pair already on the stack is a recursive schema: its changes are reported where it started.
 */
export function diffSchema(
  ctx: SchemaContext,
  b: unknown,
  bPtr: string,
  h: unknown,
  hPtr: string,
  stack = new Set<string>(),
): readonly SchemaChange[] {
  const rb = resolve(ctx.baseDoc, b, bPtr)
  const rh = resolve(ctx.headDoc, h, hPtr)
  const bs = rb.node
  const hs = rh.node
  if (!bs || !hs || ctx.same.same(bs, hs)) return []
  // Only a pair reached through a `$ref` can recur or be shared: inline pairs are unique.
  if (rb.ptr === bPtr && rh.ptr === hPtr) {
    const out: SchemaChange[] = []
    compareNode(ctx, bs, rb.ptr, hs, rh.ptr, out, stack)
    return shortestPaths(out)
  }
  const key = `${ctx.dir}|${rb.merged ? `${bPtr}>` : ''}${rb.ptr}|${rh.merged ? `${hPtr}>` : ''}${rh.ptr}`
  const known = ctx.memo.get(key)
  if (known) return known
  if (stack.has(key)) return []
  stack.add(key)
  const out: SchemaChange[] = []
  try {
    compareNode(ctx, bs, rb.ptr, hs, rh.ptr, out, stack)
  } finally {
    stack.delete(key)
  }
  const unique = shortestPaths(out)
  ctx.memo.set(key, unique)
  return unique
}

/**
 * One change per (rule, pointer, detail), named by its shortest path. A component reached
 * through many paths inside one schema (Stripe's `error` reaches `account` thousands of ways)
 * would otherwise carry the same change once per path, replayed for every operation: the
 * collector keeps the shortest name anyway.
 */
function shortestPaths(changes: SchemaChange[]): SchemaChange[] {
  if (changes.length < 2) return changes
  const best = new Map<string, SchemaChange>()
  for (const c of changes) {
    const rule = typeof c.rule === 'string' ? c.rule : Array.isArray(c.rule) ? c.rule.join(',') : (c.rule as { id: string }).id
    const key = `${rule}\u0000${c.pointer}\u0000${c.extra.detail ?? ''}\u0000${c.rel === '' ? 'root' : 'nested'}`
    const known = best.get(key)
    if (!known || c.rel.length < known.rel.length) best.set(key, c)
  }
  return best.size === changes.length ? changes : [...best.values()]
}

function compareNode(
  ctx: SchemaContext,
  bs: JsonObject,
  bPtr: string,
  hs: JsonObject,
  hPtr: string,
  out: SchemaChange[],
  stack: Set<string>,
): void {
  const pair: NodePair = { ctx, bs, bPtr, hs, hPtr, out, stack, walk: diffSchema }
  // A schema wrapped into a union with itself, or an allOf of one flattened: judged as what changed.
  if (compareComposition(pair) === 'handled') return
  // A schema wrapped in a oneOf is judged as one change, not as every keyword that moved.
  if (compareAlternatives(pair) === 'wrapped') return
  compareTypes(pair)
  compareValues(pair)
  compareBounds(pair)
  compareProperties(pair)
  compareApplicators(pair)
}
