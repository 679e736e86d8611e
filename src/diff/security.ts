/**
 * Security requirements (the document's and each operation's) and the security schemes of
 * `components`. A requirement is identified by the set of schemes it names, so reordering is not a
 * change; a requirement kept with other scopes reports each scope. All info, as in oasdiff: the
 * server, not the contract, decides what a missing credential costs.
 */
import { isObject, type JsonObject } from '../contract/model.ts'
import type { ChangeSink } from './collect.ts'
import type { DiffSpec } from './input.ts'
import { esc } from './refs.ts'

type Requirement = Map<string, readonly string[]>

function requirements(list: unknown): Map<string, Requirement> {
  const out = new Map<string, Requirement>()
  if (!Array.isArray(list)) return out
  for (const r of list) {
    if (!isObject(r)) continue
    const req: Requirement = new Map(Object.entries(r).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : []]))
    out.set([...req.keys()].sort().join(' + ') || '(none)', req)
  }
  return out
}

interface Ids {
  readonly added: 'api-security-added' | 'api-global-security-added'
  readonly removed: 'api-security-removed' | 'api-global-security-removed'
  readonly scopeAdded: 'api-security-scope-added' | 'api-global-security-scope-added'
  readonly scopeRemoved: 'api-security-scope-removed' | 'api-global-security-scope-removed'
}
const GLOBAL: Ids = {
  added: 'api-global-security-added',
  removed: 'api-global-security-removed',
  scopeAdded: 'api-global-security-scope-added',
  scopeRemoved: 'api-global-security-scope-removed',
}
const OPERATION: Ids = {
  added: 'api-security-added',
  removed: 'api-security-removed',
  scopeAdded: 'api-security-scope-added',
  scopeRemoved: 'api-security-scope-removed',
}

/** Compares two `security` lists; `pointer` is where head's list is, `where` the operation if any. */
export function diffRequirements(c: ChangeSink, b: unknown, h: unknown, pointer: string, where?: string): void {
  const ids = where ? OPERATION : GLOBAL
  const of = where ? ` of ${where}` : ''
  const rb = requirements(b)
  const rh = requirements(h)
  for (const [key, req] of rb) {
    const next = rh.get(key)
    if (!next) {
      c.add(ids.removed, pointer, `the security requirement ${key}${of} was removed`, { detail: key })
      continue
    }
    for (const [scheme, scopes] of req) {
      const now = next.get(scheme) ?? []
      for (const s of scopes)
        if (!now.includes(s)) c.add(ids.scopeRemoved, pointer, `the scope ${s} of ${scheme}${of} was removed`, { detail: `${key}:${s}` })
      for (const s of now)
        if (!scopes.includes(s)) c.add(ids.scopeAdded, pointer, `the scope ${s} of ${scheme}${of} was added`, { detail: `${key}:+${s}` })
    }
  }
  for (const key of rh.keys())
    if (!rb.has(key)) c.add(ids.added, pointer, `the security requirement ${key}${of} was added`, { detail: `+${key}` })
}

function schemes(spec: DiffSpec): JsonObject {
  const comps = spec.doc.components
  return isObject(comps) && isObject(comps.securitySchemes) ? comps.securitySchemes : {}
}

/** The document-wide requirements and the security schemes. */
export function diffSecurity(base: DiffSpec, head: DiffSpec, c: ChangeSink): void {
  diffRequirements(c, base.doc.security, head.doc.security, '/security')
  const sb = schemes(base)
  const sh = schemes(head)
  for (const name of Object.keys(sb).sort()) {
    const p = `/components/securitySchemes/${esc(name)}`
    const x = sb[name]
    const y = sh[name]
    if (y === undefined) c.add('api-security-component-removed', p, `the security scheme ${name} was removed`)
    else if (isObject(x) && isObject(y) && x.type !== y.type) {
      c.add(
        'api-security-component-type-changed',
        `${p}/type`,
        `the security scheme ${name} changed type from ${String(x.type)} to ${String(y.type)}`,
        { before: x.type ?? null, after: y.type ?? null },
      )
    }
  }
  for (const name of Object.keys(sh).sort())
    if (!(name in sb))
      c.add('api-security-component-added', `/components/securitySchemes/${esc(name)}`, `the security scheme ${name} was added`)
}
