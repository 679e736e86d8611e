/**
 * OpenAPI validity: the document as written (never dereferenced, so a schema used 26 times is
 * checked once, where it is written) against the OAI's schema of its version, then every
 * reference the object model declares (refs.ts) checked to resolve. Data that looks like a
 * reference (a `$ref` key in an example) is neither resolved nor fetched; a URL is fetched only
 * with `allowRemote`.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve as resolvePath } from 'node:path'
import type { ErrorObject } from 'ajv'
import { getPointer, isObject } from '../contract/model.ts'
import { forEachReference, refKind } from '../contract/refs.ts'
import { parseSpecTextFast } from '../contract/source.ts'
import type { LintFinding } from './findings.ts'
import { openApiValidator } from './openapi-validator.ts'
import { schemaErrors } from './schema-errors.ts'

export interface ValidateOptions {
  /** The spec's path: file references resolve from its directory. */
  readonly file?: string
  /** Fetch `http(s)://` references to check them; otherwise they are reported as not checked. */
  readonly allowRemote?: boolean | undefined
}

/**
 * HTTP auth scheme names are case-insensitive (RFC 9110 11.1) and the OAI's current 3.1 schema
 * matches `bearer` by a case-insensitive pattern, but the older 3.1 schema bundled here says
 * `const: bearer`: `scheme: Bearer` (as in the OAI's own tictactoe example) would be a false
 * finding. Only the schemes are copied; the document is not.
 */
function lowerHttpSchemes(doc: Record<string, unknown>): Record<string, unknown> {
  const components = doc.components
  if (!isObject(components) || !isObject(components.securitySchemes)) return doc
  const schemes: Record<string, unknown> = {}
  for (const [name, s] of Object.entries(components.securitySchemes)) {
    schemes[name] = isObject(s) && s.type === 'http' && typeof s.scheme === 'string' ? { ...s, scheme: s.scheme.toLowerCase() } : s
  }
  return { ...doc, components: { ...components, securitySchemes: schemes } }
}

function schemaFindings(doc: Record<string, unknown>): LintFinding[] {
  const version = typeof doc.openapi === 'string' && doc.openapi.startsWith('3.1') ? '3.1' : '3.0'
  const validate = openApiValidator(version)
  if (validate(lowerHttpSchemes(doc))) return []
  return schemaErrors((validate.errors ?? []) as ErrorObject[]).map((e) => ({
    rule: 'openapi-valid' as const,
    severity: 'error' as const,
    pointer: e.pointer,
    message: `${e.pointer || '/'} ${e.message}`,
  }))
}

const fileCache = new Map<string, Record<string, unknown> | undefined>()

function readReferenced(path: string): Record<string, unknown> | undefined {
  if (fileCache.has(path)) return fileCache.get(path)
  let doc: Record<string, unknown> | undefined
  try {
    doc = existsSync(path) ? parseSpecTextFast(readFileSync(path, 'utf8'), path).doc : undefined
  } catch {
    doc = undefined
  }
  fileCache.set(path, doc)
  return doc
}

/** Does `#fragment` name a value of `doc`? (No fragment: the whole document.) */
function fragmentResolves(doc: unknown, fragment: string): boolean {
  if (fragment === '' || fragment === '/') return true
  const pointer = fragment.includes('%') ? decodeURIComponent(fragment) : fragment
  return getPointer(doc, pointer) !== undefined
}

async function remoteResolves(url: string): Promise<string | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) })
    return res.ok ? undefined : `HTTP ${res.status}`
  } catch (err) {
    return (err as Error).message
  }
}

async function referenceFindings(doc: Record<string, unknown>, options: ValidateOptions): Promise<LintFinding[]> {
  const findings: LintFinding[] = []
  const base = options.file !== undefined ? dirname(resolvePath(options.file)) : process.cwd()
  const remote: { pointer: string; ref: string }[] = []
  const local = new Map<string, boolean>()
  const fail = (pointer: string, message: string) =>
    findings.push({ rule: 'openapi-valid', severity: 'error', pointer: `${pointer}/$ref`, message })
  forEachReference(doc, ({ pointer, ref }) => {
    const kind = refKind(ref)
    const hash = ref.indexOf('#')
    const fragment = hash < 0 ? '' : ref.slice(hash + 1)
    if (kind === 'local') {
      // A large spec names the same few targets tens of thousands of times: each is looked up once.
      let ok = local.get(fragment)
      if (ok === undefined) local.set(fragment, (ok = fragmentResolves(doc, fragment)))
      if (!ok) fail(pointer, `$ref "${ref}" does not resolve in this document`)
    } else if (kind === 'file') {
      const file = resolvePath(base, decodeURI(hash < 0 ? ref : ref.slice(0, hash)))
      const target = readReferenced(file)
      if (target === undefined) fail(pointer, `$ref "${ref}": cannot read ${file}`)
      else if (!fragmentResolves(target, fragment)) fail(pointer, `$ref "${ref}": ${fragment} is not in ${file}`)
    } else remote.push({ pointer, ref })
  })
  if (options.allowRemote) {
    for (const { pointer, ref } of remote) {
      const why = await remoteResolves(ref)
      if (why !== undefined) fail(pointer, `$ref "${ref}" does not resolve (${why})`)
    }
  }
  return findings
}

/** OpenAPI validity: the schema of the document's version, then its references. */
export async function validateOpenApi(doc: Record<string, unknown>, options: ValidateOptions = {}): Promise<LintFinding[]> {
  return [...schemaFindings(doc), ...(await referenceFindings(doc, options))]
}
