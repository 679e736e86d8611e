/**
 * Typed views of the spec's extensions. Everything the toolkit knows about the contract is read
 * through these functions; nothing else restates a field list, an enum or an error code.
 */
import { InputError } from '../errors.ts'
import { pointerTokens } from './source.ts'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

// ---------------------------------------------------------------- EIP-712

export interface TypedField {
  /** Field name in the typed data (e.g. `clientId`). */
  readonly name: string
  /** Solidity type string (e.g. `uint64`). */
  readonly type: string
  /** Body property that carries the value (e.g. `client_id`); equal to `name` unless renamed. */
  readonly body: string
}

export interface DomainValues {
  readonly name: string
  readonly version: string
  readonly chainId: number
  readonly verifyingContract: `0x${string}`
}

export interface SignedMessage {
  /** Key under `x-eip712.messages` (e.g. `PlaceOrderWithoutRoute`). */
  readonly id: string
  readonly primaryType: string
  /** Key under `x-eip712.domains` (`options` or `perps`). */
  readonly domain: string
  readonly fields: readonly TypedField[]
  readonly assumed: boolean
}

export interface TypedDataModel {
  readonly domainType: readonly { name: string; type: string }[]
  readonly domains: Readonly<Record<string, DomainValues>>
  readonly messages: Readonly<Record<string, SignedMessage>>
}

// ---------------------------------------------------------------- catalog

export interface ErrorCodeEntry {
  /** A lowercase identifier on the `http` surface; a number on the `jsonrpc` surface. */
  readonly code: string | number
  readonly surface: 'http' | 'jsonrpc'
  readonly httpStatus: readonly number[]
  /** Fixed message text where the contract fixes it. */
  readonly message?: string
  readonly description: string
  readonly retryable: boolean
  readonly since: string
  readonly deprecated: boolean
  readonly legacyError: string | null
  readonly reserved: boolean
  readonly assumed: boolean
  /** Index in the catalog array, for JSON pointers. */
  readonly index: number
}

// ---------------------------------------------------------------- rate limits

export type RateCategory = 'orders' | 'cancels' | 'api'

export interface Tier {
  readonly id: string
  readonly name: string
  readonly ordersPerMinute: number
  readonly cancelsPerMinute: number
  readonly apiRequestsPerMinute: number
  readonly maxOpenOrders: number
  /** -1 means unlimited. */
  readonly maxPositions: number
}

export interface RateLimitModel {
  readonly windowSeconds: number
  readonly defaultTier: string
  readonly maxBatch: number
  readonly tiers: Readonly<Record<string, Tier>>
}

// ---------------------------------------------------------------- websocket

export interface WebSocketChannel {
  /** JSON pointer (no `#`) of the subscribe message schema, when it is a local `$ref`. */
  readonly subscribe?: string
  /** JSON pointer (no `#`) of the pushed message schema, when it is a local `$ref`. */
  readonly message?: string
}

export interface WebSocketModel {
  readonly path: string
  readonly assumed: boolean
  readonly channels: Readonly<Record<string, WebSocketChannel>>
}

// ---------------------------------------------------------------- operations

export interface SignedVariant {
  readonly message: string
  readonly whenPresent?: string
  readonly whenAbsent?: string
}

export interface SignedSchema {
  /** Body property holding the signature. */
  readonly signature: string
  /** Set when the typed fields are derived from the body (perp `connectionId`), not copied. */
  readonly derived?: string
  readonly variants: readonly SignedVariant[]
}

export interface Operation {
  readonly method: string
  readonly path: string
  readonly operationId: string
  readonly pointer: string
  readonly assumed: boolean
  readonly rateLimit?: { readonly category: RateCategory; readonly perItem?: string }
  /** The request body schema (refs not resolved), if any. */
  readonly requestSchema?: JsonObject
  /** Status code → response object with `$ref` resolved one level. */
  readonly responses: Readonly<Record<string, JsonObject>>
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

// ---------------------------------------------------------------- helpers

export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** Value at a local JSON pointer (`#/components/...`), or undefined. */
export function getPointer(doc: unknown, pointer: string): unknown {
  let node: unknown = doc
  for (const t of pointerTokens(pointer)) {
    if (Array.isArray(node)) node = node[Number(t)]
    else if (isObject(node)) node = node[t]
    else return undefined
  }
  return node
}

/** Follows `$ref` chains inside the document; non-local refs are an input error. */
export function deref(doc: unknown, node: unknown, seen = new Set<string>()): unknown {
  while (isObject(node) && typeof node.$ref === 'string') {
    const ref = node.$ref
    if (!ref.startsWith('#')) throw new InputError(`unsupported external $ref ${ref}`)
    if (seen.has(ref)) throw new InputError(`circular $ref ${ref}`)
    seen.add(ref)
    node = getPointer(doc, ref)
  }
  return node
}

export function errorCodesKey(service = 'service'): string {
  return `x-${service}-error-codes`
}

function need<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new InputError(`spec: missing ${what}`)
  return value
}

// ---------------------------------------------------------------- readers

export function readTypedData(doc: JsonObject | Record<string, unknown>): TypedDataModel {
  const ext = doc['x-eip712']
  if (!isObject(ext)) throw new InputError('spec: missing the x-eip712 extension (signing domains and message types)')
  const domainType = need(ext.domainType, 'x-eip712.domainType') as { name: string; type: string }[]
  const domainsRaw = need(ext.domains, 'x-eip712.domains')
  const messagesRaw = need(ext.messages, 'x-eip712.messages')
  if (!isObject(domainsRaw) || !isObject(messagesRaw)) throw new InputError('spec: x-eip712.domains and .messages must be mappings')
  const domains: Record<string, DomainValues> = {}
  for (const [key, d] of Object.entries(domainsRaw)) {
    if (!isObject(d)) throw new InputError(`spec: x-eip712.domains.${key} must be a mapping`)
    domains[key] = {
      name: String(d.name),
      version: String(d.version),
      chainId: Number(d.chainId),
      verifyingContract: String(d.verifyingContract) as `0x${string}`,
    }
  }
  const messages: Record<string, SignedMessage> = {}
  for (const [id, m] of Object.entries(messagesRaw)) {
    if (!isObject(m) || !Array.isArray(m.fields)) throw new InputError(`spec: x-eip712.messages.${id} needs a fields list`)
    messages[id] = {
      id,
      primaryType: String(m.primaryType ?? id),
      domain: String(m.domain),
      assumed: m['x-assumed'] === true,
      fields: m.fields.map((f) => {
        const field = f as JsonObject
        return { name: String(field.name), type: String(field.type), body: String(field.body ?? field.name) }
      }),
    }
  }
  return { domainType, domains, messages }
}

export function readErrorCatalog(doc: Record<string, unknown>, service = 'service'): ErrorCodeEntry[] {
  const key = errorCodesKey(service)
  const raw = doc[key]
  if (raw === undefined) throw new InputError(`spec: missing the ${key} extension (the error-code catalog)`)
  if (!Array.isArray(raw)) throw new InputError(`spec: ${key} must be a list of entries`)
  return raw.map((e, index) => {
    const entry = isObject(e) ? e : {}
    return {
      code: typeof entry.code === 'number' ? entry.code : String(entry.code),
      surface: entry.surface === 'jsonrpc' ? 'jsonrpc' : 'http',
      httpStatus: Array.isArray(entry.http_status) ? entry.http_status.map(Number) : [],
      ...(typeof entry.message === 'string' ? { message: entry.message } : {}),
      description: String(entry.description ?? ''),
      retryable: entry.retryable === true,
      since: String(entry.since ?? ''),
      deprecated: entry.deprecated === true,
      legacyError: typeof entry.legacy_error === 'string' ? entry.legacy_error : null,
      reserved: entry.reserved === true,
      assumed: entry['x-assumed'] === true,
      index,
    }
  })
}

export function readRateLimits(doc: Record<string, unknown>): RateLimitModel {
  const ext = doc['x-rate-limits']
  if (!isObject(ext) || !isObject(ext.tiers)) throw new InputError('spec: missing the x-rate-limits extension (tier table)')
  const tiers: Record<string, Tier> = {}
  for (const [id, t] of Object.entries(ext.tiers)) {
    const tier = isObject(t) ? t : {}
    tiers[id] = {
      id,
      name: String(tier.name ?? id),
      ordersPerMinute: Number(tier.ordersPerMinute),
      cancelsPerMinute: Number(tier.cancelsPerMinute),
      apiRequestsPerMinute: Number(tier.apiRequestsPerMinute),
      maxOpenOrders: Number(tier.maxOpenOrders),
      maxPositions: Number(tier.maxPositions),
    }
  }
  return {
    windowSeconds: Number(ext.windowSeconds ?? 60),
    defaultTier: String(ext.defaultTier ?? 'default'),
    maxBatch: Number(ext.maxBatch ?? 50),
    tiers,
  }
}

export function readWebSocket(doc: Record<string, unknown>): WebSocketModel {
  const ext = doc['x-websocket']
  if (!isObject(ext)) throw new InputError('spec: missing the x-websocket extension (subscription channels)')
  const channels: Record<string, WebSocketChannel> = {}
  const refOf = (v: unknown): string | undefined =>
    isObject(v) && typeof v.$ref === 'string' && v.$ref.startsWith('#') ? v.$ref.slice(1) : undefined
  for (const [name, ch] of Object.entries(isObject(ext.channels) ? ext.channels : {})) {
    const c = isObject(ch) ? ch : {}
    const subscribe = refOf(c.subscribe)
    const message = refOf(c.message)
    channels[name] = { ...(subscribe ? { subscribe } : {}), ...(message ? { message } : {}) }
  }
  return { path: typeof ext.path === 'string' ? ext.path : '/ws', assumed: ext['x-assumed'] === true, channels }
}

export function readSignedSchema(schema: unknown): SignedSchema | undefined {
  if (!isObject(schema)) return undefined
  const ext = schema['x-eip712-signed']
  if (!isObject(ext)) return undefined
  const variants = Array.isArray(ext.variants) ? ext.variants : []
  return {
    signature: String(ext.signature ?? 'signature'),
    ...(typeof ext.derived === 'string' ? { derived: ext.derived } : {}),
    variants: variants.map((v) => {
      const o = isObject(v) ? v : {}
      return {
        message: String(o.message),
        ...(typeof o['when-present'] === 'string' ? { whenPresent: o['when-present'] } : {}),
        ...(typeof o['when-absent'] === 'string' ? { whenAbsent: o['when-absent'] } : {}),
      }
    }),
  }
}

export function readOperations(doc: Record<string, unknown>): Operation[] {
  const paths = isObject(doc.paths) ? doc.paths : {}
  const ops: Operation[] = []
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue
    for (const method of HTTP_METHODS) {
      const op = item[method]
      if (!isObject(op)) continue
      const pointer = `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`
      const rl = isObject(op['x-rate-limit']) ? op['x-rate-limit'] : undefined
      const body = deref(doc, op.requestBody)
      const media = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined
      const responses: Record<string, JsonObject> = {}
      if (isObject(op.responses)) {
        for (const [status, r] of Object.entries(op.responses)) {
          const resolved = deref(doc, r)
          if (isObject(resolved)) responses[status] = resolved
        }
      }
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId ?? `${method} ${path}`),
        pointer,
        assumed: op['x-assumed'] === true,
        ...(rl
          ? {
              rateLimit: {
                category: String(rl.category) as RateCategory,
                ...(typeof rl['per-item'] === 'string' ? { perItem: rl['per-item'] } : {}),
              },
            }
          : {}),
        ...(isObject(media) && isObject(media.schema) ? { requestSchema: media.schema } : {}),
        responses,
      })
    }
  }
  return ops
}

/** Error codes a response object declares (`x-error-codes`, `x-jsonrpc-error-codes`). */
export function responseErrorCodes(response: JsonObject): (string | number)[] {
  const http = Array.isArray(response['x-error-codes']) ? response['x-error-codes'] : []
  const rpc = Array.isArray(response['x-jsonrpc-error-codes']) ? response['x-jsonrpc-error-codes'] : []
  return [...http, ...rpc].map((c) => (typeof c === 'number' ? c : String(c)))
}
