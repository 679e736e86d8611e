/**
 * Values for the "wrong X" probes, derived from the target: a wrong chain must be wrong for
 * *this* target (a server on chain 1 would rightly accept an order "signed under chain 1"), so
 * every probe asks here for a value that differs from what the target uses, and names it.
 */

/** What a probe must differ from: the target's two signing domains. */
export interface DomainFacts {
  readonly chainId: number
  readonly perpChainId: number
  readonly domainName: string
}

/** The chains tried first, in order: well known, so a finding reads naturally. */
const FAMILIAR_CHAINS = [1, 42161, 10, 8453, 137]

/** A chain ID that is neither the target's options chain nor its perp chain. */
export function wrongChainId(target: DomainFacts): number {
  const taken = new Set([target.chainId, target.perpChainId])
  const familiar = FAMILIAR_CHAINS.find((id) => !taken.has(id))
  if (familiar !== undefined) return familiar
  let id = 2
  while (taken.has(id)) id++
  return id
}

/** A domain name that is not the target's, in no letter case. */
export function wrongDomainName(target: DomainFacts): string {
  for (const name of ['Other', 'OtherService', 'Unrelated']) if (name.toLowerCase() !== target.domainName.toLowerCase()) return name
  return `${target.domainName}-other`
}
