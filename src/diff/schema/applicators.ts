/**
 * The JSON Schema 2020-12 applicators besides properties and alternatives: each is a keyword
 * that was added or removed, and when both sides have it its subschemas are compared too
 * (`items`, `prefixItems` by position as the keyword means, `contains`, `propertyNames`,
 * `dependentSchemas`, `patternProperties` by key, `if`/`then`/`else`, `unevaluated*`,
 * `contentSchema`, `additionalProperties`, `not`). Inside `not` the sense of a change reverses,
 * but oasdiff walks it like any subschema and names what changed there the same way; we follow
 * it, so the finding says where the change is and the level is oasdiff's.
 */
import { isObject, type JsonObject } from '../../contract/model.ts'
import { esc } from '../refs.ts'
import type { SchemaSuffix } from '../registry.ts'
import { descend, push, type NodePair } from './kernel.ts'

/** Keyword → [added, removed] suffixes and the label a nested change is named by. */
const SINGLE: readonly [key: string, added: SchemaSuffix, removed: SchemaSuffix, rel: string][] = [
  ['if', 'if-added', 'if-removed', '(if)'],
  ['then', 'then-added', 'then-removed', '(then)'],
  ['else', 'else-added', 'else-removed', '(else)'],
  ['contains', 'contains-added', 'contains-removed', '[contains]'],
  ['propertyNames', 'property-names-added', 'property-names-removed', '{names}'],
  ['unevaluatedItems', 'unevaluated-items-added', 'unevaluated-items-removed', '[]'],
  ['unevaluatedProperties', 'unevaluated-properties-added', 'unevaluated-properties-removed', '{}'],
  ['contentSchema', 'content-schema-added', 'content-schema-removed', '(content)'],
  ['not', 'not-added', 'not-removed', '(not)'],
]

/** Keyword → [added, removed] suffixes for maps of subschemas, compared key by key. */
const KEYED: readonly [key: string, added: SchemaSuffix, removed: SchemaSuffix][] = [
  ['dependentSchemas', 'dependent-schema-added', 'dependent-schema-removed'],
  ['patternProperties', 'pattern-property-added', 'pattern-property-removed'],
]

/** `false` and a schema are both constraints; `true` and absence are none. */
const present = (v: unknown) => v !== undefined && v !== true

export function compareApplicators(p: NodePair): void {
  const { bs, hs, hPtr, out } = p
  if (bs.items !== undefined && hs.items !== undefined && !Array.isArray(bs.items) && !Array.isArray(hs.items)) descend(p, 'items', '[]')
  if (isObject(bs.additionalProperties) && isObject(hs.additionalProperties)) descend(p, 'additionalProperties', '{}')

  for (const [key, added, removed, rel] of SINGLE) {
    const b = present(bs[key])
    const h = present(hs[key])
    if (!b && h) push(out, added, `${hPtr}/${key}`, (n) => `${n} gained a ${key} constraint`)
    else if (b && !h) push(out, removed, hPtr, (n) => `${n} lost its ${key} constraint`)
    else if (b && h) {
      if (isObject(bs[key]) && isObject(hs[key])) descend(p, key, rel)
      else if (bs[key] !== hs[key])
        push(out, bs[key] === false ? removed : added, `${hPtr}/${key}`, (n) => `${n} changed its ${key} constraint`)
    }
  }

  for (const [key, added, removed] of KEYED) {
    const mb = isObject(bs[key]) ? bs[key] : {}
    const mh = isObject(hs[key]) ? hs[key] : {}
    for (const k of Object.keys(mb)) {
      if (!(k in mh)) push(out, removed, `${hPtr}/${key}`, (n) => `${n} lost the ${key} entry ${k}`, { detail: k, before: k })
      else descend(p, `${key}/${esc(k)}`, `{${k}}`)
    }
    for (const k of Object.keys(mh))
      if (!(k in mb)) push(out, added, `${hPtr}/${key}/${esc(k)}`, (n) => `${n} gained the ${key} entry ${k}`, { detail: k, after: k })
  }

  compareDependentRequired(bs, hs, hPtr, out)
  comparePrefixItems(p)
}

function compareDependentRequired(bs: JsonObject, hs: JsonObject, hPtr: string, out: NodePair['out']): void {
  const db = isObject(bs.dependentRequired) ? bs.dependentRequired : {}
  const dh = isObject(hs.dependentRequired) ? hs.dependentRequired : {}
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String).sort().join(',') : '')
  for (const k of Object.keys(db)) {
    if (!(k in dh))
      push(out, 'dependent-required-removed', `${hPtr}/dependentRequired`, (n) => `${n} no longer requires [${list(db[k])}] with ${k}`, {
        detail: k,
      })
    else if (list(db[k]) !== list(dh[k]))
      push(
        out,
        'dependent-required-changed',
        `${hPtr}/dependentRequired/${esc(k)}`,
        (n) => `${n} now requires [${list(dh[k])}] with ${k} instead of [${list(db[k])}]`,
        { detail: k },
      )
  }
  for (const k of Object.keys(dh)) {
    if (!(k in db))
      push(out, 'dependent-required-added', `${hPtr}/dependentRequired/${esc(k)}`, (n) => `${n} now requires [${list(dh[k])}] with ${k}`, {
        detail: k,
      })
  }
}

/** prefixItems are positional by definition: item i of base is item i of head. */
function comparePrefixItems(p: NodePair): void {
  const { bs, hs, hPtr, out } = p
  const lb = Array.isArray(bs.prefixItems) ? bs.prefixItems : []
  const lh = Array.isArray(hs.prefixItems) ? hs.prefixItems : []
  const n = Math.min(lb.length, lh.length)
  for (let i = 0; i < n; i++) descend(p, `prefixItems/${i}`, `[${i}]`, lb[i], lh[i])
  if (lh.length > lb.length)
    push(out, 'prefix-items-added', `${hPtr}/prefixItems`, (m) => `${m} gained ${lh.length - lb.length} prefixItems`, {
      before: lb.length,
      after: lh.length,
    })
  if (lh.length < lb.length)
    push(out, 'prefix-items-removed', `${hPtr}/prefixItems`, (m) => `${m} lost ${lb.length - lh.length} prefixItems`, {
      before: lb.length,
      after: lh.length,
    })
}
