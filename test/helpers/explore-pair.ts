/** The sides of an explored sequence for a Session-level test: any target sender, the reference server as the oracle. */
import { InProcessClient } from '../../src/check/explore/in-process.ts'
import type { Pair, Sender } from '../../src/check/explore/pair.ts'
import { missingSymbolFor } from '../../src/check/target/world.ts'
import { shippedContract } from '../../src/contract/index.ts'
import type { RunningServer } from '../../src/server/index.ts'

export function explorePair(target: Sender, oracle: RunningServer): Pair {
  const spec = shippedContract()
  const instruments = oracle.config.instruments
  return {
    spec,
    target,
    oracle: new InProcessClient(oracle),
    domainName: oracle.config.domainName,
    chainId: oracle.config.chainId,
    perpChainId: oracle.config.perpChainId ?? 1337,
    isMainnet: true,
    symbols: instruments,
    assets: instruments.map((_, i) => i),
    missingSymbol: missingSymbolFor(instruments),
    openCap: spec.rateLimits.tiers[spec.rateLimits.defaultTier]!.maxOpenOrders,
  }
}
