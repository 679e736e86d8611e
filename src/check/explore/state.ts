/**
 * The visible state read back from both sides after a write, and compared: a wallet's order
 * records (and the open-order cap on the target), an instrument's book, a wallet's agents. On a
 * live target a read that differs is made again once the mirror has carried the target's book over.
 */
import { cmp, parseDec, sub, ZERO } from '../../server/decimal.ts'
import type { HttpExchange } from '../target/http.ts'
import { divergence, invariant, type Divergence } from './compare.ts'
import { both, type BookLevels } from './pair.ts'
import type { Step, SymbolPick } from './steps.ts'
import type { StepVerdict, World } from './world.ts'

interface Envelope {
  jsonrpc?: unknown
  result?: { bids?: unknown; asks?: unknown } | null
  error?: { code?: unknown } | null
}

/** A wallet's order records as comparable lines, leaving out the orders in `except` (by id); undefined when the answer has no order list. */
function records(e: HttpExchange, except?: ReadonlySet<string>): string[] | undefined {
  const list = (e.response?.json as { orders?: unknown } | undefined)?.orders
  if (!Array.isArray(list)) return undefined
  return list
    .filter((r: Record<string, unknown>) => !except?.has(String(r.order_id)))
    .map((r: Record<string, unknown>) => [r.symbol, r.side, r.size, r.price, r.tif, r.filled_size, r.status].map(String).join('|'))
    .sort()
}

/** A wallet's order records as one side lists them, leaving out a tier wallet's orders from before the sequence. */
export function sideRecords(w: World, e: HttpExchange, addr: string, side: 'target' | 'oracle'): string[] | undefined {
  return records(e, w.ledger.isTierWallet(addr) ? w.earlier?.[side] : undefined)
}

export interface OrderRecord {
  readonly symbol: string
  readonly side: string
  readonly size: string
  readonly price: string
  readonly filled_size: string
  readonly status: string
}

/** One order's record in a listing, by its id on that side. */
export function orderRecord(e: HttpExchange, id: string): OrderRecord | undefined {
  const list = (e.response?.json as { orders?: Record<string, unknown>[] } | undefined)?.orders
  const r = Array.isArray(list) ? list.find((x) => String(x?.order_id) === id) : undefined
  if (!r) return undefined
  const fields = ['symbol', 'side', 'size', 'price', 'filled_size', 'status'] as const
  if (!fields.every((k) => typeof r[k] === 'string')) return undefined
  // Decimals the toolkit cannot read are the comparisons' business, not a race's.
  if (![r.size, r.filled_size, r.price].every((v) => /^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(String(v)))) return undefined
  return r as unknown as OrderRecord
}

/** The ids of every order a listing holds. */
export function orderIds(e: HttpExchange): Set<string> {
  const list = (e.response?.json as { orders?: { order_id?: unknown }[] } | undefined)?.orders
  return new Set(Array.isArray(list) ? list.map((r) => String(r?.order_id)) : [])
}

/**
 * The same orders on both sides but for how much of each filled (an OPEN order on one side may be
 * FILLED on the other; a CANCELED or REJECTED one must be so on both): what another client
 * trading on the target's book between two reads would leave.
 */
function fillsOnly(target: readonly string[], oracle: readonly string[]): boolean {
  // A record is symbol|side|size|price|tif|filled_size|status: the first five say which order it is.
  const orders = (rs: readonly string[]) =>
    rs
      .map((r) => {
        const f = r.split('|')
        const status = f[6] === 'OPEN' || f[6] === 'FILLED' ? 'live' : f[6]
        return [...f.slice(0, 5), status].join('|')
      })
      .sort()
      .join('\n')
  return orders(target) === orders(oracle)
}

/**
 * GET /orders of the wallets on both sides, compared; the open-order cap checked on the target.
 * On a live target someone else may take one of our orders between the step and this read:
 * records that differ are read again once the mirror has carried the target's book over, and
 * only a difference that remains is one. With `step`, the reads are that step's trace entry;
 * without, they join the last one.
 */
export async function state(w: World, wallets: readonly number[], step?: Step): Promise<StepVerdict> {
  const { pair } = w
  const tx: HttpExchange[] = []
  const ox: HttpExchange[] = []
  const out: Divergence[] = []
  const addrs = [...new Set(wallets)].map((i) => w.wallets[i]!.address)
  // Reads only, of wallets apart: sent at once (a live target costs one round trip, not one a
  // wallet), then judged in order as before.
  const first = await Promise.all(addrs.map((addr) => both(pair, 'listOrders', undefined, undefined, { wallet: addr })))
  for (const [k, addr] of addrs.entries()) {
    let [te, oe] = first[k]!
    if (pair.mirror && sideRecords(w, te, addr, 'target')?.join('\n') !== sideRecords(w, oe, addr, 'oracle')?.join('\n')) {
      await pair.mirror.sync()
      ;[te, oe] = await both(pair, 'listOrders', undefined, undefined, { wallet: addr })
    }
    tx.push(te), ox.push(oe)
    const [t, o] = [sideRecords(w, te, addr, 'target'), sideRecords(w, oe, addr, 'oracle')]
    if (t === undefined && o !== undefined)
      out.push(divergence('EP-8', `GET /orders answered ${te.response?.status ?? 'nothing'} with no order list`))
    else if (t && o) {
      const open = t.filter((r) => r.endsWith('|OPEN')).length
      const cap = w.ledger.openCap(addr)
      if (open > cap) out.push(invariant('CAP-1', `the target holds ${open} open orders of ${addr}; the cap is ${cap}`))
      else if (t.join('\n') !== o.join('\n')) {
        // Someone else on a shared book traded with our orders between the mirror's read and
        // ours, or took one of two equal orders at a level: records that differ in how much
        // filled and nothing else are no verdict, and the sequence ends here.
        if (pair.mirror?.sawForeign && fillsOnly(t, o)) return 'rolled'
        out.push(divergence('EP-9', `orders of ${addr} differ: target [${t.join(', ')}]; reference [${o.join(', ')}]`))
      }
    }
  }
  if (step) w.record(step, tx, ox)
  else w.append(tx, ox)
  return out
}

/**
 * An instrument's book on both sides: the levels, or for an unlisted symbol the 13020 envelope.
 * `resync` false: the book as the step left it, never evened first (a book read after a fill,
 * which the mirror would carry over as someone else's liquidity).
 */
export async function book(w: World, symbol: string, pick: SymbolPick, step?: Step, resync = true): Promise<Divergence[]> {
  const { pair } = w
  let [te, oe] = await both(pair, 'getOrderbook', undefined, undefined, { symbol })
  // As for the orders: a live book may have moved since the step's sync; once more after another.
  if (resync && pair.mirror && te.response?.body !== oe.response?.body) {
    await pair.mirror.sync()
    ;[te, oe] = await both(pair, 'getOrderbook', undefined, undefined, { symbol })
  }
  if (step) w.record(step, [te], [oe])
  else w.append([te], [oe])
  const t = te.response?.json as Envelope | undefined
  const o = oe.response?.json as Envelope | undefined
  if (o?.result === null) {
    const ok = te.response?.status === 200 && t?.jsonrpc === '2.0' && t.result === null && t.error?.code === 13020
    if (!ok)
      return [
        divergence(
          pick === 'malformed' || pick === 'lower' ? 'ERR-17' : 'ERR-12',
          `GET /orderbook?symbol=${symbol}: target ${te.response?.status ?? 'no answer'} ${te.response?.body.slice(0, 120) ?? ''}; reference the 13020 envelope`,
        ),
      ]
    return []
  }
  if (te.response?.status !== 200 || t?.jsonrpc !== '2.0')
    return [
      divergence('EP-8', `GET /orderbook?symbol=${symbol}: target ${te.response?.status ?? 'no answer'} without the JSON-RPC envelope`),
    ]
  const levels = (x: Envelope | undefined) => JSON.stringify([x?.result?.bids ?? null, x?.result?.asks ?? null])
  if (levels(t) === levels(o)) return []
  // Read as the step left it on a live target, another client may have taken from the step's
  // orders before this read, or rested an order since the step's sync (the mirror has not seen
  // either yet): less at a price is no verdict there, nor more that arrived during the step; a
  // level the reference does not hold, or more at one, that the target already showed at the
  // sync (a filled maker's level kept) still is.
  if (!resync && pair.mirror && explainedLive(t, o, pair.mirror.targetAtSync(symbol))) return []
  return [divergence('SVC-2', `book ${symbol}: target ${levels(t)}; reference ${levels(o)}`)]
}

type Level = { price?: unknown; size?: unknown }

/**
 * Whether the target's book differs from the reference's only by what another client may have
 * done during the step: every target level holds no more than the reference's at its price, or
 * its surplus arrived since the sync (`atSync`, the target's book then).
 */
export function explainedLive(t: Envelope | undefined, o: Envelope | undefined, atSync: BookLevels | undefined): boolean {
  const sides = (x: Envelope | undefined) => [x?.result?.bids, x?.result?.asks] as unknown[]
  const [tb, ta] = sides(t)
  const [ob, oa] = sides(o)
  const sizeAt = (levels: unknown, price: unknown) => {
    const at = Array.isArray(levels) ? (levels as Level[]).find((r) => r.price === price) : undefined
    return at === undefined ? ZERO : parseDec(String(at.size))
  }
  const within = (tl: unknown, ol: unknown, then: unknown): boolean => {
    if (!Array.isArray(tl) || !Array.isArray(ol)) return false
    try {
      return (tl as Level[]).every((l) => {
        const size = parseDec(String(l.size))
        const surplus = sub(size, sizeAt(ol, l.price))
        return cmp(surplus, ZERO) <= 0 || (then !== undefined && cmp(surplus, sub(size, sizeAt(then, l.price))) <= 0)
      })
    } catch {
      return false
    }
  }
  return within(tb, ob, atSync?.bids) && within(ta, oa, atSync?.asks)
}

/** A wallet's agents on both sides (on a tier wallet, only the sequence's own agents). */
export async function agentsState(w: World, wallet: number, step?: Step): Promise<StepVerdict> {
  const addr = w.wallets[wallet]!.address
  const [te, oe] = await both(w.pair, 'listAuthorizedAgents', undefined, undefined, { wallet: addr })
  if (step) w.record(step, [te], [oe])
  else w.append([te], [oe])
  // Only the sequence's own agents: a tier wallet may hold approvals from before the sequence.
  const ours = new Set(w.agents.map((a) => a.address.toLowerCase()))
  const tier = w.ledger.isTierWallet(addr)
  const agents = (e: HttpExchange) =>
    JSON.stringify(
      ((e.response?.json as { agents?: { agent?: unknown }[] } | undefined)?.agents ?? [])
        .map((a) => String(a?.agent).toLowerCase())
        .filter((a) => !tier || ours.has(a))
        .sort(),
    )
  if (agents(te) !== agents(oe)) return [divergence('AGENT-4', `agents of ${addr}: target ${agents(te)}; reference ${agents(oe)}`)]
  return []
}
