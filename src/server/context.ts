/**
 * Everything a handler needs, built once at start-up: the spec views, the compiled validators,
 * the catalog, the state (books, agents, nonces) and small helpers for headers and charging.
 */
import type { HeaderName } from '../contract/generated/contract.ts'
import { getPointer, RATE_LIMIT_HEADERS, type RateCategory, type FullContract, type Tier } from '../contract/index.ts'
import type { Signing } from '../signing/index.ts'
import { requireServerNeeds } from '../contract/server-needs.ts'
import { ErrorCatalog } from './catalog.ts'
import type { ServerConfig } from './config.ts'
import type { ServerDeps } from './deps.ts'
import type { MatchingEngine } from './matching-engine.ts'
import type { CategoryLimits, Cost } from './limits.ts'
import type { Reply } from './reply.ts'
import { symbolPattern } from './symbols.ts'
import { compileValidators, type Validators } from './validate.ts'

/** Names of the rate-limit headers; start-up checks that the served spec declares them. */
export const RATE_HEADERS = RATE_LIMIT_HEADERS

/** Per-request facts the pipeline uses after the handler: whose counters go in the headers. */
export interface RequestState {
  /** The trading wallet, once identified (well-formed `wallet` in the body, or the recovered owner). */
  wallet?: string
  /** The category the headers describe, when it differs from the operation's (perp cancels). */
  category?: RateCategory
}

export interface ServerContext {
  readonly spec: FullContract
  /** The contract's signing core (typed data, body mapping, verification). */
  readonly signing: Signing
  readonly config: ServerConfig
  readonly deps: ServerDeps
  readonly catalog: ErrorCatalog
  readonly validators: Validators
  readonly engine: MatchingEngine
  readonly symbolRe: RegExp
  /** Headers sent when `route` is omitted (values from the spec's components.headers). */
  readonly deprecationHeaders: Readonly<Record<string, string>>
  tier(wallet: string): Tier
  limits(wallet: string): CategoryLimits
  /** The address has state: an accepted order, an approval or revocation (either side). */
  known(address: string): boolean
  /** X-RateLimit-* for the wallet's counters in a category, uncharged. */
  rateHeaders(wallet: string, category: RateCategory): Record<string, string>
  /** X-RateLimit-* when no wallet can be identified: the default tier's limit, nothing used, this window's end. */
  anonymousRateHeaders(category: RateCategory): Record<string, string>
  /** Charges `cost`; null when charged, else the 429 reply (nothing charged). */
  charge(wallet: string, cost: Cost, headerCategory: RateCategory): Reply | null
}

export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/

export function isAddress(v: unknown): v is string {
  return typeof v === 'string' && ADDRESS_RE.test(v)
}

function headerConst(spec: FullContract, name: string): string | undefined {
  const v = getPointer(spec.doc, `/components/headers/${name}/schema/const`)
  return typeof v === 'string' ? v : undefined
}

export function createContext(
  spec: FullContract,
  signing: Signing,
  config: ServerConfig,
  deps: ServerDeps,
  engine: MatchingEngine,
): ServerContext {
  // Every code this server can emit (the shipped catalog's, by type) must be in the served spec's
  // catalog, and the rate headers declared: a spec without them is refused in one line (exit 2).
  requireServerNeeds(spec, 'the reference server (oec serve, and oec check server without --target)')
  const catalog = new ErrorCatalog(spec)
  const deprecationHeaders: Record<string, string> = {}
  for (const name of ['Deprecation', 'Sunset'] satisfies HeaderName[]) {
    const value = headerConst(spec, name)
    if (value !== undefined) deprecationHeaders[name] = value
  }
  const defaultTier = spec.rateLimits.defaultTier
  const windowSeconds = config.rateWindowSeconds

  const tier = (wallet: string): Tier => config.tiers[config.walletTiers[wallet.toLowerCase()] ?? defaultTier] ?? config.tiers[defaultTier]!
  const limits = (wallet: string): CategoryLimits => {
    const t = tier(wallet)
    return { orders: t.ordersPerMinute, cancels: t.cancelsPerMinute, api: t.apiRequestsPerMinute }
  }
  const rateHeaders = (wallet: string, category: RateCategory): Record<string, string> => {
    const s = deps.rateLimiter.status(wallet.toLowerCase(), category, limits(wallet)[category], deps.clock.now())
    return {
      [RATE_HEADERS.limit]: String(s.limit),
      [RATE_HEADERS.remaining]: String(s.remaining),
      [RATE_HEADERS.reset]: String(Math.ceil(s.reset)),
    }
  }

  return {
    spec,
    signing,
    config,
    deps,
    catalog,
    validators: compileValidators(spec),
    engine,
    symbolRe: symbolPattern(spec),
    deprecationHeaders,
    tier,
    limits,
    known: (address) => deps.agents.knows(address) || engine.hasOrders(address),
    rateHeaders,
    anonymousRateHeaders(category) {
      const t = config.tiers[defaultTier]!
      const limit = { orders: t.ordersPerMinute, cancels: t.cancelsPerMinute, api: t.apiRequestsPerMinute }[category]
      const reset = (Math.floor(deps.clock.now() / 1000 / windowSeconds) + 1) * windowSeconds
      return { [RATE_HEADERS.limit]: String(limit), [RATE_HEADERS.remaining]: String(limit), [RATE_HEADERS.reset]: String(reset) }
    },
    charge(wallet, cost, headerCategory) {
      const now = deps.clock.now()
      const lim = limits(wallet)
      const r = deps.rateLimiter.charge(wallet.toLowerCase(), cost, lim, now)
      if (r.ok) return null
      const reset = Math.ceil(r.reset)
      const retry = Math.max(1, Math.ceil(r.reset - now / 1000))
      const names: Record<RateCategory, string> = { orders: 'orders', cancels: 'cancels', api: 'API requests' }
      return catalog.reply(
        'rate_limit_exceeded',
        `rate limit exceeded: at most ${r.limit} ${names[r.category]} per ${windowSeconds} s window for this wallet; retry in ${retry} s`,
        { retry_after_secs: retry, limit: r.limit },
        {
          [RATE_HEADERS.limit]: String(lim[headerCategory]),
          [RATE_HEADERS.remaining]: '0',
          [RATE_HEADERS.reset]: String(reset),
          [RATE_HEADERS.retryAfter]: String(retry),
        },
      )
    },
  }
}
