/**
 * The explorer's steps: plain JSON values (a replay file stores them as they are), drawn by
 * fast-check. A step names parties by index (wallet 0..2, agent 0..1 of the sequence) and
 * earlier orders by their position in the sequence, never by key or id, so a step keeps its
 * meaning when the shrinker removes the steps around it and when it runs against new wallets.
 */
import fc from 'fast-check'

export const WALLETS = 3
export const AGENTS = 2

/** Who signs an options request: the trading wallet, one of the sequence's agents, or a key nobody approved. */
export type SignerPick = { readonly agent: number } | 'self' | 'stranger'
/**
 * fresh: the next of the wallet; reuse: its last consumed one; retry: its last refused one; gap,
 * lower, and the edges; earlier: the n-th (modulo how many) of all it consumed in the sequence.
 */
export type NoncePick = 'fresh' | 'reuse' | 'retry' | 'gap' | 'lower' | 'p53' | 'max' | { readonly earlier: number }
/** A signing mistake: the price changed after signing, the wrong chain, the price sent as a JSON number. */
export type SigMistake = 'none' | 'stale' | 'chain' | 'number'
/** A listed instrument by index, a well-formed unlisted one, or one that breaks the grammar. */
export type SymbolPick = number | 'unlisted' | 'malformed' | 'lower'
export type ClientIdPick = 'new' | 'repeat' | 'empty'
/**
 * A perp action's `expiresAfter`, on each side's own clock: a minute in the past; ahead by less
 * than one wait moves that clock; or the last `ahead` of the sequence that a wait has since
 * crossed (none crossed yet: as `past`).
 */
export type ExpiryPick = 'past' | 'ahead' | 'crossed'

export interface OrderSpec {
  readonly symbol: SymbolPick
  readonly side: 'Buy' | 'Sell'
  readonly size: string
  readonly price: string
  readonly tif: 'gtc' | 'ioc' | 'fok'
  /** null: omitted from the body and the typed data. */
  readonly route: 'best_execution' | 'book_only' | 'rfq_only' | null
  readonly clientId: ClientIdPick
}

export interface PerpOrderSpec {
  readonly asset: number
  readonly buy: boolean
  readonly price: string
  readonly size: string
  readonly tif: 'Gtc' | 'Ioc' | 'Alo'
}

/** An earlier order of the sequence by position (modulo how many there are), or an id nobody issued. */
export type OrderRef = number | 'unknown'

export type Step =
  | {
      readonly op: 'order'
      readonly wallet: number
      readonly signer: SignerPick
      readonly order: OrderSpec
      readonly nonce: NoncePick
      readonly sig: SigMistake
    }
  | {
      readonly op: 'cancel'
      readonly wallet: number
      readonly signer: SignerPick
      readonly by: 'oid' | 'cloid'
      readonly ref: OrderRef
      readonly nonce: NoncePick
    }
  /** Bulk items are signed one by one (DECISIONS: each item a PlaceOrder/CancelOrder body): `signer` signs every item (absent: the wallet). */
  | {
      readonly op: 'bulk-place'
      readonly wallet: number
      readonly orders: readonly OrderSpec[]
      readonly bad: readonly boolean[]
      readonly signer?: SignerPick | undefined
    }
  | { readonly op: 'bulk-replace'; readonly wallet: number; readonly refs: readonly OrderRef[]; readonly orders: readonly OrderSpec[] }
  | {
      readonly op: 'bulk-cancel'
      readonly wallet: number
      readonly by: 'oid' | 'cloid'
      readonly refs: readonly OrderRef[]
      readonly signer?: SignerPick | undefined
    }
  | { readonly op: 'approve' | 'revoke'; readonly wallet: number; readonly agent: number; readonly nonce: NoncePick }
  | {
      readonly op: 'perp-order'
      readonly signer: { readonly wallet: number } | { readonly agent: number }
      // fc.option gives an undefined vault (no key in a saved sequence: JSON leaves it out)
      readonly vault?: number | undefined
      readonly orders: readonly PerpOrderSpec[]
      readonly nonce: NoncePick
      readonly expires?: ExpiryPick | undefined
    }
  | {
      readonly op: 'perp-cancel'
      readonly signer: { readonly wallet: number } | { readonly agent: number }
      readonly vault?: number | undefined
      readonly by: 'oid' | 'cloid'
      /** 'big': an oid past 2^53 that nobody issued. */
      readonly ref: OrderRef | 'big'
      readonly nonce: NoncePick
      readonly expires?: ExpiryPick | undefined
    }
  | {
      readonly op: 'read'
      readonly what: 'orders' | 'book' | 'agents' | 'info'
      readonly wallet: number
      readonly symbol: SymbolPick
      /** GET /orders with `?status=` (one of the spec's order statuses). */
      readonly status?: string
      /** HEAD instead of GET (only the status applies, and no body may follow). */
      readonly head?: boolean
    }
  /** The same request sent n times at once (one body: one nonce). */
  | { readonly op: 'burst'; readonly n: number; readonly step: Step }
  /** n different resting orders of one wallet at once (n nonces): the rate limit and the open-order cap. */
  | { readonly op: 'flood'; readonly wallet: number; readonly n: number; readonly bulk: boolean }
  /**
   * A mixed race: the owner's cancel of an earlier order and another wallet's order that takes
   * it in full (same price, other side, `ioc`), sent at once. Whatever the order of arrival, the
   * cancel and the fill never both succeed in full.
   */
  | { readonly op: 'race'; readonly ref: OrderRef; readonly taker: number }
  /**
   * Two different operations on one piece of state sent at once, judged by invariants
   * (races.ts): two cancels of one order of `wallet`; `wallet`'s approve and revoke of `agent`;
   * an order `agent` signs for `wallet` against `wallet`'s revoke of it, and another order the
   * agent sends once the revoke is answered.
   */
  | { readonly op: 'mixed'; readonly race: MixedRace; readonly wallet: number; readonly agent: number }
  /** An earlier request of the sequence (the n-th, modulo how many) sent again byte for byte, to each side as it was sent there. */
  | { readonly op: 'replay'; readonly at: number }
  /** The next rate-limit window (only where the explorer moves the target's clock). */
  | { readonly op: 'wait' }
  /** Resting orders of wallet 0 up to `leave` below the open-order cap, across as many windows as the order limit needs. */
  | { readonly op: 'fill'; readonly leave: number }

export type MixedRace = 'cancel-cancel' | 'approve-revoke' | 'order-revoke'

// Wallet 0 and agent 0 come up most, so that steps meet the same party's earlier steps often.
const wallet = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: WALLETS - 1 }) })
const agent = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: AGENTS - 1 }) })
const nonceOf = (wide: boolean): fc.Arbitrary<NoncePick> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant('fresh' as const) },
    { weight: 5, arbitrary: fc.constantFrom('reuse' as const, 'retry' as const) },
    { weight: 2, arbitrary: fc.constantFrom('gap' as const, 'lower' as const) },
    { weight: 2, arbitrary: fc.constantFrom('p53' as const, 'max' as const) },
    ...(wide ? [{ weight: 2, arbitrary: fc.integer({ min: 0, max: 15 }).map((earlier) => ({ earlier })) }] : []),
  )
const signer: fc.Arbitrary<SignerPick> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('self' as const) },
  { weight: 3, arbitrary: agent.map((a) => ({ agent: a })) },
  { weight: 1, arbitrary: fc.constant('stranger' as const) },
)
const symbol = (listed: number): fc.Arbitrary<SymbolPick> =>
  fc.oneof(
    // Mostly the first three, so that orders meet on a book and fill; now and then any listed one.
    { weight: 10, arbitrary: fc.integer({ min: 0, max: Math.max(0, Math.min(listed, 3) - 1) }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: Math.max(0, listed - 1) }) },
    { weight: 1, arbitrary: fc.constantFrom('unlisted' as const, 'malformed' as const, 'lower' as const) },
  )
// Decimal spellings at the edges: trailing zeros, a fraction, zero, large.
const size = fc.oneof({ weight: 8, arbitrary: fc.constantFrom('1', '1.0', '2', '0.5', '10') }, { weight: 1, arbitrary: fc.constant('0') })
const price = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('1', '1.0', '1.50', '5', '10', '10.00', '999999') },
  { weight: 1, arbitrary: fc.constant('0') },
)

export function orderSpec(listed: number): fc.Arbitrary<OrderSpec> {
  return fc.record({
    symbol: symbol(listed),
    side: fc.constantFrom('Buy' as const, 'Sell' as const),
    size,
    price,
    tif: fc.oneof(
      { weight: 6, arbitrary: fc.constant('gtc' as const) },
      { weight: 2, arbitrary: fc.constantFrom('ioc' as const, 'fok' as const) },
    ),
    route: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('best_execution' as const, 'book_only' as const) },
      { weight: 1, arbitrary: fc.constant('rfq_only' as const) },
      { weight: 3, arbitrary: fc.constant(null) },
    ),
    clientId: fc.constantFrom('new' as const, 'new' as const, 'repeat' as const, 'empty' as const),
  })
}

const ref: fc.Arbitrary<OrderRef> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 7 }) },
  { weight: 1, arbitrary: fc.constant('unknown' as const) },
)
const perpSigner = fc.oneof(
  { weight: 3, arbitrary: wallet.map((w) => ({ wallet: w })) },
  { weight: 2, arbitrary: agent.map((a) => ({ agent: a })) },
)
const vault = fc.option(wallet, { nil: undefined, freq: 3 })

export interface StepOptions {
  /** Instruments the target lists (asset indexes of perp orders). */
  readonly listed: number
  /** The explorer can move the target's clock to the next window (embedded or a test's simulated clock), or wait for it (live). */
  readonly canWait: boolean
  /** Fills to the open-order cap across windows: only where the clock moves at once (default: canWait). */
  readonly canFill?: boolean
  /** Both sides' clocks can be read (the embedded server, a test's clock, a live target with the time reach): perp actions carry `expiresAfter`. */
  readonly canExpire?: boolean | undefined
  /** The order statuses the spec lists (`?status=` reads); none: no filtered reads. */
  readonly statuses?: readonly string[]
  /**
   * `basic`: leave out the wider reach (races of different operations, replays, reuse of any
   * earlier nonce, agent-signed bulk items): what exploration finds without them. Default `full`.
   */
  readonly reach?: Reach | undefined
}

export type Reach = 'full' | 'basic'
export const REACHES: readonly Reach[] = ['full', 'basic']

/** Steps that are not bursts. */
function single(o: StepOptions): fc.Arbitrary<Step> {
  const wide = o.reach !== 'basic'
  const nonce = nonceOf(wide)
  // Bulk items signed by an agent only with the wider reach (an absent signer: the wallet's own).
  const bulkSigner: fc.Arbitrary<SignerPick | undefined> = wide ? fc.option(signer, { nil: undefined, freq: 2 }) : fc.constant(undefined)
  const perpOrder = fc.record({
    asset: fc.integer({ min: 0, max: Math.max(0, Math.min(o.listed, 3) - 1) }),
    buy: fc.boolean(),
    price: fc.constantFrom('1', '5', '10', '10.0'),
    size: fc.constantFrom('1', '2', '0.5'),
    tif: fc.constantFrom('Gtc' as const, 'Ioc' as const, 'Alo' as const),
  })
  const expires: fc.Arbitrary<ExpiryPick | undefined> = o.canExpire
    ? fc.option(fc.constantFrom('past' as const, 'ahead' as const, 'crossed' as const), { nil: undefined, freq: 2 })
    : fc.constant(undefined)
  return fc.oneof(
    {
      weight: 14,
      arbitrary: fc.record({
        op: fc.constant('order' as const),
        wallet,
        signer,
        order: orderSpec(o.listed),
        nonce,
        sig: fc.oneof(
          { weight: 10, arbitrary: fc.constant('none' as const) },
          { weight: 1, arbitrary: fc.constantFrom('stale' as const, 'chain' as const, 'number' as const) },
        ),
      }),
    },
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constant('cancel' as const),
        wallet,
        signer,
        by: fc.constantFrom('oid' as const, 'cloid' as const),
        ref,
        nonce,
      }),
    },
    {
      weight: 3,
      arbitrary: fc.array(fc.tuple(orderSpec(o.listed), fc.boolean()), { minLength: 1, maxLength: 4 }).chain((items) =>
        fc
          .record({
            op: fc.constant('bulk-place' as const),
            wallet,
            orders: fc.constant(items.map(([spec]) => spec)),
            bad: fc.constant(items.map(([, b], i) => b && i > 0)),
            signer: bulkSigner,
          })
          .map(dropUndefined),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('bulk-replace' as const),
        wallet,
        refs: fc.array(ref, { minLength: 1, maxLength: 2 }),
        orders: fc.array(orderSpec(o.listed), { minLength: 2, maxLength: 2 }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc
        .record({
          op: fc.constant('bulk-cancel' as const),
          wallet,
          by: fc.constantFrom('oid' as const, 'cloid' as const),
          refs: fc.array(ref, { minLength: 1, maxLength: 3 }),
          signer: bulkSigner,
        })
        .map(dropUndefined),
    },
    {
      weight: 8,
      arbitrary: fc.record({
        op: fc.constantFrom('approve' as const, 'revoke' as const),
        wallet: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: wallet }),
        agent: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: agent }),
        nonce,
      }),
    },
    {
      weight: 4,
      arbitrary: fc
        .record({
          op: fc.constant('perp-order' as const),
          signer: perpSigner,
          vault,
          orders: fc.array(perpOrder, { minLength: 1, maxLength: 2 }),
          nonce,
          expires,
        })
        .map(dropUndefined),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          op: fc.constant('perp-cancel' as const),
          signer: perpSigner,
          vault,
          by: fc.constantFrom('oid' as const, 'cloid' as const),
          ref: fc.oneof({ weight: 3, arbitrary: ref }, { weight: 2, arbitrary: fc.constant('big' as const) }),
          nonce,
          expires,
        })
        .map(dropUndefined),
    },
    {
      weight: 4,
      arbitrary: fc
        .record({
          op: fc.constant('read' as const),
          what: fc.constantFrom('orders' as const, 'orders' as const, 'book' as const, 'book' as const, 'agents' as const, 'info' as const),
          wallet,
          // Reads probe the symbol grammar harder than orders do: the 13020 envelope is for any unlisted symbol.
          symbol: fc.oneof(symbol(o.listed), fc.constantFrom('unlisted' as const, 'malformed' as const, 'lower' as const)),
          status: o.statuses?.length ? fc.option(fc.constantFrom(...o.statuses), { nil: undefined, freq: 2 }) : fc.constant(undefined),
          head: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
        })
        // Only the listing takes a status; HEAD only where a GET is read (the orders and the book).
        .map(({ status, head, ...r }) => ({
          ...r,
          ...(status !== undefined && r.what === 'orders' ? { status } : {}),
          ...(head && (r.what === 'orders' || r.what === 'book') ? { head } : {}),
        })),
    },
    ...(wide
      ? [
          {
            weight: 2,
            arbitrary: fc.record({ op: fc.constant('race' as const), ref, taker: fc.integer({ min: 0, max: WALLETS - 1 }) }),
          },
          {
            weight: 3,
            arbitrary: fc.record({
              op: fc.constant('mixed' as const),
              race: fc.constantFrom('cancel-cancel' as const, 'approve-revoke' as const, 'order-revoke' as const),
              wallet,
              agent,
            }),
          },
          { weight: 2, arbitrary: fc.record({ op: fc.constant('replay' as const), at: fc.integer({ min: 0, max: 15 }) }) },
        ]
      : []),
    ...(o.canWait ? [{ weight: 3, arbitrary: fc.constant({ op: 'wait' as const }) }] : []),
    ...((o.canFill ?? o.canWait)
      ? [{ weight: 3, arbitrary: fc.record({ op: fc.constant('fill' as const), leave: fc.integer({ min: 0, max: 3 }) }) }]
      : []),
  )
}

/** The record without its undefined fields: a step is stored as JSON, and an absent field is the default. */
function dropUndefined<T extends object>(r: T): T {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as T
}

/** One step of a sequence: mostly single requests, some concurrent bursts aimed at the nonce store, the rate limit and the cap. */
export function stepArbitrary(o: StepOptions): fc.Arbitrary<Step> {
  const one = single(o)
  // Unbiased: fast-check's bias toward "small" values would favour the first choice of every oneof.
  return fc.noBias(
    fc.oneof(
      { weight: 20, arbitrary: one },
      {
        weight: 2,
        arbitrary: fc.record({
          op: fc.constant('burst' as const),
          n: fc.integer({ min: 2, max: 8 }),
          // One body goes to both sides: a burst carries no expiresAfter (each side's would differ).
          step: one
            .filter((s) => s.op === 'order' || s.op === 'cancel' || s.op === 'perp-order' || s.op === 'approve')
            .map((s) => (s.op === 'perp-order' ? dropUndefined({ ...s, expires: undefined }) : s)),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          op: fc.constant('flood' as const),
          wallet: fc.constant(0),
          // Small floods, or ones past the order limit (60 a minute in the Default tier) and toward the open-order cap.
          n: fc.oneof(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 55, max: 70 })),
          bulk: fc.boolean(),
        }),
      },
    ),
  )
}
