/**
 * The oracle shares a live target's world: before each step, every book the shard trades is made
 * the same on the oracle as the target shows it. A live target's book holds what the explorer
 * did not put there (other clients' orders, an earlier run's leftovers), and an order of ours
 * fills against it there; an oracle without it would call that fill a divergence. So the
 * difference is carried over: liquidity the target shows and the oracle lacks rests on the
 * oracle as orders of "ghost" wallets that only the oracle knows, and our orders that someone
 * else took on the target (the target shows less at their level) are taken on the oracle by a
 * ghost's ioc order at that price. With no one else on the book the books are already equal and
 * the mirror sends nothing but the two reads.
 *
 * Why this design over judging fills by invariants alone: with the books equal, every later step
 * (a cancel of an order someone else filled, a listing, a perp order's fill) is still compared
 * answer for answer, so a real fault keeps its exact finding instead of a weaker invariant.
 */
import type { Hex } from '../../signing/index.ts'
import { cmp, formatDec, parseDec, sub, ZERO, type Dec } from '../../server/decimal.ts'
import { pathOf, route } from '../target/routes.ts'
import { signBody, type BodyEntries } from '../target/requests.ts'
import { walletFromKey, type Wallet } from '../target/wallets.ts'
import type { Sides } from './pair.ts'

interface Level {
  readonly price: string
  readonly size: string
}
export interface Book {
  readonly bids: readonly Level[]
  readonly asks: readonly Level[]
}
interface Resting {
  readonly ghost: Wallet
  readonly orderId: string
}

const SIDES = [
  ['bids', 'Buy', 'Sell'],
  ['asks', 'Sell', 'Buy'],
] as const

const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/

const canonical = (price: string) => formatDec(parseDec(price))

export class BookMirror {
  private readonly ghosts: Wallet[]
  private readonly resting = new Map<string, Resting[]>()
  private next = 0
  /** Whether a target's book ever held what the explorer did not put there. */
  sawForeign = false
  /** Each book as the target showed it at the latest sync. */
  private readonly atSync = new Map<string, Book>()
  private nonce = BigInt(Date.now()) * 1000n

  constructor(
    private readonly pair: Sides,
    ghostKeys: readonly Hex[],
  ) {
    this.ghosts = ghostKeys.map((k) => walletFromKey(k))
  }

  /** The target's book of `symbol` as the latest sync read it (before the step that followed). */
  targetAtSync(symbol: string): Book | undefined {
    return this.atSync.get(symbol)
  }

  /** The ghost wallets' addresses: the oracle's config puts them in its largest tier. */
  addresses(): string[] {
    return this.ghosts.map((g) => g.address)
  }

  /** Makes the oracle's books of the traded instruments equal to the target's. */
  async sync(): Promise<void> {
    // The books are independent (a ghost's nonce and slot are taken before any await), so they
    // are read and evened at once: a live target costs one round trip a step, not one a book.
    await Promise.all(this.pair.symbols.map((symbol) => this.syncOne(symbol)))
  }

  private async syncOne(symbol: string): Promise<void> {
    const target = await this.read('target', symbol)
    if (!target) return
    this.atSync.set(symbol, target)
    let oracle = await this.read('oracle', symbol)
    if (!oracle) return
    if (same(target, oracle)) return
    this.sawForeign = true
    await this.cancelGhosts(symbol)
    oracle = await this.read('oracle', symbol)
    if (!oracle) return
    // Ours, taken on the target by someone else: a ghost takes as much on the oracle.
    let took = false
    for (const [side, , taker] of SIDES) {
      for (const level of oracle[side]) {
        const d = sub(sizeAt(target[side], level.price), parseDec(level.size))
        if (cmp(d, ZERO) < 0) {
          await this.place(symbol, taker, level.price, formatDec(sub(ZERO, d)), 'ioc')
          took = true
        }
      }
    }
    if (took) oracle = (await this.read('oracle', symbol)) ?? oracle
    // Theirs, on the target only: a ghost rests as much on the oracle.
    for (const [side, maker] of SIDES) {
      for (const level of target[side]) {
        const d = sub(parseDec(level.size), sizeAt(oracle[side], level.price))
        if (cmp(d, ZERO) > 0) await this.place(symbol, maker, level.price, formatDec(d), 'gtc')
      }
    }
  }

  private async read(side: 'target' | 'oracle', symbol: string): Promise<Book | undefined> {
    const e = await this.pair[side].send('GET', pathOf(this.pair, 'getOrderbook', { symbol }))
    const result = (e.response?.json as { result?: { bids?: unknown; asks?: unknown } | null } | undefined)?.result
    // Only a book of plain positive decimals is carried over: anything else (a mock's example
    // values) is the comparisons' business, not something to mirror.
    const levels = (x: unknown): Level[] | undefined =>
      Array.isArray(x) && x.every((l) => DECIMAL.test(l?.price) && DECIMAL.test(l?.size) && !/^0(\.0+)?$/.test(l.price))
        ? (x as Level[])
        : undefined
    const bids = levels(result?.bids)
    const asks = levels(result?.asks)
    return bids && asks ? { bids, asks } : undefined
  }

  private async place(symbol: string, side: 'Buy' | 'Sell', price: string, size: string, tif: 'gtc' | 'ioc'): Promise<void> {
    const ghost = this.ghosts[this.next++ % this.ghosts.length]!
    const entries: BodyEntries = [
      ['wallet', ghost.address],
      ['symbol', symbol],
      ['side', side],
      ['size', size],
      ['price', canonical(price)],
      ['tif', tif],
      ['route', 'book_only'],
      ['client_id', `mirror-${this.next}`],
      ['nonce', this.nonce++],
    ]
    const body = (
      await signBody(this.pair.spec, 'PlaceOrder', entries, ghost.privateKey, {
        domain: { name: this.pair.domainName, chainId: this.pair.chainId },
      })
    ).text
    const { method, path } = route(this.pair, 'placeOrder')
    const e = await this.pair.oracle.send(method, path, { body })
    const r = e.response?.json as { status?: unknown; order_id?: unknown } | undefined
    if (tif === 'gtc' && r?.status === 'ACKED' && typeof r.order_id === 'string')
      this.resting.set(symbol, [...(this.resting.get(symbol) ?? []), { ghost, orderId: r.order_id }])
  }

  private async cancelGhosts(symbol: string): Promise<void> {
    const { method, path } = route(this.pair, 'cancelOrder')
    for (const r of this.resting.get(symbol) ?? []) {
      const entries: BodyEntries = [
        ['wallet', r.ghost.address],
        ['order_id', r.orderId],
        ['nonce', this.nonce++],
      ]
      const body = (
        await signBody(this.pair.spec, 'CancelOrder', entries, r.ghost.privateKey, {
          domain: { name: this.pair.domainName, chainId: this.pair.chainId },
        })
      ).text
      await this.pair.oracle.send(method, path, { body })
    }
    this.resting.delete(symbol)
  }
}

function sizeAt(levels: readonly Level[], price: string): Dec {
  const p = parseDec(price)
  const level = levels.find((l) => cmp(parseDec(l.price), p) === 0)
  return level ? parseDec(level.size) : ZERO
}

function same(a: Book, b: Book): boolean {
  const text = (b: Book) =>
    JSON.stringify([b.bids, b.asks].map((side) => side.map((l) => [canonical(l.price), formatDec(parseDec(l.size))])))
  return text(a) === text(b)
}
