/**
 * Where a `$ref` is a reference, by the OpenAPI object model. A `$ref` key inside `example`,
 * `examples[*].value`, `default`, `const`, `enum`, a Link's `parameters`/`requestBody` or any
 * `x-` extension is data (GitHub's description holds URLs under such keys): it is never resolved,
 * fetched or refused. Everything that follows references (lint, generate, diff) asks this module.
 */
import { isObject } from './model.ts'
import { toPointer } from './source.ts'

export interface ReferenceSite {
  /** JSON pointer of the object that holds the `$ref` key. */
  readonly pointer: string
  readonly ref: string
}

/** Keywords whose value is literal data wherever an object's keys are keywords. */
const DATA_KEYWORDS = new Set(['example', 'default', 'const', 'enum', 'value'])

/** Keys whose value maps names to objects: the names are not keywords (a property may be called `default`). */
const SCHEMA_NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])
const NAME_MAPS = new Set([
  'paths',
  'webhooks',
  'callbacks',
  'responses',
  'content',
  'headers',
  'encoding',
  'links',
  'securitySchemes',
  'schemas',
  'requestBodies',
  'pathItems',
  'variables',
])

type Visit = (site: ReferenceSite) => void

/** The keys of an object whose keys are keywords (an OpenAPI object or a schema). */
function walkKeywords(node: unknown, tokens: (string | number)[], visit: Visit, inLink: boolean): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      tokens.push(i)
      walkKeywords(node[i], tokens, visit, false)
      tokens.pop()
    }
    return
  }
  if (!isObject(node)) return
  for (const k in node) {
    const v = node[k]
    if (k === '$ref') {
      if (typeof v === 'string') visit({ pointer: toPointer(tokens), ref: v })
      continue
    }
    if (DATA_KEYWORDS.has(k) || k.startsWith('x-')) continue
    if (inLink && (k === 'parameters' || k === 'requestBody')) continue
    // `examples` is data in a schema (an array) and a map of Example objects elsewhere.
    if (k === 'examples' && Array.isArray(v)) continue
    if (k === 'discriminator' || k === 'xml' || k === 'externalDocs') continue
    tokens.push(k)
    if (k === 'components' && tokens.length === 1 && isObject(v)) {
      // Each section is a map of names (a schema may be called `default`).
      for (const [section, map] of Object.entries(v)) {
        if (section.startsWith('x-')) continue
        tokens.push(section)
        walkNames(map, tokens, visit, section === 'links', false)
        tokens.pop()
      }
    } else if (k === 'examples' || NAME_MAPS.has(k)) walkNames(v, tokens, visit, k === 'links', false)
    else if (SCHEMA_NAME_MAPS.has(k)) walkNames(v, tokens, visit, false, true)
    else walkKeywords(v, tokens, visit, false)
    tokens.pop()
  }
}

/**
 * A map of names to objects; `x-` names are extensions except among a schema's property names.
 * `tokens` is the path, grown and shrunk in place (a copy per node cost a large spec tens of ms).
 */
function walkNames(node: unknown, tokens: (string | number)[], visit: Visit, links: boolean, schemaNames: boolean): void {
  if (!isObject(node)) return
  for (const name in node) {
    const v = node[name]
    if (!schemaNames && name.startsWith('x-')) continue
    if (!schemaNames && name === '$ref' && typeof v === 'string') {
      // A Path Item or a Callback may itself be a reference.
      visit({ pointer: toPointer(tokens), ref: v })
      continue
    }
    tokens.push(name)
    walkKeywords(v, tokens, visit, links)
    tokens.pop()
  }
}

/** Calls `visit` for every reference in the document, in document order; data is skipped. */
export function forEachReference(doc: Record<string, unknown>, visit: Visit): void {
  walkKeywords(doc, [], visit, false)
}

/** Every reference site of the document. */
export function referenceSites(doc: Record<string, unknown>): ReferenceSite[] {
  const sites: ReferenceSite[] = []
  forEachReference(doc, (s) => sites.push(s))
  return sites
}

/** What a reference points at: inside this document, a file beside it, or a URL. */
export function refKind(ref: string): 'local' | 'file' | 'remote' {
  if (ref.startsWith('#')) return 'local'
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(ref) ? 'remote' : 'file'
}
