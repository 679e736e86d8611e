/**
 * A sequence's order updates over `/ws`, on both sides: one subscriber per side follows the
 * sequence's wallets, and after a step the latest update each side pushed for each of the
 * sequence's orders is compared (the same order has each side's own id). Updates may be coalesced
 * (the reference sends at most one write per 20 ms under a stream), so what is compared is the last
 * record an order's updates left, not their number. The channel and payloads are assumed (WS-2):
 * a difference warns.
 */
import type { WebSocketModel } from '../../contract/index.ts'
import { OrderFeedClient } from '../target/ws.ts'
import { divergence, type Divergence } from './compare.ts'

/** Where each side's subscriber connects. */
export interface Feeds {
  readonly target: string
  readonly oracle: string
  readonly headers: Readonly<Record<string, string>>
  readonly websocket: WebSocketModel
}

/** One order of the sequence, by each side's id. */
export interface OrderPair {
  readonly target?: string | undefined
  readonly oracle?: string | undefined
}

/** How long an update the reference pushed may take to come from the target. */
const SETTLE_MS = 500
/** How long to wait for the reference's own update after a step that changed state. */
const ORACLE_MS = 25

/**
 * A target whose `/ws` did not open once (a gateway that passes no upgrade) is not tried again
 * by any sequence of any shard in this thread (each try would wait the whole open timeout): one
 * sequence reports it, the later ones compare no updates, so that the one finding does not fill
 * the run's cap of findings and end exploration early. Keyed by the target's base URL.
 */
const unopened = new Set<string>()

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The last record each order's updates left, by order id: `status|filled_size`. */
function latest(messages: readonly unknown[], channel: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of messages)
    if (isObj(m) && m.channel === channel && isObj(m.data) && typeof m.data.order_id === 'string')
      out.set(m.data.order_id, `${String(m.data.status)}|${String(m.data.filled_size)}`)
  return out
}

/**
 * What the target's last update says against the reference's, order by order; with `fillsOnly`
 * (another client trades on the target's book) how much filled is no verdict, as for the records.
 */
export function compareUpdates(
  target: ReadonlyMap<string, string>,
  oracle: ReadonlyMap<string, string>,
  orders: readonly OrderPair[],
  fillsOnly: boolean,
): string[] {
  const cls = (v: string | undefined) => {
    if (v === undefined || !fillsOnly) return v ?? 'no update'
    const status = v.split('|')[0]
    return status === 'OPEN' || status === 'FILLED' ? 'live' : status
  }
  const out: string[] = []
  for (const o of orders) {
    if (o.target === undefined || o.oracle === undefined) continue
    const want = oracle.get(o.oracle)
    if (want === undefined) continue
    const got = target.get(o.target)
    if (cls(got) !== cls(want)) out.push(`order ${o.target}: target ${got ?? 'no update'}; reference ${want}`)
  }
  return out
}

export class WsWatch {
  private target: OrderFeedClient | undefined
  private oracle: OrderFeedClient | undefined
  private broken: string | undefined
  private readonly channel: string

  constructor(private readonly feeds: Feeds) {
    this.channel = Object.keys(feeds.websocket.channels)[0] ?? 'orders'
  }

  /**
   * Both subscribers open and following `wallets`. The subscription has no acknowledgement: a
   * message the server refuses after the subscribes (an unknown channel) comes back only once they
   * were handled, so its answer (or a short wait, from a server that answers nothing) marks the
   * point after which every update is delivered.
   */
  async watch(wallets: readonly string[]): Promise<void> {
    // Reported by the sequence that found it: the later ones skip /ws rather than say it again
    // (each saying would count as a find and end exploration early on a target without /ws).
    if (unopened.has(this.feeds.target)) return
    this.target = new OrderFeedClient(this.feeds.target, this.feeds.websocket.path, this.feeds.headers)
    this.oracle = new OrderFeedClient(this.feeds.oracle, this.feeds.websocket.path)
    const [t, o] = await Promise.all([this.target.opened(), this.oracle.opened()])
    if (o) throw new Error(`the reference's ${this.oracle.url} did not open: ${o}`)
    if (t) {
      this.broken = `cannot open ${this.target.url}: ${t}`
      unopened.add(this.feeds.target)
      return
    }
    await Promise.all(
      [this.target, this.oracle].map(async (feed) => {
        for (const w of wallets) feed.subscribe(this.channel, w)
        feed.send({ method: 'subscribe', params: { channel: '' } })
        const before = feed.messages.length
        const deadline = Date.now() + 500
        while (feed.messages.length === before && Date.now() < deadline) await feed.next(50)
      }),
    )
  }

  /**
   * After a step: the reference's update given its moment to come, then the target's given
   * SETTLE_MS to agree; the orders whose last updates still differ are one divergence.
   */
  async check(orders: readonly OrderPair[], changed: boolean, fillsOnly: boolean): Promise<Divergence[]> {
    if (this.broken) {
      const why = this.broken
      this.broken = undefined
      return [divergence('WS-2', why)]
    }
    if (!this.target || !this.oracle) return []
    // The reference closed its own subscriber (a slow consumer under a flood): nothing to compare with.
    if (this.oracle.closed) return this.stop([])
    if (changed) {
      const before = this.oracle.messages.length
      const deadline = Date.now() + ORACLE_MS
      while (this.oracle.messages.length === before && Date.now() < deadline) await this.oracle.next(10)
    }
    const differ = () =>
      compareUpdates(latest(this.target!.messages, this.channel), latest(this.oracle!.messages, this.channel), orders, fillsOnly)
    let d = differ()
    const deadline = Date.now() + SETTLE_MS
    while (d.length && !this.target.closed && Date.now() < deadline) {
      await this.target.next(20)
      d = differ()
    }
    if (this.target.closed && !d.length) return this.stop([divergence('WS-2', `the target closed ${this.target.url}`)])
    // Found once: the rest of the sequence would only wait for the same difference again.
    return d.length ? this.stop([divergence('WS-2', `/ws ${this.channel} updates differ: ${d.slice(0, 3).join('; ')}`)]) : []
  }

  private stop(found: Divergence[]): Divergence[] {
    this.close()
    this.target = this.oracle = undefined
    return found
  }

  close(): void {
    this.target?.close()
    this.oracle?.close()
  }
}
