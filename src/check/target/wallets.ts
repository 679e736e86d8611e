/**
 * Wallets and nonces of a run. Fresh wallets are new keys (the target's default tier), derived
 * from the run's seed and the case that asks for them (see `walletDeriver`); their nonces start
 * from the current time in microseconds so that wallets configured with a known tier, reused
 * across runs against the same target, never repeat a nonce of an earlier run.
 */
import { createHash, randomBytes } from 'node:crypto'
import { addressOf, checkPrivateKey, type Hex } from '../../signing/index.ts'

export interface Wallet {
  readonly privateKey: `0x${string}`
  /** Checksummed address. */
  readonly address: `0x${string}`
  /** Tier id when known (config wallets); undefined for fresh wallets (default tier). */
  readonly tier?: string | undefined
  /** Never print the key: reports show the address only. */
  toJSON(): string
}

export function walletFromKey(privateKey: `0x${string}`, tier?: string): Wallet {
  // The signing core's own secp256k1, not viem's account stack: a run makes hundreds of wallets.
  const address = addressOf(privateKey)
  return {
    privateKey,
    address,
    tier,
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

/** A valid secp256k1 key drawn from a label: the same label, the same key (a draw out of range hashes again). */
export function derivedPrivateKey(label: string): Hex {
  for (let round = 0; ; round++) {
    const key = `0x${createHash('sha256').update(`oec-wallet:${round}:${label}`).digest('hex')}` as Hex
    try {
      checkPrivateKey(key)
      return key
    } catch {
      // out of range: vanishingly rare, hash again
    }
  }
}

/**
 * The wallet key of a run by a label (the case id and a counter): keyed by label rather than by
 * draw order, a check gets the same wallets however many checks run beside it. `salt` undefined:
 * the keys depend on the seed only (a fresh embedded server each run, so a run is reproducible
 * byte for byte); a salt (a live target, which keeps open orders, positions and windows per
 * wallet) makes every run's wallets new.
 */
export function walletDeriver(seed: number, salt?: string): (label: string) => Hex {
  const prefix = salt === undefined ? `${seed}` : `${seed}:${salt}`
  return (label) => derivedPrivateKey(`${prefix}:${label}`)
}

/** A per-run salt for `walletDeriver`. */
export function runSalt(): string {
  return randomBytes(16).toString('hex')
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
