/**
 * Race-faulty servers: each is correct for requests sent one after another and wrong only when
 * requests for one wallet overlap, because a count is read on one side of an `await` and written
 * on the other. Built like the broken servers: the reference server with one `ServerDeps` seam
 * swapped, or a proxy in front of it that keeps the count the server should have kept.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { CheckSelector } from '../../src/check/server/registry.ts'
import type { RateCategory } from '../../src/contract/index.ts'
import { createNonceStore, createRateLimiter, defaultConfig, type RateLimiter } from '../../src/server/index.ts'
import { contract } from '../helpers/shipped.ts'
import { jsonResponse, type ProxyRequest, type ProxyResponse, proxied, reference, type Target } from './broken-servers.ts'

export interface RaceServer {
  readonly name: string
  readonly how: string
  /** The checks that must fail against it (each in a run of its own). */
  readonly caughtBy: readonly CheckSelector[]
  start(): Promise<Target>
}

/** A delay of 0 to 5 ms, the width of the race window. */
const window05 = () => sleep(Math.random() * 5)

/**
 * A limiter that reads the counters at once and writes the charge 0–5 ms later, as a handler
 * that awaits between `get` and `set` would: requests read in between all see room.
 */
function lateRateCounter(): RateLimiter {
  const real = createRateLimiter(60)
  const unlimited = { orders: Number.POSITIVE_INFINITY, cancels: Number.POSITIVE_INFINITY, api: Number.POSITIVE_INFINITY }
  return {
    charge(wallet, cost, limits, nowMs) {
      for (const cat in cost) {
        const c = cat as RateCategory
        const n = cost[c] ?? 0
        const s = real.status(wallet, c, limits[c], nowMs)
        if (n > 0 && n > s.remaining) return { ok: false, category: c, limit: limits[c], reset: s.reset }
      }
      void window05().then(() => real.charge(wallet, cost, unlimited, nowMs))
      return { ok: true }
    },
    status: real.status,
  }
}

/** Open orders per wallet as the proxy has counted them. */
class OpenCount {
  private readonly n = new Map<string, number>()
  get(wallet: string): number {
    return this.n.get(wallet) ?? 0
  }
  add(wallet: string, by: number): void {
    this.n.set(wallet, this.get(wallet) + by)
  }
}

type Order = { wallet?: unknown; tif?: unknown }

function ordersOf(req: ProxyRequest): { wallet: string; gtc: number; bulk: boolean } | undefined {
  if (req.method !== 'POST' || (req.path !== '/order' && req.path !== '/bulk_order')) return undefined
  let doc: unknown
  try {
    doc = JSON.parse(req.body)
  } catch {
    return undefined
  }
  const bulk = req.path === '/bulk_order'
  const items = (bulk ? (doc as { orders?: unknown }).orders : [doc]) as Order[] | undefined
  if (!Array.isArray(items) || typeof items[0]?.wallet !== 'string') return undefined
  return { wallet: items[0].wallet.toLowerCase(), gtc: items.filter((o) => o?.tif === 'gtc').length, bulk }
}

function ackedIn(res: ProxyResponse): number {
  if (res.status !== 200) return 0
  const doc = JSON.parse(res.body) as { status?: string; results?: { status?: string }[] }
  return Array.isArray(doc.results) ? doc.results.filter((r) => r.status === 'ACKED').length : doc.status === 'ACKED' ? 1 : 0
}

/**
 * The open-order cap kept by a proxy in front of a reference server that has none.
 * - `late`: the count is read, then 0–5 ms pass before the order goes on (the cap counted after
 *   an `await`); it grows when the acceptance comes back.
 * - `apart`: batches and single orders are counted in two separate counts, each held to the cap
 *   (and counted correctly: reserved before the order goes on).
 */
async function capProxy(mode: 'late' | 'apart'): Promise<Target> {
  const tiers = structuredClone(defaultConfig(contract).tiers)
  const cap = tiers.default!.maxOpenOrders
  tiers.default = { ...tiers.default!, maxOpenOrders: 1_000_000 }
  const singles = new OpenCount()
  const batched = new OpenCount()
  const countFor = (bulk: boolean) => (mode === 'apart' && bulk ? batched : singles)
  const refuse = (bulk: boolean, items: number): ProxyResponse => {
    const message = `open-order cap reached: at most ${cap} open orders per wallet`
    return bulk
      ? jsonResponse(200, {
          results: Array.from({ length: items }, () => ({ status: 'REJECTED', reason: message, code: 'limit_exceeded' })),
        })
      : jsonResponse(422, { code: 'limit_exceeded', error: 'limit_exceeded', message })
  }
  return proxied(
    {
      async request(req) {
        const o = ordersOf(req)
        if (!o || o.gtc === 0) return req
        const count = countFor(o.bulk)
        const open = count.get(o.wallet)
        if (mode === 'late') await window05()
        if (open + o.gtc > cap) return refuse(o.bulk, o.gtc)
        if (mode === 'apart') count.add(o.wallet, o.gtc)
        return req
      },
      response(req, res) {
        const o = ordersOf(req)
        if (!o || o.gtc === 0) return res
        const acked = ackedIn(res)
        // late: the count follows the acceptances; apart: give back what was reserved and not taken.
        countFor(o.bulk).add(o.wallet, mode === 'late' ? acked : acked - o.gtc)
        return res
      },
    },
    { tiers },
  )
}

export const RACE_SERVERS: readonly RaceServer[] = [
  {
    name: 'rate-limit counter written after an await',
    how: 'the limiter reads the window counters at once and writes the charge 0–5 ms later',
    caughtBy: ['rl.order-burst', 'rl.cancel-burst', 'rl.bulk-race'],
    start: () => reference({}, { rateLimiter: lateRateCounter() }),
  },
  {
    name: 'nonce check and mark split by an await',
    how: 'a nonce is checked at once and marked used after a 0 ms timer (one event-loop turn)',
    caughtBy: ['nonce.race'],
    start: () => {
      const real = createNonceStore()
      return reference({}, { nonces: { has: real.has, consume: (w, n) => void sleep(0).then(() => real.consume(w, n)) } })
    },
  },
  {
    name: 'open-order cap counted after an await',
    how: 'the open orders are counted, then 0–5 ms pass before the order is placed',
    caughtBy: ['cap.open-orders-burst', 'cap.bulk-race'],
    start: () => capProxy('late'),
  },
  {
    name: 'bulk cap counted apart from single orders',
    how: 'orders placed by batches and single orders are held to the open-order cap in two separate counts',
    caughtBy: ['cap.bulk-race'],
    start: () => capProxy('apart'),
  },
]

/** The concurrency checks of the default run. */
export const CONCURRENCY_CHECKS = [
  'nonce.race',
  'rl.order-burst',
  'rl.cancel-burst',
  'rl.bulk-race',
  'cap.open-orders-burst',
  'cap.bulk-race',
] as const satisfies readonly CheckSelector[]
