/**
 * What a sequence remembers between its steps, pure: each account's nonces (the next fresh one,
 * the last consumed and the last refused), the orders placed (each side's id for the same order),
 * the client ids used, who approved which agent, and the open-order cap of each wallet's tier.
 * Commands read it to build their requests and write what the answers settled.
 */
import type { ClientIdPick, NoncePick, OrderRef } from './steps.ts'

export interface Placed {
  /** Trading wallet index; -1 for an account outside the sequence's wallets. */
  readonly wallet: number
  readonly clientId: string
  target?: string | undefined
  oracle?: string | undefined
  readonly asset?: number
}

interface Nonces {
  next: bigint
  low: bigint
  consumed?: bigint
  refused?: bigint
  /** Every nonce the reference took, in order (`{ earlier: n }` picks one). */
  used: bigint[]
}

export interface LedgerOptions {
  /** The address of the wallet the target put in a tier (not fresh: its nonces start at the time). */
  readonly tierAddress?: string
  /** Max open orders of fresh wallets' tier, and of the tier wallet's (negative: no cap). */
  readonly openCap: number
  readonly tierCap?: number
  /** Milliseconds since the epoch (the tier wallet's first nonce). */
  readonly now?: () => number
}

export class Ledger {
  readonly placed: Placed[] = []
  readonly lastClientId: string[] = []
  /** Accounts the target has state for (they placed or approved something). */
  readonly known = new Set<string>()
  private readonly nonces = new Map<string, Nonces>()
  private readonly approvals = new Map<number, Set<number>>()
  private counter = 0

  constructor(private readonly o: LedgerOptions) {}

  isTierWallet(address: string): boolean {
    return this.o.tierAddress !== undefined && address.toLowerCase() === this.o.tierAddress.toLowerCase()
  }

  /** The cap of open orders of a wallet's tier. */
  openCap(address: string): number {
    if (!this.isTierWallet(address)) return this.o.openCap
    const cap = this.o.tierCap ?? this.o.openCap
    return cap < 0 ? Number.POSITIVE_INFINITY : cap
  }

  private of(key: string): Nonces {
    let l = this.nonces.get(key)
    if (!l) {
      // A tier wallet's nonces were used before this sequence: its ledger starts at the time.
      const next = this.isTierWallet(key) ? BigInt((this.o.now ?? Date.now)()) * 1000n : 1000n
      this.nonces.set(key, (l = { next, low: next - 1n, used: [] }))
    }
    return l
  }

  /** The nonce a pick stands for on an account (a fresh one moves the account's next). */
  nonce(key: string, pick: NoncePick): bigint {
    const l = this.of(key)
    // The fixed edge nonces of a wallet used before may be taken already: a tier wallet draws fresh.
    if ((pick === 'p53' || pick === 'max') && this.isTierWallet(key)) pick = 'fresh'
    if (typeof pick === 'object') return l.used.length ? l.used[pick.earlier % l.used.length]! : l.next++
    switch (pick) {
      case 'reuse':
        if (l.consumed !== undefined) return l.consumed
        break
      case 'retry':
        if (l.refused !== undefined) return l.refused
        break
      case 'gap':
        l.next += 1000n
        break
      case 'lower':
        return l.low--
      case 'p53':
        return 2n ** 53n + 1n
      case 'max':
        return 2n ** 64n - 1n
    }
    return l.next++
  }

  /** What the reference made of a nonce: consumed (a later 'reuse') or refused (a later 'retry'). */
  settle(key: string, nonce: bigint, effect: boolean): void {
    const l = this.of(key)
    if (effect) {
      l.consumed = nonce
      l.used.push(nonce)
    } else l.refused = nonce
  }

  /** A fresh serial (client ids, perp cloids). */
  serial(): number {
    return ++this.counter
  }

  clientId(w: number, pick: ClientIdPick): string {
    if (pick === 'empty') return ''
    if (pick === 'repeat' && this.lastClientId[w] !== undefined) return this.lastClientId[w]!
    return `x${this.serial()}`
  }

  /** An earlier order of the sequence by position (modulo how many there are). */
  ref(r: OrderRef | 'big'): Placed | undefined {
    if (typeof r !== 'number' || this.placed.length === 0) return undefined
    return this.placed[r % this.placed.length]
  }

  /** Records an approval (or its revoke) the reference took. */
  approve(agent: number, wallet: number, on: boolean): void {
    let owners = this.approvals.get(agent)
    if (!owners) this.approvals.set(agent, (owners = new Set()))
    if (on) owners.add(wallet)
    else owners.delete(wallet)
  }

  /** The wallets that approved an agent, in the order they did. */
  owners(agent: number): number[] {
    return [...(this.approvals.get(agent) ?? [])]
  }
}
