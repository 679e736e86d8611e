/**
 * The two small stores auth depends on, each a seam a broken test server can replace:
 * consumed nonces per wallet and agent approvals. Addresses are keyed lower-case (20 bytes).
 */

/** Consumed nonces, one namespace per trading wallet across all operations. */
export interface NonceStore {
  has(wallet: string, nonce: bigint): boolean
  /** Called only after a request changed state. */
  consume(wallet: string, nonce: bigint): void
}

/**
 * One wallet's consumed nonces as a sorted array of unsigned 64-bit integers: 8 bytes a nonce
 * (a `Set<bigint>` costs several times that). Nonces "should increase", so a new one is nearly
 * always appended; a lower one (allowed) is inserted in place.
 */
class NonceSet {
  private items = new BigUint64Array(2)
  private n = 0

  has(nonce: bigint): boolean {
    return this.find(nonce) < 0
  }

  add(nonce: bigint): void {
    const at = this.find(nonce)
    if (at < 0) return
    if (this.n === this.items.length) {
      const grown = new BigUint64Array(this.n + Math.max(2, this.n >> 1))
      grown.set(this.items)
      this.items = grown
    }
    if (at < this.n) this.items.copyWithin(at + 1, at, this.n)
    this.items[at] = nonce
    this.n += 1
  }

  /** -1 when present, else the index to insert at. */
  private find(nonce: bigint): number {
    const { items, n } = this
    if (n === 0 || items[n - 1]! < nonce) return n
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (items[mid]! < nonce) lo = mid + 1
      else hi = mid
    }
    return items[lo] === nonce ? -1 : lo
  }
}

export function createNonceStore(): NonceStore {
  const used = new Map<string, NonceSet>()
  return {
    has: (wallet, nonce) => used.get(wallet.toLowerCase())?.has(nonce) ?? false,
    consume(wallet, nonce) {
      const key = wallet.toLowerCase()
      let set = used.get(key)
      if (!set) used.set(key, (set = new NonceSet()))
      set.add(nonce)
    },
  }
}

export interface AgentRecord {
  readonly agent: string
  readonly approvedAtMs: number
}

/** Agent approvals: owner → agents. */
export interface AgentStore {
  approve(owner: string, agent: string, atMs: number): void
  /** False when the agent was not approved for the owner. */
  revoke(owner: string, agent: string): boolean
  isApproved(owner: string, agent: string): boolean
  list(owner: string): AgentRecord[]
  /** The wallets that currently approve `agent`, as they were written when approving. */
  owners(agent: string): string[]
  /** The address took part in an approval or a revocation, as owner or agent. */
  knows(address: string): boolean
}

export function createAgentStore(): AgentStore {
  const byOwner = new Map<string, Map<string, AgentRecord>>()
  // The reverse index answers "whom does this agent act for" without scanning every owner.
  const byAgent = new Map<string, Map<string, string>>()
  const known = new Set<string>()
  return {
    approve(owner, agent, atMs) {
      const o = owner.toLowerCase()
      let agents = byOwner.get(o)
      if (!agents) byOwner.set(o, (agents = new Map()))
      agents.set(agent.toLowerCase(), { agent, approvedAtMs: atMs })
      let owners = byAgent.get(agent.toLowerCase())
      if (!owners) byAgent.set(agent.toLowerCase(), (owners = new Map()))
      owners.set(o, owner)
      known.add(o).add(agent.toLowerCase())
    },
    revoke(owner, agent) {
      const removed = byOwner.get(owner.toLowerCase())?.delete(agent.toLowerCase()) ?? false
      byAgent.get(agent.toLowerCase())?.delete(owner.toLowerCase())
      if (removed) known.add(owner.toLowerCase()).add(agent.toLowerCase())
      return removed
    },
    isApproved: (owner, agent) => byOwner.get(owner.toLowerCase())?.has(agent.toLowerCase()) ?? false,
    list: (owner) => [...(byOwner.get(owner.toLowerCase())?.values() ?? [])],
    owners: (agent) => [...(byAgent.get(agent.toLowerCase())?.values() ?? [])],
    knows: (address) => known.has(address.toLowerCase()),
  }
}
