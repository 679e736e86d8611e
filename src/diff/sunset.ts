/**
 * `deprecated` with `x-sunset`: when something deprecated may go. A sunset is a date
 * (`2027-01-31`) or an RFC 3339 date-time; anything else cannot be judged and is itself a
 * finding, as is a sunset deleted from something still deprecated.
 */
import type { JsonObject } from '../contract/model.ts'

export type Sunset =
  | { readonly kind: 'none' }
  | { readonly kind: 'date'; readonly date: string }
  | { readonly kind: 'invalid'; readonly raw: string }

const DATE = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/

export function sunsetOf(node: JsonObject): Sunset {
  const raw = node['x-sunset']
  if (raw === undefined || raw === null) return { kind: 'none' }
  const m = DATE.exec(String(raw))
  return m && !Number.isNaN(Date.parse(m[1]!)) ? { kind: 'date', date: m[1]! } : { kind: 'invalid', raw: String(raw) }
}

/** What happened to the deprecation of an element kept in both versions. */
export type DeprecationChange = 'deprecated' | 'deprecated-with-sunset' | 'sunset-invalid' | 'reactivated' | 'sunset-deleted' | undefined

export function deprecationChange(b: JsonObject, h: JsonObject): DeprecationChange {
  const was = b.deprecated === true
  const is = h.deprecated === true
  if (!was && !is) return undefined
  if (was && !is) return 'reactivated'
  const sh = sunsetOf(h)
  if (!was) return sh.kind === 'none' ? 'deprecated' : sh.kind === 'date' ? 'deprecated-with-sunset' : 'sunset-invalid'
  const sb = sunsetOf(b)
  if (sb.kind !== 'none' && sh.kind === 'none') return 'sunset-deleted'
  if (b['x-sunset'] !== h['x-sunset'] && (sb.kind === 'invalid' || sh.kind === 'invalid')) return 'sunset-invalid'
  return undefined
}
