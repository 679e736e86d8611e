/**
 * What the proxy remembers across exchanges: the nonces each wallet has consumed (a request that
 * changed state) and the agents each wallet approved, so that a reused nonce is caught and an
 * approved agent's signature counts as the wallet's.
 */
export interface ProxySession {
  /** The exchange that consumed (wallet, nonce), if one did. */
  consumedBy(wallet: string, nonce: bigint): number | undefined
  consume(wallet: string, nonce: bigint, seq: number): void
  approve(owner: string, agent: string): void
  revoke(owner: string, agent: string): void
  isAgentOf(wallet: string, agent: string): boolean
  /** Every address seen signing or named as a wallet or agent. */
  readonly seen: Set<string>
}

export function createProxySession(): ProxySession {
  const nonces = new Map<string, number>()
  const agents = new Map<string, Set<string>>()
  const key = (w: string, n: bigint) => `${w.toLowerCase()}:${n}`
  return {
    consumedBy: (w, n) => nonces.get(key(w, n)),
    consume: (w, n, seq) => void nonces.set(key(w, n), seq),
    approve(owner, agent) {
      const set = agents.get(owner.toLowerCase()) ?? new Set()
      set.add(agent.toLowerCase())
      agents.set(owner.toLowerCase(), set)
    },
    revoke: (owner, agent) => void agents.get(owner.toLowerCase())?.delete(agent.toLowerCase()),
    isAgentOf: (w, a) => agents.get(w.toLowerCase())?.has(a.toLowerCase()) === true,
    seen: new Set(),
  }
}
