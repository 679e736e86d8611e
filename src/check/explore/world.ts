/**
 * What every command of a sequence shares: the two sides, the sequence's parties (wallets, agents,
 * a key nobody approved), the ledger, the invariants, the trace, and the target's rate window as
 * its answers show it. The session makes one per sequence and hands it to each step's command.
 */
import type { Hex } from '../../signing/index.ts'
import type { HttpExchange } from '../target/http.ts'
import { walletFromKey, type Wallet } from '../target/wallets.ts'
import { TimeWatch } from './clock.ts'
import { compareAnswers, type AnswerContext, type Divergence } from './compare.ts'
import { Invariants } from './invariants.ts'
import { Ledger } from './ledger.ts'
import type { Observed } from './observe.ts'
import type { Pair } from './pair.ts'
import { AGENTS, WALLETS, type ExpiryPick, type Step } from './steps.ts'

/** A perp `expiresAfter` on each side's own clock (ms). */
export interface Expiry {
  readonly target: bigint
  readonly oracle: bigint
}

export interface TraceStep {
  readonly step: Step
  readonly target: HttpExchange[]
  readonly oracle: HttpExchange[]
}

/** The first divergence of a step, or 'rolled' (the target's window rolled over: the rest is not comparable). */
export type StepVerdict = readonly Divergence[] | 'rolled'

export class World {
  readonly trace: TraceStep[] = []
  /** The steps run, as drawn (a trace entry is a request group: a fill makes several). */
  readonly steps: Step[] = []
  readonly wallets: readonly Wallet[]
  readonly agents: readonly Wallet[]
  readonly stranger: Wallet
  readonly ledger: Ledger
  readonly invariants: Invariants
  /** The headers of an accepted order whose route was stated: what a later order's headers are held to. */
  routeBaseline: Set<string> | undefined
  /** The tier wallet's orders from before this sequence, by each side's ids. */
  earlier: { readonly target: ReadonlySet<string>; readonly oracle: ReadonlySet<string> } | undefined
  /** On a live target with the time reach: the sequence's view of the target's clock (clock.ts). */
  readonly time: TimeWatch | undefined
  /**
   * The target's window end when the sequence (or the last wait) began. Windows are aligned to the
   * epoch minute for every wallet, so one value serves them all, and every target answer recorded
   * notes it: a mixed race's or a replay's answers too, which are judged by invariants and never
   * pass through `answer`. A target whose windows are not aligned reads as rolled more often:
   * fewer counters compared, never a false RL-12.
   */
  private firstReset: string | undefined
  /** The last perp expiry set ahead on each side's clock, and the last one a wait has crossed since. */
  private expiry: { ahead?: Expiry; crossed?: Expiry } = {}

  constructor(
    readonly pair: Pair,
    keyFor: (label: string) => Hex,
  ) {
    this.wallets = Array.from({ length: WALLETS }, (_, i) =>
      walletFromKey(i === WALLETS - 1 && pair.tierWallet ? pair.tierWallet.privateKey : keyFor(`wallet${i}`)),
    )
    this.agents = Array.from({ length: AGENTS }, (_, i) => walletFromKey(keyFor(`agent${i}`)))
    this.stranger = walletFromKey(keyFor('stranger'))
    const limits = pair.spec.rateLimits
    this.ledger = new Ledger({
      ...(pair.tierWallet ? { tierAddress: this.wallets[WALLETS - 1]!.address } : {}),
      openCap: pair.openCap,
      ...(pair.tierWallet ? { tierCap: limits.tiers[pair.tierWallet.tier]?.maxOpenOrders ?? pair.openCap } : {}),
    })
    this.invariants = new Invariants(limits.tiers[limits.defaultTier]?.ordersPerMinute)
    this.time = pair.time ? new TimeWatch(pair.time) : undefined
  }

  record(step: Step, t: HttpExchange[], o: HttpExchange[]): void {
    this.trace.push({ step, target: t, oracle: o })
    this.time?.recorded(step.op, t)
    for (const e of t) this.firstReset ??= e.response?.headers['x-ratelimit-reset']
  }

  /** Read-backs that belong to the last step's trace entry. */
  append(t: HttpExchange[], o: HttpExchange[]): void {
    const last = this.trace.at(-1)
    if (last) last.target.push(...t), last.oracle.push(...o)
  }

  /**
   * Both answers compared, knowing whether the target's window for the acting wallet rolled over.
   * `units`: what the request could charge in one category (a perp action's orders), where a
   * refusal's answer lists no items.
   */
  answer(t: Observed, o: Observed, c: Omit<AnswerContext, 'windowRolled'>, wallet: string, units = 1): StepVerdict {
    // The time values are the target's alone: they stand even where the two sides' windows parted.
    const time = this.time?.answer(t, wallet, Math.max(units, t.items?.length ?? 0, o.items?.length ?? 0)) ?? []
    // Read-back `parties` (read-back.ts): refusals are compared by their error code too, and answers by their stated fields.
    const codes = this.pair.readBack === 'acting' ? {} : { catalog: this.pair.spec.catalog, fields: this.pair.spec }
    const v = compareAnswers(t, o, { ...c, ...codes, windowRolled: this.rolled(t) })
    return v === 'rolled' ? (time.length ? time : v) : [...time, ...v]
  }

  /** The clocks moved to the next window: every wallet's window starts again, and an expiry set ahead has passed on both sides. */
  newWindow(): void {
    this.firstReset = undefined
    if (this.expiry.ahead) this.expiry = { crossed: this.expiry.ahead }
  }

  /**
   * A perp action's `expiresAfter` on each side's clock (steps.ts `ExpiryPick`), or undefined:
   * none picked, no clocks, or the target's time not read yet (then neither side gets one).
   */
  expiresAfter(pick: ExpiryPick | undefined): Expiry | undefined {
    const clocks = this.pair.clocks
    const target = clocks?.target()
    if (!pick || !clocks || target === undefined) return undefined
    const at = (target: number, oracle: number): Expiry => ({ target: BigInt(Math.floor(target)), oracle: BigInt(Math.floor(oracle)) })
    if (pick === 'ahead') {
      const e = at(target + clocks.ahead.target, clocks.oracle() + clocks.ahead.oracle)
      this.expiry = { ...this.expiry, ahead: e }
      this.time?.expiresAt(Number(e.target))
      return e
    }
    return (pick === 'crossed' ? this.expiry.crossed : undefined) ?? at(target - 60_000, clocks.oracle() - 60_000)
  }

  /** The target's window for a wallet rolled over since its first answer in this sequence (or the last wait). */
  private rolled(t: Observed): boolean {
    const reset = t.headers['x-ratelimit-reset']
    if (reset === undefined) return false
    this.firstReset ??= reset
    return this.firstReset !== reset
  }
}
