/**
 * Server configuration: the spec supplies the tier table, the batch limit and the signing
 * domains; a JSON file and CLI flags override them. Every setting is checked at start-up so a
 * typo is one clear line, not a surprise on the first request.
 */
import { readFileSync } from 'node:fs'
import { InputError } from '../errors.ts'
import type { FullContract, Tier } from '../contract/index.ts'
import { symbolPattern, symbolProblem } from './symbols.ts'

export type { Tier }

export interface ServerConfig {
  /** Tradable instruments; the position in this list is the perp asset index `a`. */
  instruments: string[]
  /** Lower-case wallet address → tier id (a key of `tiers`). Other wallets get the default tier. */
  walletTiers: Record<string, string>
  /** When on, an order without `route` gets 400 invalid_field (the route sunset has passed). */
  routeRequired: boolean
  /** EIP-712 domain name of the options domain. */
  domainName: string
  /** EIP-712 chain ID of the options domain. */
  chainId: number
  tiers: Record<string, Tier>
  maxBatch: number
  /**
   * Length of a rate-limit window in seconds (default the spec's, 60). An assumed element made
   * configuration, so that a test or a staging target can cross windows in seconds.
   */
  rateWindowSeconds: number
  /** Chain ID of the perp domain (default from the spec, 1337). */
  perpChainId?: number
  /** Perp `Agent.source`: `a` on mainnet (default), `b` otherwise. */
  isMainnet?: boolean
  /** One JSON line per request on stderr. */
  log?: boolean
  /** Open connections served normally; past it a request is answered 503 (GET /health: served) and its connection closed. */
  maxConnections: number
  /** A request's header section must arrive within this (else 408 and the connection closes). */
  headerTimeoutMs: number
  /** A whole request, body included, must arrive within this (else 408). */
  requestTimeoutMs: number
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number
  /** In memory mode, the finished orders kept for GET /orders; older ones are forgotten (open orders always stay). */
  retain: number
  /** A WebSocket whose unsent data passes this many bytes is a slow consumer and is closed (code 1008). */
  wsSendBufferBytes: number
}

/** Connection and memory bounds that hold when neither a config file nor a flag sets them. */
export const DEFAULT_BOUNDS = {
  maxConnections: 512,
  headerTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  retain: 10_000,
  wsSendBufferBytes: 1024 * 1024,
} as const

/** A set of instruments that ships with the server so `oec serve` runs with no config. */
export const DEFAULT_INSTRUMENTS: readonly string[] = [
  'BTC-20261225-100000-C',
  'BTC-20261225-100000-P',
  'BTC-20261225-120000-C',
  'ETH-20261225-4000-C',
  'ETH-20261225-4000-P',
  'SOL-20261225-200-C',
]

export function defaultConfig(spec: FullContract): ServerConfig {
  const options = spec.typedData.domains.options
  const perps = spec.typedData.domains.perps
  return {
    instruments: [...DEFAULT_INSTRUMENTS],
    walletTiers: {},
    routeRequired: false,
    domainName: options?.name ?? 'Service',
    chainId: options?.chainId ?? 999,
    tiers: structuredClone(spec.rateLimits.tiers) as Record<string, Tier>,
    maxBatch: spec.rateLimits.maxBatch,
    rateWindowSeconds: spec.rateLimits.windowSeconds,
    perpChainId: perps?.chainId ?? 1337,
    isMainnet: true,
    log: false,
    ...DEFAULT_BOUNDS,
  }
}

const KEYS = [
  'instruments',
  'walletTiers',
  'routeRequired',
  'domainName',
  'chainId',
  'tiers',
  'maxBatch',
  'rateWindowSeconds',
  'perpChainId',
  'isMainnet',
  'log',
  ...(Object.keys(DEFAULT_BOUNDS) as (keyof typeof DEFAULT_BOUNDS)[]),
] as const
const TIER_NUMBERS = ['ordersPerMinute', 'cancelsPerMinute', 'apiRequestsPerMinute', 'maxOpenOrders', 'maxPositions'] as const
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

function tierFrom(id: string, raw: unknown, base: Tier | undefined, where: string): Tier {
  if (!isRecord(raw)) throw new InputError(`${where}: tiers.${id} must be an object`)
  const out: Record<string, unknown> = { id, name: base?.name ?? id, ...base }
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'id') {
      if (v !== id) throw new InputError(`${where}: tiers.${id}.id must be "${id}" (or left out)`)
    } else if (k === 'name') {
      if (typeof v !== 'string') throw new InputError(`${where}: tiers.${id}.name must be a string`)
      out.name = v
    } else if ((TIER_NUMBERS as readonly string[]).includes(k)) {
      const min = k === 'maxPositions' ? -1 : 0
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
        throw new InputError(`${where}: tiers.${id}.${k} must be a whole number >= ${min}`)
      out[k] = v
    } else {
      throw new InputError(`${where}: unknown key "tiers.${id}.${k}" (known: name, ${TIER_NUMBERS.join(', ')})`)
    }
  }
  for (const k of TIER_NUMBERS) if (typeof out[k] !== 'number') throw new InputError(`${where}: tiers.${id} needs ${k}`)
  return out as unknown as Tier
}

/**
 * Applies a partial config (from a file or from library callers) over `base`, checking each key.
 * `where` prefixes error lines (the file name).
 */
export function mergeConfig(base: ServerConfig, patch: Record<string, unknown>, where = 'config'): ServerConfig {
  const out: ServerConfig = { ...base, walletTiers: { ...base.walletTiers }, tiers: { ...base.tiers }, instruments: [...base.instruments] }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    switch (key) {
      case 'instruments':
        if (!Array.isArray(value) || value.some((s) => typeof s !== 'string'))
          throw new InputError(`${where}: instruments must be a list of symbol strings`)
        out.instruments = [...(value as string[])]
        break
      case 'walletTiers':
        if (!isRecord(value)) throw new InputError(`${where}: walletTiers must be an object {address: tier}`)
        for (const [addr, tier] of Object.entries(value)) {
          if (typeof tier !== 'string') throw new InputError(`${where}: walletTiers.${addr} must be a tier id string`)
          out.walletTiers[addr.toLowerCase()] = tier
        }
        break
      case 'tiers':
        if (!isRecord(value)) throw new InputError(`${where}: tiers must be an object {id: {ordersPerMinute, ...}}`)
        for (const [id, t] of Object.entries(value)) out.tiers[id] = tierFrom(id, t, base.tiers[id], where)
        break
      case 'routeRequired':
      case 'isMainnet':
      case 'log':
        if (typeof value !== 'boolean') throw new InputError(`${where}: ${key} must be true or false`)
        out[key] = value
        break
      case 'domainName':
        if (typeof value !== 'string' || value === '') throw new InputError(`${where}: domainName must be a non-empty string`)
        out.domainName = value
        break
      case 'chainId':
      case 'perpChainId':
      case 'maxBatch':
      case 'rateWindowSeconds':
      case 'maxConnections':
      case 'headerTimeoutMs':
      case 'requestTimeoutMs':
      case 'keepAliveTimeoutMs':
      case 'wsSendBufferBytes':
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
          throw new InputError(`${where}: ${key} must be a whole number >= 1`)
        out[key] = value
        break
      case 'retain':
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
          throw new InputError(`${where}: retain must be a whole number >= 0`)
        out.retain = value
        break
      default:
        throw new InputError(`${where}: unknown key "${key}" (known: ${KEYS.join(', ')})`)
    }
  }
  return out
}

/** Cross-checks that a single key cannot: symbols well-formed and unique, tiers known, addresses valid. */
export function checkConfig(config: ServerConfig, spec: FullContract, where = 'config'): ServerConfig {
  const pattern = symbolPattern(spec)
  const seen = new Set<string>()
  for (const s of config.instruments) {
    const problem = symbolProblem(s, pattern)
    if (problem) throw new InputError(`${where}: instrument "${s}": ${problem}`)
    if (seen.has(s)) throw new InputError(`${where}: instrument "${s}" is listed twice`)
    seen.add(s)
  }
  if (config.instruments.length === 0) throw new InputError(`${where}: instruments must list at least one symbol`)
  const defaultTier = spec.rateLimits.defaultTier
  if (!config.tiers[defaultTier]) throw new InputError(`${where}: tiers must keep the default tier "${defaultTier}"`)
  for (const [addr, tier] of Object.entries(config.walletTiers)) {
    if (!ADDRESS_RE.test(addr)) throw new InputError(`${where}: walletTiers: "${addr}" is not a 0x-prefixed 20-byte address`)
    if (!config.tiers[tier])
      throw new InputError(`${where}: walletTiers.${addr}: unknown tier "${tier}" (known: ${Object.keys(config.tiers).join(', ')})`)
  }
  return config
}

/** Reads a JSON config file over `base`; a bad key or value is an InputError naming it. */
export function loadServerConfig(path: string, spec: FullContract, base: ServerConfig = defaultConfig(spec)): ServerConfig {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    throw new InputError(`cannot read config ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')}`)
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new InputError(`config ${path}: not JSON (${(err as Error).message.split('\n')[0]})`)
  }
  if (!isRecord(raw)) throw new InputError(`config ${path}: the top level must be an object`)
  // In a file the instrument list is "symbols", as in every other oec file and flag.
  if ('instruments' in raw) throw new InputError(`config ${path}: "instruments" is an old name: the instrument list is "symbols"`)
  const { symbols, ...rest } = raw
  const patch = symbols === undefined ? rest : { ...rest, instruments: symbols }
  return checkConfig(mergeConfig(base, patch, `config ${path}`), spec, `config ${path}`)
}
