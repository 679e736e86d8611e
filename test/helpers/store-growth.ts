/**
 * Drives a `--data` store through its own API in this process (no HTTP, no signing: what is
 * measured is the store): pairs of orders that cross and fill, from a few wallets, each order's
 * nonce consumed as the order path does, a commit awaited every few orders as a server's
 * event-loop turns would. Used by the bounded-growth test (small counts) and the store-growth
 * bench (500,000 orders).
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { shippedContract } from '../../src/contract/load.ts'
import { defaultConfig } from '../../src/server/config.ts'
import { MatchingEngine } from '../../src/server/matching-engine.ts'
import { openDataDir, type DataDir } from '../../src/server/persist/data-dir.ts'

const WALLETS = 16
const COMMIT_EVERY = 32

export interface GrowthRun {
  readonly data: DataDir
  readonly engine: MatchingEngine
  /** Places `n` more orders (n/2 crossing pairs), committed. */
  place(n: number): Promise<void>
  /** Bytes of data.mdb now. */
  fileBytes(): number
  /** Orders placed so far. */
  readonly placed: number
  /** The wallet and nonce of the i-th order placed (for replays). */
  nonceOf(i: number): { wallet: string; nonce: bigint }
}

/**
 * How the clients number their orders: `counted` counts each wallet's nonces up by one (a run per
 * wallet in the store), `sparse` sends milliseconds, increasing with gaps (a record per nonce).
 */
export type NonceStyle = 'counted' | 'sparse'

export function openGrowthRun(dir: string, retain: number | undefined, nonces: NonceStyle = 'counted'): GrowthRun {
  const config = defaultConfig(shippedContract())
  const data = openDataDir(dir, `${config.domainName}/${config.chainId}`, retain === undefined ? {} : { retain })
  const engine = new MatchingEngine(config.instruments, () => {}, data.archive, data.observer)
  data.restore(engine)
  const symbol = config.instruments[0]!
  const walletOf = (i: number) => `0x${(0xa11ce + (i % WALLETS)).toString(16).padStart(40, '0')}`
  const base = 1_760_000_000_000n
  const nonceOf = (i: number) => ({
    wallet: walletOf(i),
    nonce: nonces === 'counted' ? base + BigInt(Math.floor(i / WALLETS)) : base + BigInt(i),
  })
  let placed = 0
  const one = (side: 'Buy' | 'Sell', tif: string) => {
    const i = placed++
    const { wallet, nonce } = nonceOf(i)
    const input = { wallet, symbol, side, size: '1', price: '5', tif, route: 'book_only', clientId: `c${i}` }
    const out = engine.place(input, { maxOpenOrders: 1_000_000, maxPositions: -1 }, Date.now())
    if (out.kind === 'accepted') data.nonces.consume(wallet, nonce)
  }
  return {
    data,
    engine,
    get placed() {
      return placed
    },
    nonceOf,
    async place(n) {
      for (let k = 0; k < n; k += 2) {
        one('Buy', 'gtc')
        one('Sell', 'ioc')
        if (k % COMMIT_EVERY === 0) await data.settled()
      }
      await data.settled()
    },
    fileBytes: () => statSync(join(dir, 'data.mdb')).size,
  }
}
