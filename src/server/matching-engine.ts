/**
 * The matching core: one price-time priority book per instrument, order records, positions from
 * fills, and the open-order / position caps (checked before matching). Pure state, no I/O; every
 * order change is reported to `onChange` (the WebSocket feed, the data directory's journal).
 * Only open orders live here: a finished one moves to the archive (archive.ts), and per-wallet
 * entries that fall to zero are deleted, so memory follows what is open.
 */
import { createMemoryArchive, type OrderArchive } from './archive.ts'
import { add, cmp, formatDec, isZero, min, mul, neg, parseDec, sub, ZERO, type Dec } from './decimal.ts'
import type { Order, OrderInput, OrderStatus } from './order-types.ts'

// The engine's API speaks these; the data directory's journal takes them from here.
export type { Order, OrderInput, OrderStatus }

export interface Caps {
  readonly maxOpenOrders: number
  /** -1: unlimited. */
  readonly maxPositions: number
}

export type PlaceOutcome =
  | { kind: 'accepted'; order: Order }
  | { kind: 'rejected'; order: Order; reason: string }
  | { kind: 'limit'; cap: 'open orders' | 'positions'; limit: number; message: string }

export type CancelOutcome = { kind: 'canceled'; order: Order } | { kind: 'rejected'; reason: string; order?: Order }

/** The resting orders at one price, oldest first. */
interface Level {
  readonly key: string
  readonly price: Dec
  readonly orders: Order[]
}

/**
 * One side of a book as price levels, best first, each found by its canonical price text: a
 * resting order joins its level's queue, so an insert costs a map lookup, not a shift of every
 * order behind it in one long array.
 */
interface BookSide {
  readonly levels: Level[]
  readonly byPrice: Map<string, Level>
  /** True when `a` is a better price than `b` on this side. */
  readonly better: (a: Dec, b: Dec) => boolean
}

interface Book {
  bids: BookSide // highest first
  asks: BookSide // lowest first
}

function bookSide(better: (a: Dec, b: Dec) => boolean): BookSide {
  return { levels: [], byPrice: new Map(), better }
}

/** What a change touched, for a journal that keeps the state on disk. */
export interface EngineObserver {
  /** An order was created or changed (placed, filled, canceled, rejected). */
  order(o: Order): void
  /** A wallet's position in a symbol changed (ZERO: closed). */
  position(walletKey: string, symbol: string, size: Dec): void
  /** A wallet had its first accepted order. */
  known(walletKey: string): void
}

export class MatchingEngine {
  private readonly books = new Map<string, Book>()
  /** Open orders only. */
  private readonly orders = new Map<string, Order>()
  private readonly byWallet = new Map<string, Order[]>()
  private readonly openCount = new Map<string, number>()
  private readonly positions = new Map<string, Map<string, Dec>>()
  /** Wallets with an accepted order: known addresses, kept when their orders are forgotten. */
  private readonly knownWallets = new Set<string>()
  private seq = 0

  constructor(
    readonly instruments: readonly string[],
    private readonly onChange: (o: Order) => void = () => {},
    readonly archive: OrderArchive = createMemoryArchive(),
    private readonly observer?: EngineObserver,
  ) {
    for (const s of instruments) this.books.set(s, { bids: bookSide((a, b) => cmp(a, b) > 0), asks: bookSide((a, b) => cmp(a, b) < 0) })
  }

  /**
   * Rebuilds state read back from a data directory: the order counter, the known wallets,
   * positions, and the open orders (oldest first), which rest in their books as they were.
   */
  restore(state: { seq: number; known: Iterable<string>; positions: Iterable<[string, string, Dec]>; open: Iterable<Order> }): void {
    this.seq = Math.max(this.seq, state.seq)
    for (const w of state.known) this.knownWallets.add(w)
    for (const [wallet, symbol, size] of state.positions) {
      let pos = this.positions.get(wallet)
      if (!pos) this.positions.set(wallet, (pos = new Map()))
      pos.set(symbol, size)
    }
    for (const o of state.open) {
      const book = this.books.get(o.input.symbol)
      if (!book || o.status !== 'OPEN') continue
      this.track(o)
      this.rest(book, o)
    }
  }

  /** The order counter (the highest order_id given so far). */
  get lastSeq(): number {
    return this.seq
  }

  private track(order: Order): void {
    this.orders.set(order.id, order)
    let list = this.byWallet.get(order.walletKey)
    if (!list) this.byWallet.set(order.walletKey, (list = []))
    list.push(order)
  }

  /** Reports a change; a finished order leaves the live maps for the archive. */
  private changed(order: Order): void {
    this.observer?.order(order)
    this.onChange(order)
    if (order.status === 'OPEN') return
    if (this.orders.delete(order.id)) {
      const list = this.byWallet.get(order.walletKey)
      const i = list ? list.indexOf(order) : -1
      if (list && i >= 0) list.splice(i, 1)
      if (list && list.length === 0) this.byWallet.delete(order.walletKey)
    }
    this.archive.add(order)
  }

  hasInstrument(symbol: string): boolean {
    return this.books.has(symbol)
  }

  /** The wallet has had an accepted order (it has state, so it is a known address). */
  hasOrders(wallet: string): boolean {
    return this.knownWallets.has(wallet.toLowerCase())
  }

  order(id: string): Order | undefined {
    return this.orders.get(id) ?? this.archive.get(id)
  }

  /** A wallet's orders, open and archived, oldest first. */
  list(wallet: string, status?: string): Order[] {
    const key = wallet.toLowerCase()
    const open = status === undefined || status === 'OPEN' ? (this.byWallet.get(key) ?? []) : []
    const done = status === 'OPEN' ? [] : this.archive.list(key)
    const all = done.length === 0 ? [...open] : open.length === 0 ? [...done] : [...open, ...done].sort((a, b) => a.seq - b.seq)
    return status === undefined ? all : all.filter((o) => o.status === status)
  }

  openOrders(wallet: string): number {
    return this.openCount.get(wallet.toLowerCase()) ?? 0
  }

  positionCount(wallet: string): number {
    return this.positions.get(wallet.toLowerCase())?.size ?? 0
  }

  position(wallet: string, symbol: string): Dec {
    return this.positions.get(wallet.toLowerCase())?.get(symbol) ?? ZERO
  }

  /** Aggregated levels, best first. */
  depth(symbol: string): { bids: { price: string; size: string }[]; asks: { price: string; size: string }[] } | null {
    const book = this.books.get(symbol)
    if (!book) return null
    const levels = (side: BookSide) =>
      side.levels.map((l) => ({
        price: l.key,
        size: formatDec(l.orders.reduce((sum, o) => add(sum, sub(o.size, o.filled)), ZERO)),
      }))
    return { bids: levels(book.bids), asks: levels(book.asks) }
  }

  private newOrder(input: OrderInput, size: Dec, price: Dec, status: OrderStatus, now: number): Order {
    this.seq += 1
    const order: Order = {
      id: String(this.seq),
      seq: this.seq,
      input,
      walletKey: input.wallet.toLowerCase(),
      size,
      price,
      filled: ZERO,
      notional: ZERO,
      status,
      createdAt: now,
    }
    if (status === 'OPEN') this.track(order)
    return order
  }

  private reject(input: OrderInput, size: Dec, price: Dec, reason: string, now: number): PlaceOutcome {
    const order = this.newOrder(input, size, price, 'REJECTED', now)
    this.changed(order)
    return { kind: 'rejected', order, reason }
  }

  /** Validates business rules and caps, then matches. `input` fields are grammar-checked already. */
  place(input: OrderInput, caps: Caps, now: number): PlaceOutcome {
    const size = parseDec(input.size)
    const price = parseDec(input.price)
    const book = this.books.get(input.symbol)
    if (!book) return this.reject(input, size, price, `unknown instrument ${input.symbol}`, now)
    if (isZero(size)) return this.reject(input, size, price, 'size must be greater than zero', now)
    if (isZero(price)) return this.reject(input, size, price, 'price must be greater than zero', now)
    if (input.route === 'rfq_only') return this.reject(input, size, price, 'rfq_only: no RFQ makers are available on this server', now)

    // Caps before matching: ioc/fok never rest and are exempt from the open-order cap.
    const key = input.wallet.toLowerCase()
    if (input.tif === 'gtc' && this.openOrders(key) >= caps.maxOpenOrders) {
      return {
        kind: 'limit',
        cap: 'open orders',
        limit: caps.maxOpenOrders,
        message: `open-order cap reached: at most ${caps.maxOpenOrders} open orders per wallet`,
      }
    }
    if (caps.maxPositions !== -1 && isZero(this.position(key, input.symbol)) && this.positionCount(key) >= caps.maxPositions) {
      return {
        kind: 'limit',
        cap: 'positions',
        limit: caps.maxPositions,
        message: `position cap reached: at most ${caps.maxPositions} positions per wallet`,
      }
    }

    const opposite = input.side === 'Buy' ? book.asks : book.bids
    // A maker's level crosses unless the taker's price is better than it on the maker's side.
    const crosses = (level: Level) => !opposite.better(price, level.price)

    if (input.tif === 'fok') {
      let available = ZERO
      levels: for (const level of opposite.levels) {
        if (!crosses(level)) break
        for (const maker of level.orders) {
          available = add(available, sub(maker.size, maker.filled))
          if (cmp(available, size) >= 0) break levels
        }
      }
      if (cmp(available, size) < 0)
        return this.reject(
          input,
          size,
          price,
          `fok: only ${formatDec(available)} of ${input.size} available at ${input.price} or better`,
          now,
        )
    }

    const order = this.newOrder(input, size, price, 'OPEN', now)
    if (!this.knownWallets.has(order.walletKey)) {
      this.knownWallets.add(order.walletKey)
      this.observer?.known(order.walletKey)
    }
    const touched: Order[] = []
    while (opposite.levels.length > 0 && cmp(order.filled, size) < 0) {
      const level = opposite.levels[0]!
      if (!crosses(level)) break
      const maker = level.orders[0]!
      const qty = min(sub(size, order.filled), sub(maker.size, maker.filled))
      this.fill(maker, qty, maker.price)
      this.fill(order, qty, maker.price)
      if (cmp(maker.filled, maker.size) === 0) {
        maker.status = 'FILLED'
        level.orders.shift()
        if (level.orders.length === 0) removeLevel(opposite, 0)
        this.bumpOpen(maker.walletKey, -1)
      }
      touched.push(maker)
    }
    if (cmp(order.filled, size) === 0) order.status = 'FILLED'
    else if (input.tif === 'gtc') {
      this.rest(book, order)
    } else order.status = 'CANCELED' // ioc: the rest is canceled
    for (const m of touched) this.changed(m)
    this.changed(order)
    return { kind: 'accepted', order }
  }

  cancel(wallet: string, by: { orderId: string } | { clientId: string }): CancelOutcome {
    const key = wallet.toLowerCase()
    let order: Order | undefined
    if ('orderId' in by) {
      order = this.order(by.orderId)
      if (!order || order.walletKey !== key) return { kind: 'rejected', reason: `order ${by.orderId} not found for this wallet` }
    } else {
      const latest = (list: readonly Order[]) => list.findLast((o) => o.input.clientId === by.clientId)
      order = latest(this.byWallet.get(key) ?? []) ?? latest(this.archive.list(key))
      if (!order) return { kind: 'rejected', reason: `no order with client_id ${JSON.stringify(by.clientId.slice(0, 80))} for this wallet` }
    }
    if (order.status !== 'OPEN') return { kind: 'rejected', reason: `order ${order.id} is ${order.status}, not open`, order }
    const book = this.books.get(order.input.symbol)!
    const side = order.input.side === 'Buy' ? book.bids : book.asks
    const level = side.byPrice.get(formatDec(order.price))
    const i = level ? level.orders.indexOf(order) : -1
    if (level && i >= 0) {
      level.orders.splice(i, 1)
      if (level.orders.length === 0) removeLevel(side, side.levels.indexOf(level))
    }
    order.status = 'CANCELED'
    this.bumpOpen(key, -1)
    this.changed(order)
    return { kind: 'canceled', order }
  }

  private fill(o: Order, qty: Dec, px: Dec): void {
    o.filled = add(o.filled, qty)
    o.notional = add(o.notional, mul(qty, px))
    const signed = o.input.side === 'Buy' ? qty : neg(qty)
    let pos = this.positions.get(o.walletKey)
    if (!pos) this.positions.set(o.walletKey, (pos = new Map()))
    const next = add(pos.get(o.input.symbol) ?? ZERO, signed)
    if (isZero(next)) {
      pos.delete(o.input.symbol)
      if (pos.size === 0) this.positions.delete(o.walletKey)
    } else pos.set(o.input.symbol, next)
    this.observer?.position(o.walletKey, o.input.symbol, next)
  }

  /** Price, then time priority: the order joins the back of its price's queue. */
  private rest(book: Book, order: Order): void {
    const side = order.input.side === 'Buy' ? book.bids : book.asks
    const key = formatDec(order.price)
    let level = side.byPrice.get(key)
    if (!level) {
      level = { key, price: order.price, orders: [] }
      // Levels are unique by price: the new one goes after every better one.
      let lo = 0
      let hi = side.levels.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (side.better(side.levels[mid]!.price, order.price)) lo = mid + 1
        else hi = mid
      }
      side.levels.splice(lo, 0, level)
      side.byPrice.set(key, level)
    }
    level.orders.push(order)
    this.bumpOpen(order.walletKey, 1)
  }

  private bumpOpen(key: string, by: number): void {
    const n = (this.openCount.get(key) ?? 0) + by
    if (n === 0) this.openCount.delete(key)
    else this.openCount.set(key, n)
  }
}

function removeLevel(side: BookSide, at: number): void {
  const [level] = side.levels.splice(at, 1)
  if (level) side.byPrice.delete(level.key)
}
