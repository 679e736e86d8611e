/**
 * Seeded faults for the explorer: each is the reference server with one switch (a `ServerDeps`
 * seam, a config value, a reply filter, a rewriting proxy, or one method of its order book
 * swapped for this server alone), on loopback with a SimulatedClock. Three are races with a
 * window of 0-5 ms; several are faults no named check looks at (`namedMiss`).
 */
import { isLosslessNumber } from 'lossless-json'
import { recoverPerpSigner, verifyOptions } from '../helpers/shipped.ts'
import { MatchingEngine } from '../../src/server/matching-engine.ts'
import { createAgentStore, createNonceStore, createRateLimiter, type EngineParts, type ServerDeps } from '../../src/server/index.ts'
import { parseBody } from '../../src/signing/index.ts'
import type { Reply } from '../../src/server/reply.ts'
import type { RuleId } from '../../src/contract/generated/rules.ts'
import {
  batchCountedOnce,
  jsonResponse,
  nonceConsumedOnFailure,
  proxied,
  reference,
  rewriteObjects,
  type ProxyRequest,
  type Target,
} from '../fixtures/broken-servers.ts'

export interface Fault {
  readonly name: string
  readonly how: string
  /** The rules a divergence it causes may name. */
  readonly rules: readonly RuleId[]
  /** The whole named-check suite passes against it (shown in explore-faults.test.ts). */
  readonly namedMiss?: boolean
  /** The seed of its exploration in faults.test.ts (default 1): one whose 300 sequences meet it under the current step mix. */
  readonly seed?: number
  start(): Promise<Target>
}

// ---------------------------------------------------------------- one method of one server's order book

type ExchangeMethod = 'cancel' | 'place' | 'depth'
type Swap<M extends ExchangeMethod> = (
  real: MatchingEngine[M],
  self: MatchingEngine,
  ...args: Parameters<MatchingEngine[M]>
) => ReturnType<MatchingEngine[M]>
type Swaps = { [M in ExchangeMethod]?: Swap<M> }

/** The reference engine with some methods wrapped: each swap gets the real method, the engine and the call's arguments. */
class SwappedEngine extends MatchingEngine {
  constructor(
    parts: EngineParts,
    private readonly swaps: Swaps,
  ) {
    super(parts.instruments, parts.onChange, parts.archive, parts.observer)
  }

  override place(...args: Parameters<MatchingEngine['place']>): ReturnType<MatchingEngine['place']> {
    return this.swaps.place ? this.swaps.place((...a) => super.place(...a), this, ...args) : super.place(...args)
  }

  override cancel(...args: Parameters<MatchingEngine['cancel']>): ReturnType<MatchingEngine['cancel']> {
    return this.swaps.cancel ? this.swaps.cancel((...a) => super.cancel(...a), this, ...args) : super.cancel(...args)
  }

  override depth(...args: Parameters<MatchingEngine['depth']>): ReturnType<MatchingEngine['depth']> {
    return this.swaps.depth ? this.swaps.depth((...a) => super.depth(...a), this, ...args) : super.depth(...args)
  }
}

/** The `engine` seam of a server whose order book has `swaps`; every other server, the oracle included, keeps the real engine. */
const swapped = (swaps: Swaps): Pick<ServerDeps, 'engine'> => ({ engine: (parts) => new SwappedEngine(parts, swaps) })

/**
 * A server whose cancel loses the race to a fill and says it won: every DELETE /order waits 80 ms
 * in a proxy (so a taker sent at the same moment lands first), and a cancel refused because the
 * order is FILLED is answered CANCELED.
 */
export function cancelLostToFill(): Promise<Target> {
  return proxied({
    request: async (r) => {
      if (r.method === 'DELETE' && r.path.startsWith('/order')) await new Promise((done) => setTimeout(done, 80))
      return r
    },
    response: (req, res) => {
      if (req.method !== 'DELETE' || !/"status":"REJECTED"/.test(res.body) || !/is FILLED, not open/.test(res.body)) return res
      const { reason: _r, ...rest } = JSON.parse(res.body) as Record<string, unknown>
      return { ...res, body: JSON.stringify({ ...rest, status: 'CANCELED' }) }
    },
  })
}

/** The wallet and order id a DELETE /order names (a cancel by order id), as one key. */
function cancelKey(r: ProxyRequest): string | undefined {
  if (r.method !== 'DELETE' || r.path !== '/order') return undefined
  try {
    const b = JSON.parse(r.body) as { wallet?: unknown; order_id?: unknown }
    return typeof b.wallet === 'string' && typeof b.order_id === 'string' ? `${b.wallet.toLowerCase()}:${b.order_id}` : undefined
  } catch {
    return undefined
  }
}

/**
 * Two cancels of one order both answered CANCELED when they overlap: a proxy holds each cancel
 * 30 ms (a slow status check before the write) and answers a cancel refused because the order
 * is already CANCELED as done when another cancel of that order was in flight beside it (both
 * read OPEN). One cancel at a time, and a burst of one cancel (one nonce), are answered right.
 */
export function cancelTwice(): Promise<Target> {
  const inflight = new Map<string, Set<ProxyRequest>>()
  const overlapped = new WeakSet<ProxyRequest>()
  return proxied({
    request: async (r) => {
      const key = cancelKey(r)
      if (key === undefined) return r
      let now = inflight.get(key)
      if (!now) inflight.set(key, (now = new Set()))
      if (now.size) for (const x of [r, ...now]) overlapped.add(x)
      now.add(r)
      await new Promise((done) => setTimeout(done, 30))
      return r
    },
    response: (req, res) => {
      const key = cancelKey(req)
      if (key === undefined) return res
      inflight.get(key)?.delete(req)
      if (!overlapped.has(req) || !/"status":"REJECTED"/.test(res.body) || !/is CANCELED, not open/.test(res.body)) return res
      const { reason: _r, ...rest } = JSON.parse(res.body) as Record<string, unknown>
      return { ...res, body: JSON.stringify({ ...rest, status: 'CANCELED' }) }
    },
  })
}

/**
 * A revoke answered at once but applied only once the wallet's orders in flight are through (a
 * revoke that waits for a lock the order path holds, and answers before it gets it): an order
 * the agent sends after the answer, while an earlier one is still in flight, is still accepted.
 * A proxy holds the orders of a wallet that has agents 40 ms. With no order in flight the revoke
 * takes effect at once, so one step after another sees nothing wrong.
 */
export function revokeAnsweredEarly(): Promise<Target> {
  const real = createAgentStore()
  const inflight = new Map<string, number>()
  const deferred = new Map<string, (() => void)[]>()
  const walletOf = (r: ProxyRequest) => {
    if (r.method !== 'POST' || r.path !== '/order') return undefined
    try {
      const w = (JSON.parse(r.body) as { wallet?: unknown }).wallet
      return typeof w === 'string' ? w.toLowerCase() : undefined
    } catch {
      return undefined
    }
  }
  const agents = {
    ...real,
    revoke(owner: string, agent: string): boolean {
      const o = owner.toLowerCase()
      if (!inflight.get(o)) return real.revoke(owner, agent)
      deferred.set(o, [...(deferred.get(o) ?? []), () => void real.revoke(owner, agent)])
      return real.isApproved(owner, agent)
    },
  }
  return proxied(
    {
      request: async (r) => {
        const w = walletOf(r)
        if (w === undefined || real.list(w).length === 0) return r
        inflight.set(w, (inflight.get(w) ?? 0) + 1)
        ;(r as ProxyRequest & { held?: string }).held = w
        await new Promise((done) => setTimeout(done, 40))
        return r
      },
      response: (req, res) => {
        const w = (req as ProxyRequest & { held?: string }).held
        if (w === undefined) return res
        const left = inflight.get(w)! - 1
        inflight.set(w, left)
        if (left === 0) for (const f of deferred.get(w)?.splice(0) ?? []) f()
        return res
      },
    },
    {},
    { agents },
  )
}

// ---------------------------------------------------------------- reply filters

function onReplies(ops: readonly string[], f: (r: Reply) => Reply): ServerDeps['transformReply'] {
  return (reply, rc) => (rc.operationId !== undefined && ops.includes(rc.operationId) ? f(reply) : reply)
}

const body = (r: Reply) => (r.body ?? {}) as Record<string, unknown>

/** A delay of `ms` before `f` (0 still defers past the requests verified in the same turn). */
const later = (ms: number, f: () => void) => setTimeout(f, ms)

/** Every bigint of an action read as a JS double and back: precision past 2^53 lost. */
function throughDouble(v: unknown): unknown {
  if (typeof v === 'bigint') return BigInt(Number(v))
  if (Array.isArray(v)) return v.map(throughDouble)
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, throughDouble(x)]))
  return v
}

export const FAULTS: readonly Fault[] = [
  // -------------------------------------------------------------- races (0-5 ms)
  {
    name: 'rate-limit race',
    how: 'the order counter is written 3 ms after the check (after an await): orders arriving together all see the old count',
    rules: ['RL-1'],
    start: () => {
      const real = createRateLimiter(60)
      const pending = new Map<string, number>()
      return reference(
        {},
        {
          rateLimiter: {
            charge(w, cost, limits, now) {
              const { orders = 0, ...rest } = cost
              // The check reads the committed count; the write lands 3 ms later (the headers count it already).
              const st = real.status(w, 'orders', limits.orders, now)
              if (orders > 0 && st.remaining < orders) return { ok: false, category: 'orders', limit: limits.orders, reset: st.reset }
              const r = real.charge(w, rest, limits, now)
              if (r.ok && orders > 0) {
                pending.set(w, (pending.get(w) ?? 0) + orders)
                later(3, () => {
                  real.charge(w, { orders }, { ...limits, orders: Number.MAX_SAFE_INTEGER }, now)
                  pending.set(w, pending.get(w)! - orders)
                })
              }
              return r
            },
            status(w, category, limit, now) {
              const s = real.status(w, category, limit, now)
              return category === 'orders' ? { ...s, remaining: Math.max(0, s.remaining - (pending.get(w) ?? 0)) } : s
            },
          },
        },
      )
    },
  },
  {
    name: 'open-order cap race',
    how: 'the open-order count is read before an await: for 2 ms after each acceptance the cap is one higher',
    rules: ['CAP-1'],
    start: async () => {
      const nonces = createNonceStore()
      let t: Awaited<ReturnType<typeof reference>> | undefined
      const bump = (by: number) => {
        const tiers = t!.server.config.tiers
        tiers.default = { ...tiers.default!, maxOpenOrders: tiers.default!.maxOpenOrders + by }
      }
      t = await reference(
        {},
        {
          nonces: {
            has: nonces.has,
            consume(w, n) {
              nonces.consume(w, n)
              bump(1)
              later(2, () => bump(-1))
            },
          },
        },
      )
      return t
    },
  },
  {
    name: 'nonce race',
    how: 'a nonce is marked used 0 ms later (after an await): the same order sent twice at once is taken twice',
    rules: ['NONCE-2'],
    start: () => {
      const nonces = createNonceStore()
      return reference({}, { nonces: { has: nonces.has, consume: (w, n) => later(0, () => nonces.consume(w, n)) } })
    },
  },
  // -------------------------------------------------------------- perps
  {
    name: 'perp order of an agent booked to the agent',
    how: 'an approved agent without vaultAddress acts for itself on POST /exchange, not for its approving wallet',
    rules: ['EP-9', 'PERP-6', 'PERP-7', 'NONCE-2', 'AUTH-2'],
    namedMiss: true,
    seed: 2,
    start: () => {
      const agents = createAgentStore()
      return reference({}, { agents: { ...agents, owners: () => [] } })
    },
  },
  {
    name: 'post-only crossing filled',
    how: 'a perp Alo order is executed as Gtc: one that crosses is filled instead of refused',
    rules: ['PERP-9', 'EP-9'],
    namedMiss: true,
    start: () =>
      reference(
        {},
        {
          recoverPerpSigner: (input, sig, opts) => {
            const r = recoverPerpSigner(input, sig, opts)
            for (const o of ((input.action as { orders?: unknown[] }).orders ?? []) as { t?: { limit?: { tif?: string } } }[])
              if (o.t?.limit?.tif === 'Alo') o.t.limit.tif = 'Gtc'
            return r
          },
        },
      ),
  },
  {
    name: 'perp integers through a double',
    how: 'the perp action and nonce are hashed after a round trip through a JS number (2^53+1 becomes 2^53)',
    rules: ['AUTH-2', 'PERP-9', 'PERP-8'],
    seed: 2,
    start: () =>
      reference(
        {},
        {
          recoverPerpSigner: (input, sig, opts) =>
            recoverPerpSigner(
              { ...input, action: throughDouble(input.action) as Record<string, unknown>, nonce: BigInt(Number(input.nonce)) },
              sig,
              opts,
            ),
        },
      ),
  },
  {
    name: 'nonce namespace split between options and perps',
    how: 'perp nonces are kept apart from options nonces: a nonce used by an options order is taken again on POST /exchange',
    rules: ['NONCE-2'],
    namedMiss: true,
    start: () => {
      const nonces = createNonceStore()
      let space = 'options'
      return reference(
        {},
        {
          verifyOptions: (...a) => ((space = 'options'), verifyOptions(...a)),
          recoverPerpSigner: (...a) => ((space = 'perp'), recoverPerpSigner(...a)),
          nonces: { has: (w, n) => nonces.has(`${space}:${w}`, n), consume: (w, n) => nonces.consume(`${space}:${w}`, n) },
        },
      )
    },
  },
  // -------------------------------------------------------------- symbols
  {
    name: 'malformed orderbook symbol answered 400',
    how: 'GET /orderbook of a symbol that breaks the grammar answers 400 invalid_field instead of the 13020 envelope',
    rules: ['ERR-17'],
    namedMiss: true,
    start: () =>
      proxied({
        request: (r) => {
          const sym = new URL(r.path, 'http://x').searchParams.get('symbol')
          if (!r.path.startsWith('/orderbook') || sym === null || /^[A-Z0-9]+-\d{8}-\d+(\.\d+)?-[CP]$/.test(sym)) return r
          return jsonResponse(400, { code: 'invalid_field', message: 'invalid field "symbol"' })
        },
      }),
  },
  {
    name: 'orderbook 404 for an unlisted symbol',
    how: 'GET /orderbook of a well-formed unlisted symbol answers 404 not_found instead of the 13020 envelope',
    rules: ['ERR-12', 'ERR-17'],
    start: () =>
      proxied({
        response: (req, res) =>
          req.path.startsWith('/orderbook') && res.body.includes('13020')
            ? jsonResponse(404, { code: 'not_found', message: 'no such instrument' })
            : res,
      }),
  },
  {
    name: 'unknown instrument answered 500',
    how: 'an order in a well-formed unlisted symbol is answered 500 internal_error',
    rules: ['PO-9'],
    namedMiss: true,
    start: () =>
      reference(
        {},
        {
          transformReply: onReplies(['placeOrder'], (r) =>
            String(body(r).reason ?? '').startsWith('unknown instrument')
              ? { ...r, status: 500, body: { code: 'internal_error', message: 'boom' } }
              : r,
          ),
        },
      ),
  },
  // -------------------------------------------------------------- bulk
  {
    name: 'bulk batch refused when one item is bad',
    how: 'POST /bulk_order answers 400 for the whole batch when any slot is rejected (the good items are still placed)',
    rules: ['EP-3', 'EP-9'],
    namedMiss: true,
    start: () =>
      reference(
        {},
        {
          transformReply: onReplies(['placeOrders'], (r) =>
            ((body(r).results ?? []) as { status?: string }[]).some((x) => x.status === 'REJECTED') &&
            ((body(r).results ?? []) as { status?: string }[]).some((x) => x.status === 'ACKED')
              ? { ...r, status: 400, body: { code: 'invalid_field', message: 'a batch item is invalid' } }
              : r,
          ),
        },
      ),
  },
  {
    name: 'bulk slots all ACKED',
    how: 'POST /bulk_order reports every slot ACKED, rejected items included',
    rules: ['EP-3', 'AUTH-2', 'PO-12', 'ROUTE-4', 'ROUTE-5'],
    start: () =>
      reference(
        {},
        {
          transformReply: onReplies(['placeOrders'], (r) =>
            Array.isArray(body(r).results)
              ? {
                  ...r,
                  body: { ...body(r), results: (body(r).results as Record<string, unknown>[]).map((x) => ({ ...x, status: 'ACKED' })) },
                }
              : r,
          ),
        },
      ),
  },
  {
    name: 'bulk cancel by client id reports CANCELED for unknown ids',
    how: 'DELETE /bulk_order_cloid answers CANCELED for every slot, found or not',
    rules: ['EP-6', 'EP-2', 'EP-9'],
    namedMiss: true,
    start: () =>
      reference(
        {},
        {
          transformReply: onReplies(['cancelOrdersByClientId'], (r) =>
            Array.isArray(body(r).results)
              ? {
                  ...r,
                  body: { ...body(r), results: (body(r).results as Record<string, unknown>[]).map((x) => ({ ...x, status: 'CANCELED' })) },
                }
              : r,
          ),
        },
      ),
  },
  // -------------------------------------------------------------- agents
  {
    name: 'revoke ignored',
    how: 'POST /revoke-agent answers revoked but the approval stays (revoke then use still works)',
    rules: ['AGENT-4', 'AUTH-2', 'AGENT-8'],
    start: () => {
      const agents = createAgentStore()
      return reference({}, { agents: { ...agents, revoke: (o, a) => agents.isApproved(o, a) } })
    },
  },
  {
    name: 'authorized agents never listed',
    how: 'GET /authorized-agents always answers an empty list',
    rules: ['AGENT-4'],
    namedMiss: true,
    start: () =>
      reference({}, { transformReply: onReplies(['listAuthorizedAgents'], (r) => ({ ...r, body: { ...body(r), agents: [] } })) }),
  },
  {
    name: 'agent approved for every wallet',
    how: 'an approved agent may sign for any wallet, not only the ones that approved it',
    rules: ['AUTH-2'],
    start: () => {
      const agents = createAgentStore()
      return reference({}, { agents: { ...agents, isApproved: (_o, a) => agents.owners(a).length > 0 } })
    },
  },
  // -------------------------------------------------------------- caps and cancels
  {
    name: 'bulk orders not counted toward the open-order cap',
    how: 'the open-order cap is enforced on POST /order only: orders placed through POST /bulk_order go past it',
    rules: ['CAP-1'],
    start: () => {
      let bulk = false
      return reference(
        {},
        {
          parseBody: (text, ...rest) => ((bulk = /^\s*\{\s*"orders"/.test(String(text))), parseBody(text, ...rest)),
          ...swapped({
            place: (real, _self, input, caps, now) => real(input, bulk ? { ...caps, maxOpenOrders: Number.MAX_SAFE_INTEGER } : caps, now),
          }),
        },
      )
    },
  },
  {
    name: "cancel of another wallet's order",
    how: 'DELETE /order by order id cancels the order whoever owns it',
    rules: ['EP-2', 'EP-5', 'EP-9'],
    start: () =>
      reference(
        {},
        swapped({
          cancel: (real, self, wallet, by) => {
            const owner =
              'orderId' in by
                ? (self as unknown as { orders: Map<string, { walletKey: string }> }).orders.get(by.orderId)?.walletKey
                : undefined
            return real(owner ?? wallet, by)
          },
        }),
      ),
  },
  {
    name: 'canceled orders stay in the book',
    how: 'a canceled order is marked CANCELED but its size stays on the book',
    rules: ['SVC-2'],
    namedMiss: true,
    start: () => {
      const ghosts = new Map<string, { side: 'bids' | 'asks'; price: string; size: string }[]>()
      return reference(
        {},
        swapped({
          cancel: (real, _self, wallet, by) => {
            const out = real(wallet, by)
            if (out.kind === 'canceled') {
              const o = out.order as unknown as { input: { symbol: string; side: string; price: string; size: string } }
              const list = ghosts.get(o.input.symbol) ?? []
              list.push({ side: o.input.side === 'Buy' ? 'bids' : 'asks', price: o.input.price, size: o.input.size })
              ghosts.set(o.input.symbol, list)
            }
            return out
          },
          depth: (real, _self, symbol) => {
            const d = real(symbol)
            const extra = ghosts.get(symbol)
            if (!d || !extra?.length) return d
            return {
              ...d,
              bids: [...d.bids, ...extra.filter((g) => g.side === 'bids').map((g) => ({ price: g.price, size: g.size }))],
            } as typeof d
          },
        }),
      )
    },
  },
  {
    name: 'cap refusal without limit_exceeded',
    how: 'an order over the open-order cap is refused 422 with code invalid_field and no legacy error field',
    rules: ['CAP-3', 'CAP-1'],
    start: () =>
      reference(
        {},
        {
          transformReply: (r) =>
            body(r).code === 'limit_exceeded' ? { ...r, body: { code: 'invalid_field', message: 'too many open orders' } } : r,
        },
      ),
  },
  // -------------------------------------------------------------- route, nonces, signatures, headers
  {
    name: 'route-omitted notice missing',
    how: 'an order without route gets no Deprecation/Sunset (or any other notice) header',
    rules: ['ROUTE-2'],
    start: () =>
      reference(
        {},
        {
          transformReply: (r) => {
            const { Deprecation: _d, Sunset: _s, ...rest } = r.headers
            return { ...r, headers: rest }
          },
        },
      ),
  },
  {
    name: 'nonce reuse allowed',
    how: 'the nonce store never remembers a nonce',
    rules: ['NONCE-2'],
    start: () => reference({}, { nonces: { has: () => false, consume: () => {} } }),
  },
  {
    name: 'decreasing nonces refused',
    how: 'a nonce below the largest one used by the wallet is refused as reused',
    rules: ['NONCE-4'],
    start: () => {
      const max = new Map<string, bigint>()
      return reference(
        {},
        {
          nonces: {
            has: (w, n) => n <= (max.get(w.toLowerCase()) ?? -1n),
            consume: (w, n) => void max.set(w.toLowerCase(), n > (max.get(w.toLowerCase()) ?? -1n) ? n : max.get(w.toLowerCase())!),
          },
        },
      )
    },
  },
  {
    name: 'nonce consumed by a refused order',
    how: 'a proxy refuses any (wallet, nonce) it has forwarded before, whatever the outcome (no retry after a failure)',
    rules: ['NONCE-4', 'NONCE-5', 'RL-12', 'PO-12'],
    start: nonceConsumedOnFailure,
  },
  {
    name: 'price not covered by the signature',
    how: 'PlaceOrder is verified with the price the client signed taken from nowhere: any price verifies',
    rules: ['AUTH-2'],
    start: () =>
      reference(
        {},
        {
          verifyOptions: (kind, m, sig, o) => {
            if (kind !== 'PlaceOrder') return verifyOptions(kind, m, sig, o)
            const first = verifyOptions(kind, m, sig, o)
            if (first.ok && String(first.signer).toLowerCase() === String(m.wallet).toLowerCase()) return first
            // Try the price with its last digit dropped: the explorer's stale signatures verify.
            return verifyOptions(kind, { ...m, price: String(m.price).slice(0, -1) }, sig, o)
          },
        },
      ),
  },
  {
    name: 'price sent as a number accepted',
    how: 'a proxy turns a JSON-number price into a string before the server sees it',
    rules: ['AUTH-2', 'AUTH-7'],
    start: () =>
      proxied({
        request: (r) => ({
          ...r,
          body: rewriteObjects(r.body, (o) => {
            for (const k of ['size', 'price']) if (isLosslessNumber(o[k])) o[k] = String(o[k])
          }),
        }),
      }),
  },
  {
    name: 'rate-limit headers missing on refusals',
    how: 'X-RateLimit-* headers are dropped from 4xx answers',
    rules: ['RL-6'],
    start: () =>
      reference(
        {},
        {
          transformReply: (r) =>
            r.status < 400
              ? r
              : { ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => !/^x-ratelimit-/i.test(k))) },
        },
      ),
  },
  {
    name: 'batch counted once',
    how: 'a k-item batch is charged as one order (or one cancel)',
    rules: ['RL-12'],
    start: () => reference({}, { rateLimiter: batchCountedOnce() }),
  },
  {
    name: 'cancel that lost to a fill answered CANCELED',
    how: 'a proxy delays each cancel a little and answers a cancel refused because the order filled meanwhile as CANCELED',
    rules: ['EP-2'],
    start: () => cancelLostToFill(),
  },
  {
    name: 'order status filter ignored',
    how: "GET /orders?status=X lists the wallet's orders in every status",
    rules: ['EP-9'],
    start: () => proxied({ request: (r) => (r.path.startsWith('/orders?') ? { ...r, path: r.path.replace(/&status=[A-Z]+/, '') } : r) }),
  },
  {
    name: 'HEAD answered with an error-code header',
    how: 'a HEAD of a read carries X-Error-Code beside its status',
    rules: ['ERR-5'],
    start: () =>
      proxied({
        response: (req, res) => (req.method === 'HEAD' ? { ...res, headers: { ...res.headers, 'x-error-code': 'not_found' } } : res),
      }),
  },
  {
    name: 'orders listed with normalized prices',
    how: 'GET /orders shows prices and sizes normalized ("1.0" as "1", "1.50" as "1.5")',
    rules: ['EP-9'],
    namedMiss: true,
    start: () =>
      reference(
        {},
        {
          transformReply: onReplies(['listOrders'], (r) => {
            const norm = (s: unknown) => (typeof s === 'string' && s.includes('.') ? s.replace(/\.?0+$/, '') : s)
            const orders = (body(r).orders ?? []) as Record<string, unknown>[]
            return { ...r, body: { ...body(r), orders: orders.map((o) => ({ ...o, price: norm(o.price), size: norm(o.size) })) } }
          }),
        },
      ),
  },
]
