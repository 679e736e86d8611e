import { fileURLToPath } from 'node:url'
import { InputError } from '../errors.ts'
import {
  errorCodesKey,
  readErrorCatalog,
  readOperations,
  readRateLimits,
  readTypedData,
  type ErrorCodeEntry,
  type Operation,
  type RateLimitModel,
  type TypedDataModel,
} from './model.ts'
import { parseSpecText, readSpecFile, type SpecSource } from './source.ts'

/** The contract this toolkit ships: the default for every command. */
export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url))

export interface LoadOptions {
  /** The word in the catalog key `x-<service>-error-codes`. Default `service`. */
  readonly service?: string
}

/** A loaded spec: its source (for line numbers) and the typed views every component reads. */
export interface Spec extends SpecSource {
  readonly service: string
  readonly catalogKey: string
  readonly version: string
  readonly catalog: readonly ErrorCodeEntry[]
  readonly typedData: TypedDataModel
  readonly rateLimits: RateLimitModel
  readonly operations: readonly Operation[]
}

/** Rejects what is not an OpenAPI 3.x document carrying the catalog extension, in one line. */
function checkShape(source: SpecSource, service: string): void {
  const { doc, file } = source
  if (typeof doc.swagger === 'string') {
    throw new InputError(`${file}: a Swagger ${doc.swagger} document; oec reads OpenAPI 3.1 (convert it first)`)
  }
  if (typeof doc.openapi !== 'string' || !/^3\.[01]\.\d+$/.test(doc.openapi)) {
    throw new InputError(`${file}: not an OpenAPI 3.x document (no "openapi: 3.1.x" at the top)`)
  }
  const key = errorCodesKey(service)
  if (!(key in doc)) {
    const other = Object.keys(doc).find((k) => /^x-.+-error-codes$/.test(k) && Array.isArray(doc[k]))
    const hint = other ? ` (found ${other}: pass --service ${other.slice(2, -'-error-codes'.length)})` : ''
    throw new InputError(`${file}: no ${key} extension: the error-code catalog is missing${hint}`)
  }
}

export function specFromSource(source: SpecSource, options: LoadOptions = {}): Spec {
  const service = options.service ?? 'service'
  checkShape(source, service)
  const info = source.doc.info as { version?: unknown } | undefined
  return {
    ...source,
    service,
    catalogKey: errorCodesKey(service),
    version: String(info?.version ?? '0.0.0'),
    catalog: readErrorCatalog(source.doc, service),
    typedData: readTypedData(source.doc),
    rateLimits: readRateLimits(source.doc),
    operations: readOperations(source.doc),
  }
}

export function loadSpec(path: string = DEFAULT_SPEC_PATH, options: LoadOptions = {}): Spec {
  return specFromSource(readSpecFile(path), options)
}

export function loadSpecText(text: string, file: string, options: LoadOptions = {}): Spec {
  return specFromSource(parseSpecText(text, file), options)
}

let cached: Spec | undefined
/** The shipped spec, parsed once per process. */
export function defaultSpec(): Spec {
  cached ??= loadSpec(DEFAULT_SPEC_PATH)
  return cached
}
