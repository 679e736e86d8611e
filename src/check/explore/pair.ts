/**
 * What a sequence runs against: the target, the oracle, and what both were configured with. Its
 * own module so that the mirror (which needs the sides) and the session (which needs the mirror's
 * door) both read it and neither imports the other.
 */
import type { FullContract } from '../../contract/index.ts'
import type { OperationId } from '../../contract/generated/types.ts'
import type { Hex } from '../../signing/index.ts'
import type { HttpClient, HttpExchange } from '../target/http.ts'
import { pathOf, route } from '../target/routes.ts'
import type { TierWallet } from '../target/profile.ts'
import type { LiveTime, SideClocks } from './clock.ts'
import type { ReadBack } from './read-back.ts'
import type { WsWatch } from './ws-watch.ts'

/** What sends a step's requests: the HTTP client for the target, the in-process door for the oracle. */
export type Sender = Pick<HttpClient, 'send'>

/** The two sides and their shared configuration. */
export interface Sides {
  readonly spec: FullContract
  readonly target: Sender
  readonly oracle: Sender
  readonly domainName: string
  readonly chainId: number
  readonly perpChainId: number
  readonly isMainnet: boolean
  readonly symbols: readonly string[]
  /** The perp asset index of each of `symbols`: its position in the target's own instrument list. */
  readonly assets: readonly number[]
  readonly missingSymbol: string
  /** Max open orders of the tier fresh wallets get. */
  readonly openCap: number
  /** Moves both clocks (absent: the target's clock is its own, and no step waits). */
  readonly advance?: (ms: number) => void
  /** On a live target with the time reach: its clock read from its answers, and waits that cross its windows. */
  readonly time?: LiveTime | undefined
  /** Both sides' clocks, where they can be read (absent: a live target without the time reach): perp expiries. */
  readonly clocks?: SideClocks | undefined
  /**
   * A wallet the target has put in a tier (`--config` wallets): it trades as the sequence's last
   * wallet, so that the tier's limits and cap are explored too. The oracle knows its tier.
   */
  readonly tierWallet?: (TierWallet & { readonly privateKey: Hex }) | undefined
  /** How far a step's verdict reaches (read-back.ts); absent: `parties`. */
  readonly readBack?: ReadBack
  /** The shard's subscriber to the target's `/ws` (read-back `parties`), shared by its sequences. */
  readonly watch?: WsWatch | undefined
}

/** What the session asks of the mirror (mirror.ts). */
export interface Mirror {
  /** Makes the oracle's books the target's. */
  sync(): Promise<void>
  /** Whether a target's book ever held what the explorer did not put there. */
  readonly sawForeign: boolean
  /** The target's book of `symbol` as the latest sync read it. */
  targetAtSync(symbol: string): BookLevels | undefined
}

/** A book's levels, best first. */
export interface BookLevels {
  readonly bids: readonly { readonly price: string; readonly size: string }[]
  readonly asks: readonly { readonly price: string; readonly size: string }[]
}

export interface Pair extends Sides {
  /** On a live target: makes the oracle's books the target's before each step. */
  readonly mirror?: Mirror
}

/**
 * One operation sent to the target, then to the oracle: the same body on both unless the oracle's
 * differs (an order id is each side's own id for the same order).
 */
export async function both(
  pair: Sides,
  op: OperationId,
  bodyT: string | undefined,
  bodyO = bodyT,
  query?: Record<string, string>,
): Promise<[HttpExchange, HttpExchange]> {
  const { method } = route(pair, op)
  const path = pathOf(pair, op, query)
  const t = await pair.target.send(method, path, bodyT === undefined ? {} : { body: bodyT })
  const o = await pair.oracle.send(method, path, bodyO === undefined ? {} : { body: bodyO })
  return [t, o]
}
