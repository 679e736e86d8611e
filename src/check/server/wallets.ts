/**
 * Wallets and nonces of a run. Fresh wallets are new keys (the target's default tier); their
 * nonces start from the current time in microseconds so that wallets configured with a known
 * tier, reused across runs against the same target, never repeat a nonce of an earlier run.
 */
import { randomBytes } from 'node:crypto'
import { addressOf, checkPrivateKey, type Hex } from '../../signing/index.ts'

export interface Wallet {
  readonly privateKey: `0x${string}`
  /** Checksummed address. */
  readonly address: `0x${string}`
  /** Tier id when known (config wallets); undefined for fresh wallets (default tier). */
  readonly tier?: string
  /** Never print the key: reports show the address only. */
  toJSON(): string
}

export function walletFromKey(privateKey: `0x${string}`, tier?: string): Wallet {
  // The signing core's own secp256k1, not viem's account stack: a run makes hundreds of wallets.
  const address = addressOf(privateKey)
  return {
    privateKey,
    address,
    ...(tier !== undefined ? { tier } : {}),
    toJSON: () => address,
  }
}

/** A random valid secp256k1 key (a 32-byte draw at or above the curve order is drawn again). */
export function randomPrivateKey(): Hex {
  for (;;) {
    const key = `0x${randomBytes(32).toString('hex')}` as Hex
    try {
      checkPrivateKey(key)
      return key
    } catch {
      // out of range: vanishingly rare, draw again
    }
  }
}

export function freshWallet(): Wallet {
  return walletFromKey(randomPrivateKey())
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
