/**
 * Wallets and nonces of a run. Fresh wallets are new keys (the target's default tier); their
 * nonces start from the current time in microseconds so that wallets configured with a known
 * tier, reused across runs against the same target, never repeat a nonce of an earlier run.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { LocalAccount } from 'viem'

export interface Wallet {
  readonly privateKey: `0x${string}`
  /** Checksummed address. */
  readonly address: `0x${string}`
  readonly account: LocalAccount
  /** Tier id when known (config wallets); undefined for fresh wallets (default tier). */
  readonly tier?: string
  /** Never print the key: reports show the address only. */
  toJSON(): string
}

export function walletFromKey(privateKey: `0x${string}`, tier?: string): Wallet {
  const account = privateKeyToAccount(privateKey)
  return {
    privateKey,
    address: account.address,
    account,
    ...(tier !== undefined ? { tier } : {}),
    toJSON: () => account.address,
  }
}

export function freshWallet(): Wallet {
  return walletFromKey(generatePrivateKey())
}

export class NonceBook {
  private readonly next = new Map<string, bigint>()
  private readonly base = BigInt(Date.now()) * 1000n

  /** The next nonce for a trading wallet, strictly increasing within the run. */
  take(wallet: string): bigint {
    const key = wallet.toLowerCase()
    const n = this.next.get(key) ?? this.base
    this.next.set(key, n + 1n)
    return n
  }
}
