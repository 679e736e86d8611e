/**
 * A sequence's order updates over the target's `/ws`, against the reference's records: one
 * subscriber per shard follows each sequence's wallets, and at the end of the sequence the last
 * update the target pushed for each of its orders is compared with the reference's record of the
 * same order (each side's own id). The reference pushes every change of an order as its record
 * (`data: order record`), so its record is the last update it would have pushed: no subscriber on
 * the reference and no wait for its updates. Updates may be coalesced (the reference sends at most
 * one write per 20 ms under a stream), so what is compared is the last record an order's updates
 * left, not their number, and once per sequence: a step's update may still be on its way when the
 * next step runs. The channel and payloads are assumed (WS-2): a difference warns.
 */
import type { WebSocketModel } from '../../contract/index.ts'
import { OrderFeedClient } from '../target/ws.ts'
import { divergence, type Divergence } from './compare.ts'

/** Where the target's subscriber connects. */
export interface Feeds {
  readonly target: string
  readonly headers: Readonly<Record<string, string>>
  readonly websocket: WebSocketModel
}

/** One order of the sequence, by each side's id. */
export interface OrderPair {
  readonly target?: string | undefined
  readonly oracle?: string | undefined
}

/** How long the target's updates may take to agree with the reference's records. */
const SETTLE_MS = 500
/** How long to wait for the answer that marks the subscriptions handled, from a server that answers nothing. */
const SUBSCRIBED_MS = 500
/**
 * Sequences one connection follows before it is opened afresh: the channel has no unsubscribe,
 * so a connection keeps every wallet it followed until it closes, and a server holds them all.
 */
const SEQUENCES_PER_CONNECTION = 64

/**
 * A target whose `/ws` did not open once (a gateway that passes no upgrade) is not tried again
 * by any sequence of any shard in this thread (each try would wait the whole open timeout): one
 * sequence reports it, the later ones compare no updates, so that the one finding does not fill
 * the run's cap of findings and end exploration early. Keyed by the target's base URL.
 */
const unopened = new Set<string>()

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** What of an order record (an update's `data`, a listing's entry) is compared: `status|filled_size`. */
export const updateOf = (r: Record<string, unknown>): string => `${String(r.status)}|${String(r.filled_size)}`

/** The last record each order's updates left, by order id. */
function latest(messages: readonly unknown[], channel: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of messages)
    if (isObj(m) && m.channel === channel && isObj(m.data) && typeof m.data.order_id === 'string')
      out.set(m.data.order_id, updateOf(m.data))
  return out
}

/**
 * What the target's last update says against the reference's record, order by order; with
 * `fillsOnly` (another client trades on the target's book) how much filled is no verdict, as for
 * the records.
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

/** The target's subscriber of one shard, across its sequences (they run one after another). */
export class WsWatch {
  private feed: OrderFeedClient | undefined
  private followed = 0
  private broken: string | undefined
  private readonly channel: string

  constructor(private readonly feeds: Feeds) {
    this.channel = Object.keys(feeds.websocket.channels)[0] ?? 'orders'
  }

  /**
   * The subscriber open and following `wallets` (a new sequence's). The subscription has no
   * acknowledgement: a message the server refuses after the subscribes (an unknown channel) comes
   * back only once they were handled, so its answer (or a short wait, from a server that answers
   * nothing) marks the point after which every update is delivered. The earlier sequences' updates
   * are dropped: their wallets are not this one's.
   */
  async watch(wallets: readonly string[]): Promise<void> {
    // Reported by the sequence that found it: the later ones skip /ws rather than say it again
    // (each saying would count as a find and end exploration early on a target without /ws).
    if (unopened.has(this.feeds.target)) return
    if (!this.feed || this.feed.closed || this.followed >= SEQUENCES_PER_CONNECTION) {
      this.close()
      const feed = new OrderFeedClient(this.feeds.target, this.feeds.websocket.path, this.feeds.headers)
      const why = await feed.opened()
      if (why) {
        feed.close()
        this.broken = `cannot open ${feed.url}: ${why}`
        unopened.add(this.feeds.target)
        return
      }
      this.feed = feed
      this.followed = 0
    }
    const feed = this.feed
    this.followed++
    feed.messages.length = 0
    for (const w of wallets) feed.subscribe(this.channel, w)
    feed.send({ method: 'subscribe', params: { channel: '' } })
    const deadline = Date.now() + SUBSCRIBED_MS
    while (feed.messages.length === 0 && !feed.closed && Date.now() < deadline) await feed.next(50)
  }

  /**
   * At the end of a sequence: the target's last updates given SETTLE_MS to agree with the
   * reference's records (`reference`, `status|filled_size` by the reference's order id); the
   * orders whose last updates still differ are one divergence.
   */
  async settle(orders: readonly OrderPair[], reference: ReadonlyMap<string, string>, fillsOnly: boolean): Promise<Divergence[]> {
    if (this.broken) {
      const why = this.broken
      this.broken = undefined
      return [divergence('WS-2', why)]
    }
    const feed = this.feed
    if (!feed) return []
    const differ = () => compareUpdates(latest(feed.messages, this.channel), reference, orders, fillsOnly)
    let d = differ()
    const deadline = Date.now() + SETTLE_MS
    while (d.length && !feed.closed && Date.now() < deadline) {
      await feed.next(20)
      d = differ()
    }
    if (d.length) return [divergence('WS-2', `/ws ${this.channel} updates differ: ${d.slice(0, 3).join('; ')}`)]
    // Closed by the target: the next sequence opens another.
    return feed.closed ? [divergence('WS-2', `the target closed ${feed.url}`)] : []
  }

  close(): void {
    this.feed?.close()
    this.feed = undefined
  }
}
