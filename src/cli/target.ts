/**
 * The flags that say where a live server is and what it needs on every request, shared by
 * `check server` and `proxy`: `--target URL` (or `--target spec`: the spec's first `servers:`
 * URL, its variables at their defaults) and `--header NAME:VALUE` (a gateway's key, repeatable).
 */
import type { Contract } from '../contract/index.ts'
import { InputError } from '../errors.ts'
import { CommanderError } from './program.ts'

/** The word that asks for the spec's own server URL. */
export const SPEC_TARGET = 'spec'

/** `--target`, with `spec` replaced by the spec's first server URL (variables at their defaults). */
export function resolveTarget(target: string | undefined, spec: Contract): string | undefined {
  if (target !== SPEC_TARGET) return target
  const servers = spec.doc.servers
  const first = Array.isArray(servers) ? (servers[0] as { url?: unknown; variables?: Record<string, { default?: unknown }> }) : undefined
  if (typeof first?.url !== 'string') throw new InputError(`--target spec: ${spec.file} has no servers: entry with a url`)
  const url = first.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = first.variables?.[name]?.default
    if (typeof value !== 'string') throw new InputError(`--target spec: the server variable {${name}} of ${spec.file} has no default`)
    return value
  })
  if (!/^https?:\/\//.test(url))
    throw new InputError(`--target spec: the first server of ${spec.file} is ${url}, not an absolute http(s) URL`)
  return url
}

/** Parser of a repeatable `--header NAME:VALUE`: the pairs in order. */
export function headerOption(value: string, previous: readonly (readonly [string, string])[] = []): [string, string][] {
  const i = value.indexOf(':')
  const name = i > 0 ? value.slice(0, i).trim() : ''
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new CommanderError(2, 'oec.usage', `--header takes NAME:VALUE (e.g. "Authorization: Bearer …"), not "${value}"`)
  return [...previous, [name, value.slice(i + 1).trim()]] as [string, string][]
}

export const HEADER_HELP = 'a header sent with every request, NAME:VALUE (repeatable; e.g. a gateway key)'
export const TARGET_HELP = 'base URL of the server, or "spec" for the first servers: URL of the spec'
