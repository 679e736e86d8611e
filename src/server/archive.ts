/**
 * Where finished orders (FILLED, CANCELED, REJECTED) go when they leave the live state: the
 * books and the matching core keep only open orders, so memory follows what is open, not
 * everything ever placed. In memory mode the archive keeps the most recent `retain` finished
 * orders and forgets older ones; with `--data` it is the database (persist/).
 */
import type { Order } from './order-types.ts'

/** How far back GET /orders sees finished orders. */
export interface Horizon {
  /** Every finished order is still listed. */
  readonly complete: boolean
  /** Finished orders kept (memory mode); null when nothing is ever forgotten. */
  readonly retain: number | null
  /** The highest order_id forgotten so far (older finished orders are not listed); null when none was. */
  readonly forgottenThrough: string | null
}

export interface OrderArchive {
  /** A finished order leaves the live state. */
  add(order: Order): void
  get(id: string): Order | undefined
  /** A wallet's finished orders still known, oldest first (`walletKey` lower-case). */
  list(walletKey: string): Order[]
  horizon(): Horizon
}

/** The newest `retain` finished orders, in finishing order; older ones are forgotten. */
export function createMemoryArchive(retain: number = Number.POSITIVE_INFINITY): OrderArchive {
  const byId = new Map<string, Order>()
  const byWallet = new Map<string, Order[]>()
  // A queue as an array and a head index: shifting a long array per order would be quadratic.
  let queue: Order[] = []
  let head = 0
  let forgotten: Order | null = null
  const forgetOldest = () => {
    const old = queue[head]!
    queue[head++] = undefined as unknown as Order
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head)
      head = 0
    }
    byId.delete(old.id)
    const list = byWallet.get(old.walletKey)
    if (list) {
      // Finished orders leave in the order they came, so a wallet's oldest is at the front.
      const i = list.indexOf(old)
      if (i >= 0) list.splice(i, 1)
      if (list.length === 0) byWallet.delete(old.walletKey)
    }
    if (forgotten === null || old.seq > forgotten.seq) forgotten = old
  }
  return {
    add(order) {
      if (retain === 0) {
        if (forgotten === null || order.seq > forgotten.seq) forgotten = order
        return
      }
      byId.set(order.id, order)
      let list = byWallet.get(order.walletKey)
      if (!list) byWallet.set(order.walletKey, (list = []))
      list.push(order)
      queue.push(order)
      if (queue.length - head > retain) forgetOldest()
    },
    get: (id) => byId.get(id),
    list: (walletKey) => byWallet.get(walletKey) ?? [],
    horizon: () => ({
      complete: forgotten === null,
      retain: Number.isFinite(retain) ? retain : null,
      forgottenThrough: forgotten?.id ?? null,
    }),
  }
}
