/**
 * The contract as a value: any OpenAPI 3.0/3.1 document compiled once into typed views. The
 * toolkit's extensions are optional layers; each command asks for the layers it implements
 * (`requireLayers`), so a plain OpenAPI file still lints, generates and diffs.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { InputError } from '../errors.ts'
import {
  errorCodesKey,
  isObject,
  readErrorCatalog,
  readOperations,
  readRateLimits,
  readTypedData,
  readWebSocket,
  type ErrorCodeEntry,
  type Operation,
  type RateLimitModel,
  type TypedDataModel,
  type WebSocketModel,
} from './model.ts'
import { loadRules, type Rule } from './rules.ts'
import { parseSpecText, readSpecFile, type SpecSource } from './source.ts'
import { packagePath } from '../package-root.ts'

/** The contract this toolkit ships: the default of every command and library entry point. */
export const DEFAULT_SPEC_PATH = packagePath('spec', 'openapi.yaml')

export interface LoadOptions {
  /** The word in the catalog key `x-<service>-error-codes`. Default `service`. */
  readonly service?: string | undefined
  /**
   * The rule catalog: a path, `false` for none. Default: `rules.yaml` beside the spec when it
   * exists.
   */
  readonly rules?: string | false
}

/** Each toolkit extension, as the part of the contract it describes. */
export interface Layers {
  /** `x-<service>-error-codes`: the public error-code catalog. */
  readonly catalog: readonly ErrorCodeEntry[]
  /** `x-eip712`: signing domains and message types. */
  readonly typedData: TypedDataModel
  /** `x-rate-limits`: tiers, caps, the window and the batch limit. */
  readonly rateLimits: RateLimitModel
  /** `x-websocket`: the subscription channels. */
  readonly websocket: WebSocketModel
}
export type LayerName = keyof Layers

/**
 * A compiled contract. `Contract` alone has every layer optional; `Contract<'typedData'>` (or
 * `FullContract`) is one whose named layers were checked present.
 */
export type Contract<Need extends LayerName = never> = SpecSource & {
  readonly service: string
  readonly catalogKey: string
  readonly version: string
  readonly operations: readonly Operation[]
  /** The rule catalog that goes with the spec, when there is one. */
  readonly rules?: readonly Rule[]
} & Partial<Layers> & { readonly [K in Need]-?: Layers[K] }

/** A contract with every layer: what `serve`, `check`, `sign` and `vectors` run on. */
export type FullContract = Contract<LayerName>

/** Where each layer lives in the document, for messages that name what is missing. */
export function layerKey(layer: LayerName, service = 'service'): string {
  return { catalog: errorCodesKey(service), typedData: 'x-eip712', rateLimits: 'x-rate-limits', websocket: 'x-websocket' }[layer]
}

export const LAYER_NAMES: readonly LayerName[] = ['catalog', 'typedData', 'rateLimits', 'websocket']

/** The layers the document lacks, in a fixed order. */
export function missingLayers(contract: Contract): LayerName[] {
  return LAYER_NAMES.filter((l) => contract[l] === undefined)
}

/**
 * Narrows a contract to one with `needs`; otherwise one line naming the file, every missing
 * extension and the command that needs it.
 */
export function requireLayers<N extends LayerName>(contract: Contract, needs: readonly N[], forWhat: string): Contract<N> {
  const missing = needs.filter((l) => contract[l] === undefined)
  if (missing.length > 0) {
    const what = missing.map((l) => `${layerKey(l, contract.service)} (${LAYER_DOC[l]})`).join(', ')
    throw new InputError(`${contract.file}: ${forWhat} needs ${what}, which this spec does not have`)
  }
  return contract as Contract<N>
}

const LAYER_DOC: Record<LayerName, string> = {
  catalog: 'the error-code catalog',
  typedData: 'the signing domains and message types',
  rateLimits: 'the rate-limit tiers',
  websocket: 'the WebSocket channels',
}

/** Rejects what is not an OpenAPI 3.0/3.1 document, in one line. */
function checkShape(source: SpecSource): void {
  const { doc, file } = source
  if (typeof doc.swagger === 'string') {
    throw new InputError(`${file}: a Swagger ${doc.swagger} document; oec reads OpenAPI 3.0 and 3.1 (convert it first)`)
  }
  if (typeof doc.openapi !== 'string' || !/^3\.[01]\.\d+/.test(doc.openapi)) {
    throw new InputError(`${file}: not an OpenAPI 3.x document (no "openapi: 3.x.y" at the top)`)
  }
}

/** A catalog under another service word is almost always a forgotten `--service`. */
function otherCatalogHint(doc: Record<string, unknown>, key: string): string {
  if (key in doc) return ''
  const other = Object.keys(doc).find((k) => /^x-.+-error-codes$/.test(k) && Array.isArray(doc[k]))
  return other ? ` (found ${other}: pass --service ${other.slice(2, -'-error-codes'.length)})` : ''
}

/** Reads a layer, prefixing the reader's complaint with the file so the line says where. */
function layer<T>(source: SpecSource, present: boolean, read: () => T): T | undefined {
  if (!present) return undefined
  try {
    return read()
  } catch (err) {
    if (err instanceof InputError) throw new InputError(`${source.file}: ${err.message.replace(/^spec: /, '')}`)
    throw err
  }
}

function rulesBeside(file: string, option: string | false | undefined): readonly Rule[] | undefined {
  if (option === false) return undefined
  if (typeof option === 'string') return loadRules(option)
  const beside = join(dirname(file), 'rules.yaml')
  return existsSync(beside) ? loadRules(beside) : undefined
}

export function contractFromSource(source: SpecSource, options: LoadOptions = {}): Contract {
  checkShape(source)
  const service = options.service ?? 'service'
  const doc = source.doc
  const catalogKey = errorCodesKey(service)
  const hint = otherCatalogHint(doc, catalogKey)
  // A catalog under another service word is a forgotten --service, not a spec without a catalog.
  if (hint !== '') throw new InputError(`${source.file}: no ${catalogKey} extension: the error-code catalog is missing${hint}`)
  const info = doc.info as { version?: unknown } | undefined
  const rules = rulesBeside(source.file, options.rules)
  const layers: { [K in LayerName]?: Layers[K] | undefined } = {
    catalog: layer(source, catalogKey in doc, () => readErrorCatalog(doc, service)),
    typedData: layer(source, 'x-eip712' in doc, () => readTypedData(doc)),
    rateLimits: layer(source, 'x-rate-limits' in doc, () => readRateLimits(doc)),
    websocket: layer(source, isObject(doc['x-websocket']), () => readWebSocket(doc)),
  }
  // An absent layer leaves no key: the Contract type holds no undefined layer (and no key for one).
  for (const k of LAYER_NAMES) if (layers[k] === undefined) delete (layers as Record<string, unknown>)[k]
  return {
    ...source,
    service,
    catalogKey,
    version: String(info?.version ?? '0.0.0'),
    operations: readOperations(doc),
    ...(rules ? { rules } : {}),
    ...(layers as Partial<Layers>),
  }
}

export function loadContract(path: string = DEFAULT_SPEC_PATH, options: LoadOptions = {}): Contract {
  return contractFromSource(readSpecFile(path), options)
}

export function loadContractText(text: string, file: string, options: LoadOptions = {}): Contract {
  return contractFromSource(parseSpecText(text, file), { rules: false, ...options })
}

let shipped: FullContract | undefined
/**
 * The shipped contract, compiled once per process. Only entry points (the CLI, `startServer`
 * and the runners when given no spec) call this; everything below takes a contract.
 */
export function shippedContract(): FullContract {
  shipped ??= requireLayers(loadContract(DEFAULT_SPEC_PATH), ['catalog', 'typedData', 'rateLimits', 'websocket'], 'the shipped spec')
  return shipped
}

/** `--spec`/`--service` as the CLI and library options give them: a contract with `needs`. */
export function contractFor<N extends LayerName>(
  spec: string | Contract | undefined,
  needs: readonly N[],
  forWhat: string,
  options: LoadOptions = {},
): Contract<N> {
  if (spec === undefined && options.service === undefined) return requireLayers(shippedContract(), needs, forWhat)
  const contract = typeof spec === 'object' ? spec : loadContract(spec ?? DEFAULT_SPEC_PATH, options)
  return requireLayers(contract, needs, forWhat)
}
