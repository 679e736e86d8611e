/**
 * Everything `check server` knows about its target, resolved once from the flags, the
 * environment, the config file and the `--config` JSON (the CLI's settings layer has already
 * merged the first three into the flags): the named checks and the explorer both take this one
 * value, so no mode reads an option by itself and none can silently drop one.
 */
import { InputError } from '../../errors.ts'
import type { RunnerConfig } from './config.ts'

/** A wallet the target has put in a tier (`--config` wallets). */
export interface TierWallet {
  readonly privateKey: `0x${string}`
  readonly tier: string
}

export interface TargetProfile {
  /** Base URL; absent: the embedded reference server. */
  readonly url?: string | undefined
  /** Sent with every request to the target. */
  readonly headers: Readonly<Record<string, string>>
  readonly domainName?: string | undefined
  readonly chainId?: number | undefined
  readonly perpChainId?: number | undefined
  readonly isMainnet?: boolean | undefined
  /** The instruments to trade (a live target lists more; its own order numbers them). */
  readonly symbols: readonly string[]
  readonly missingSymbol?: string | undefined
  /** Wallets the target has put in a tier (for the tier and cap checks). */
  readonly tierWallets: readonly TierWallet[]
}

export interface ProfileFlags {
  readonly target?: string | undefined
  readonly header: readonly (readonly [string, string])[]
  readonly domainName?: string | undefined
  readonly chainId?: number | undefined
  readonly symbol: readonly string[]
  readonly missingSymbol?: string | undefined
}

/** The flags over the `--config` JSON: a flag (or its setting) wins, the file fills the rest. */
export function targetProfile(flags: ProfileFlags, config: RunnerConfig): TargetProfile {
  const symbols = flags.symbol.length ? flags.symbol : (config.symbols ?? [])
  const tierWallets = config.wallets ?? []
  if (!flags.target && tierWallets.length)
    throw new InputError('config wallets are for a --target; the embedded server gives fresh wallets the default tier')
  const missingSymbol = flags.missingSymbol ?? config.missingSymbol
  const domainName = flags.domainName ?? config.domainName
  const chainId = flags.chainId ?? config.chainId
  return {
    // An empty string is no setting: the defaults apply, as for an absent one.
    url: flags.target || undefined,
    headers: Object.fromEntries(flags.header),
    domainName: domainName || undefined,
    chainId,
    perpChainId: config.perpChainId,
    isMainnet: config.isMainnet,
    symbols,
    missingSymbol: missingSymbol || undefined,
    tierWallets,
  }
}
