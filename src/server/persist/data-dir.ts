/**
 * `oec serve --data DIR`: the server's state in an LMDB database, so that a restart (or a
 * `kill -9`) forgets nothing that was answered. The in-memory structures stay the working state
 * of the order path (one synchronous turn, which is why races hold); this module journals every
 * change into the database and hands back, at start, what must live in memory again.
 *
 * | key                        | value                         | memory after a restart          |
 * |----------------------------|-------------------------------|---------------------------------|
 * | `n:<wallet>:<start>`       | end of a run of nonces (text) | a wallet's runs, once it is used |
 * | `o:<seq>`                  | the order record              | open orders only                |
 * | `w:<wallet>:<seq>`         | 1 (a wallet's orders)         | none                            |
 * | `open:<seq>`               | 1 (while the order is open)   | rebuilt books                   |
 * | `p:<wallet>:<symbol>`      | position (decimal text)       | positions                       |
 * | `k:<wallet>`               | 1 (had an accepted order)     | known wallets                   |
 * | `ag:<owner>:<agent>`       | approval                      | agent approvals                 |
 * | `ak:<address>`             | 1 (took part in an approval)  | none: read on use               |
 * | `r:<wallet>`               | the current rate window       | this window's counters          |
 * | `f:<n>`                    | seq of the n-th finished order| the queue's two ends            |
 * | `!forgotten`               | highest seq forgotten         | the horizon, the next order id  |
 * | `!store`                   | the header (its id)           | none: checked before opening    |
 *
 * Finished orders past `retain` leave the store as memory mode forgets them (oldest finished
 * first, through the `f:` queue): their `o:` and `w:` records are removed and LMDB reuses the
 * freed pages. A wallet's consumed nonces are runs (nonce-intervals.ts): a client that counts
 * its nonces up costs one `n:` record however many orders it sends, so the file stops growing;
 * sparse nonces cost one record each. A nonce stays consumed (a replay of a forgotten order is
 * still refused) and `!forgotten` keeps its id given.
 *
 * Before the database is opened, DIR is locked for this process (lock.ts), its header checked
 * or written (header.ts), and every record read in a child process (verify.ts), so that a second
 * server, a foreign or damaged store each end in one line instead of double answers or a crash.
 *
 * Addresses are lower-case; `<seq>` and `<start>` are zero-padded so that keys sort in order.
 */
import { mkdirSync } from 'node:fs'
import { InputError } from '../../errors.ts'
import type { OrderArchive } from '../archive.ts'
import { formatDec, isZero, parseDec, type Dec } from '../decimal.ts'
import type { MatchingEngine, EngineObserver, Order, OrderInput, OrderStatus } from '../matching-engine.ts'
import type { Window, WindowJournal } from '../limits.ts'
import { addNonce, covers, type Run } from '../nonce-intervals.ts'
import { createAgentStore, type AgentStore, type NonceStore } from '../stores.ts'
import { markMigrated, openHeader, type StoreHeader } from './header.ts'
import { Kv, type KvOptions } from './kv.ts'
import { lockDir, type DirLock } from './lock.ts'
import { verifyStore } from './verify.ts'

const SEQ_DIGITS = 15
const pad = (seq: number) => String(seq).padStart(SEQ_DIGITS, '0')
const ORDER_ID = /^[1-9][0-9]{0,14}$/
/** Digits of a uint64 nonce: a run's key sorts by its start. */
const NONCE_DIGITS = 20
const runKey = (wallet: string, start: bigint) => `n:${wallet}:${String(start).padStart(NONCE_DIGITS, '0')}`

/** An order as stored: its input as sent, the decimals as text. */
interface StoredOrder {
  id: string
  seq: number
  input: OrderInput
  filled: string
  notional: string
  status: OrderStatus
  createdAt: number
}

function toStored(o: Order): StoredOrder {
  return {
    id: o.id,
    seq: o.seq,
    input: o.input,
    filled: formatDec(o.filled),
    notional: formatDec(o.notional),
    status: o.status,
    createdAt: o.createdAt,
  }
}

function fromStored(s: StoredOrder): Order {
  return {
    id: s.id,
    seq: s.seq,
    input: s.input,
    walletKey: s.input.wallet.toLowerCase(),
    size: parseDec(s.input.size),
    price: parseDec(s.input.price),
    filled: parseDec(s.filled),
    notional: parseDec(s.notional),
    status: s.status,
    createdAt: s.createdAt,
  }
}

export interface DataDir {
  readonly path: string
  readonly nonces: NonceStore
  readonly agents: AgentStore
  /** For `createRateLimiter`: every charge saved, this window's counters handed back. */
  readonly windows: WindowJournal
  /** Finished orders: on disk only. */
  readonly archive: OrderArchive
  /** Journals every change of the matching engine. */
  readonly observer: EngineObserver
  /** Puts the saved orders, positions and known wallets back into a new matching engine. */
  restore(engine: MatchingEngine): void
  /** Undefined when everything written is committed, else a promise that settles when it is. */
  settled(): Promise<void> | undefined
  /** Why writes cannot be committed now (a full disk, retried until space returns), else undefined. */
  unavailable(): string | undefined
  close(): Promise<void>
}

export interface DataDirOptions extends KvOptions {
  /** Finished orders kept (the newest); older ones leave the store. Default: all. */
  retain?: number
}

/** `contract` names the signing domain the store's signatures belong to (`name/chainId`). */
export function openDataDir(path: string, contract: string, options: DataDirOptions = {}): DataDir {
  const { kv, lock } = openStore(path, contract, options)
  const finished = durableArchive(kv, options.retain ?? Number.POSITIVE_INFINITY)
  const journal = durableJournal(kv)
  return {
    path,
    nonces: durableNonces(kv),
    agents: durableAgents(kv),
    windows: durableWindows(kv),
    archive: finished.archive,
    observer: journal.observer,
    restore: (engine) => journal.restore(engine, finished.forgotten()),
    settled: () => kv.settled(),
    unavailable: () => kv.unavailable(),
    async close() {
      try {
        await kv.close()
      } finally {
        lock.release()
      }
    },
  }
}

/**
 * DIR locked, its header checked (or written when new), every record verified in a child, then
 * the database opened and migrated: any failure releases the lock and is one InputError line.
 */
function openStore(path: string, contract: string, options: KvOptions): { kv: Kv; lock: DirLock } {
  let lock: DirLock | undefined
  try {
    mkdirSync(path, { recursive: true })
    lock = lockDir(path)
    const { header, created, migrateFrom } = openHeader(path, contract)
    if (!created) verifyStore(path, header.id)
    const kv = new Kv(path, options)
    if (created) kv.put('!store', { id: header.id, version: header.version, contract })
    if (migrateFrom !== undefined) migrate(kv, path, header, migrateFrom)
    return { kv, lock }
  } catch (err) {
    lock?.release()
    if (err instanceof InputError) throw err
    throw new InputError(`--data ${path}: cannot open the database (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`)
  }
}

/**
 * The wallets whose runs stay in memory. Every wallet kept cost about 700 bytes of heap (the soak
 * bench's 10,000 wallets: 74 B an order instead of 23-34), without bound as wallets come; past
 * this many the least recently used is read again from the store when it returns (its queued
 * writes included), so memory follows the active wallets, not every wallet ever seen.
 */
const CACHED_WALLETS = 1024

/** Consumed nonces as runs: a wallet's runs are read when it is seen, then kept in step while it is cached. */
function durableNonces(kv: Kv): NonceStore {
  const runs = new Map<string, Run[]>()
  const runsOf = (wallet: string): [string, Run[]] => {
    const key = wallet.toLowerCase()
    let mine = runs.get(key)
    if (mine) runs.delete(key)
    else {
      mine = readRuns(kv, key)
      if (runs.size >= CACHED_WALLETS) runs.delete(runs.keys().next().value as string)
    }
    runs.set(key, mine)
    return [key, mine]
  }
  return {
    has: (wallet, nonce) => covers(runsOf(wallet)[1], nonce),
    consume(wallet, nonce) {
      const [key, mine] = runsOf(wallet)
      addRun(kv, key, mine, nonce)
    },
  }
}

/** Approvals live in memory (read once at start) and are journalled; `ak:` remembers who ever took part. */
function durableAgents(kv: Kv): AgentStore {
  const approvals = createAgentStore()
  for (const [, v] of kv.range('ag:')) {
    const a = v as { owner: string; agent: string; at: number }
    approvals.approve(a.owner, a.agent, a.at)
  }
  return {
    approve(owner, agent, atMs) {
      approvals.approve(owner, agent, atMs)
      kv.put(`ag:${owner.toLowerCase()}:${agent.toLowerCase()}`, { owner, agent, at: atMs })
      kv.put(`ak:${owner.toLowerCase()}`, 1)
      kv.put(`ak:${agent.toLowerCase()}`, 1)
    },
    revoke(owner, agent) {
      const removed = approvals.revoke(owner, agent)
      if (removed) kv.remove(`ag:${owner.toLowerCase()}:${agent.toLowerCase()}`)
      return removed
    },
    isApproved: (owner, agent) => approvals.isApproved(owner, agent),
    list: (owner) => approvals.list(owner),
    owners: (agent) => approvals.owners(agent),
    knows: (address) => approvals.knows(address) || kv.has(`ak:${address.toLowerCase()}`),
  }
}

function durableWindows(kv: Kv): WindowJournal {
  return {
    charged: (wallet, w) => kv.put(`r:${wallet}`, [w.start, w.used.orders, w.used.cancels, w.used.api]),
    get saved() {
      return kv.range('r:').map(([key, v]): [string, Window] => {
        const [start, orders, cancels, api] = v as number[]
        return [key.slice(2), { start: start!, used: { orders: orders!, cancels: cancels!, api: api! } }]
      })
    },
  }
}

/**
 * Finished orders on disk, oldest leaving first past `retain` through the `f:` queue (`f:<head>`
 * the oldest, `f:<tail - 1>` the newest); `forgotten()` is the highest seq that left.
 */
function durableArchive(kv: Kv, retain: number): { archive: OrderArchive; forgotten(): number | undefined } {
  const first = kv.firstKey('f:')
  const last = kv.lastKey('f:')
  let head = first ? Number(first.slice(2)) : 0
  let tail = last ? Number(last.slice(2)) + 1 : head
  let forgotten = kv.get('!forgotten') as number | undefined
  const forgetOldest = () => {
    const key = `f:${pad(head++)}`
    const seq = kv.get(key) as number
    kv.remove(key)
    const s = kv.get(`o:${pad(seq)}`) as StoredOrder | undefined
    if (s) {
      kv.remove(`o:${pad(seq)}`)
      kv.remove(`w:${s.input.wallet.toLowerCase()}:${pad(seq)}`)
    }
    if (forgotten === undefined || seq > forgotten) kv.put('!forgotten', (forgotten = seq))
  }
  const stored = (id: string): Order | undefined => {
    if (!ORDER_ID.test(id)) return undefined
    const s = kv.get(`o:${pad(Number(id))}`) as StoredOrder | undefined
    return s ? fromStored(s) : undefined
  }
  const archive: OrderArchive = {
    // The journal has written it already; nothing stays in memory but the queue's ends.
    add(order) {
      kv.put(`f:${pad(tail++)}`, order.seq)
      while (tail - head > retain) forgetOldest()
    },
    get: (id) => {
      const o = stored(id)
      return o && o.status !== 'OPEN' ? o : undefined
    },
    list: (walletKey) => {
      const out: Order[] = []
      for (const [key] of kv.range(`w:${walletKey}:`)) {
        const s = kv.get(`o:${key.slice(-SEQ_DIGITS)}`) as StoredOrder | undefined
        if (s && s.status !== 'OPEN') out.push(fromStored(s))
      }
      return out
    },
    horizon: () => ({
      complete: forgotten === undefined,
      retain: Number.isFinite(retain) ? retain : null,
      forgottenThrough: forgotten === undefined ? null : String(forgotten),
    }),
  }
  return { archive, forgotten: () => forgotten }
}

/** The matching engine's changes journalled, and its state put back into a new engine at start. */
function durableJournal(kv: Kv): { observer: EngineObserver; restore(engine: MatchingEngine, forgotten: number | undefined): void } {
  // Orders whose index entries are written: one write per order, not one per fill.
  const indexed = new WeakSet<Order>()
  const observer: EngineObserver = {
    order(o) {
      const seq = pad(o.seq)
      kv.put(`o:${seq}`, toStored(o))
      if (!indexed.has(o)) {
        indexed.add(o)
        kv.put(`w:${o.walletKey}:${seq}`, 1)
        if (o.status === 'OPEN') kv.put(`open:${seq}`, 1)
      } else if (o.status !== 'OPEN') kv.remove(`open:${seq}`)
    },
    position(walletKey, symbol, size: Dec) {
      if (isZero(size)) kv.remove(`p:${walletKey}:${symbol}`)
      else kv.put(`p:${walletKey}:${symbol}`, formatDec(size))
    },
    known: (walletKey) => kv.put(`k:${walletKey}`, 1),
  }
  const restore = (engine: MatchingEngine, forgotten: number | undefined) => {
    const lastOrder = kv.lastKey('o:')
    const open: Order[] = []
    for (const [key] of kv.range('open:')) {
      const s = kv.get(`o:${key.slice(5)}`) as StoredOrder | undefined
      if (!s) continue
      const o = fromStored(s)
      indexed.add(o)
      open.push(o)
    }
    engine.restore({
      // An order id once given stays given, its order forgotten or not.
      seq: Math.max(lastOrder ? Number(lastOrder.slice(2)) : 0, forgotten ?? 0),
      known: kv.range('k:').map(([key]) => key.slice(2)),
      positions: kv.range('p:').map(([key, v]): [string, string, Dec] => {
        const rest = key.slice(2)
        const colon = rest.indexOf(':')
        return [rest.slice(0, colon), rest.slice(colon + 1), parseDec(String(v))]
      }),
      open,
    })
  }
  return { observer, restore }
}

/** Adds a nonce to a wallet's runs (kept in `mine`) and writes the run it changed. */
function addRun(kv: Kv, wallet: string, mine: Run[], nonce: bigint): void {
  const change = addNonce(mine, nonce)
  if (!change) return
  for (const start of change.gone) kv.remove(runKey(wallet, start))
  kv.put(runKey(wallet, change.put[0]), String(change.put[1]))
}

/** A wallet's runs as stored (`n:<wallet>:<start>` → end), in order. */
function readRuns(kv: Kv, wallet: string): Run[] {
  const prefix = `n:${wallet}:`
  return kv.range(prefix).map(([key, end]) => [BigInt(key.slice(prefix.length)), BigInt(end as string)] as const)
}

/**
 * Version 1 to 2: the finished orders a version-1 store holds enter the queue (in id order: when
 * each finished was not recorded), so that `retain` bounds them too. Version 2 to 3: each consumed
 * nonce's record (`n:<wallet>:<nonce>` → 1) becomes part of its wallet's runs. Then the header
 * says 3.
 */
function migrate(kv: Kv, path: string, header: StoreHeader, from: number): void {
  if (from < 2) {
    let n = 0
    for (const [key, v] of kv.range('o:')) if ((v as StoredOrder).status !== 'OPEN') kv.put(`f:${pad(n++)}`, Number(key.slice(2)))
  }
  const single = new Map<string, bigint[]>()
  for (const [key, v] of kv.range('n:')) {
    if (v !== 1) continue
    kv.remove(key)
    const at = key.lastIndexOf(':')
    const wallet = key.slice(2, at)
    const list = single.get(wallet) ?? []
    list.push(BigInt(key.slice(at + 1)))
    single.set(wallet, list)
  }
  for (const [wallet, list] of single) {
    const mine = readRuns(kv, wallet)
    for (const nonce of list) addRun(kv, wallet, mine, nonce)
  }
  const committed = kv.settled()
  // The header changes only once the queue is on disk: a crash before leaves a version-1 store.
  if (committed) committed.then(() => markMigrated(path, header)).catch(() => {})
  else markMigrated(path, header)
}
