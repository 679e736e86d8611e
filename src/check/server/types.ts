/**
 * The check framework of `oec check server`: a check is a small async function with a stable
 * id, the rule ids it covers and a level. It talks to the target through a `CheckContext`
 * that records every exchange, hands out fresh wallets and nonces, and knows the target's
 * signing domain and instruments.
 */
import type { RuleId } from '../../contract/generated/rules.ts'
import type { Level } from '../../report/model.ts'
import type { FullContract } from '../../contract/index.ts'
import type { LoadedFile } from '../../vectors/load.ts'
import type { HttpExchange, HttpClient, SendOptions } from '../target/http.ts'
import type { Rng } from './rng.ts'
import type { Wallet } from '../target/wallets.ts'

export type { Level }

export interface CheckInfo<Id extends string = string> {
  /** Stable id, e.g. `nonce.reuse-after-success`; sub-cases are `<id>/<case>`. */
  id: Id
  title: string
  /** Rule ids from spec/rules.yaml (typed: a rule the catalog lacks does not compile). */
  rules: RuleId[]
  /** stated ⇒ a departure is a failure; assumed ⇒ a warning. */
  level: Level
  /** Needs a rate-limit window reset: runs against a live target only with `--slow`. */
  slow?: boolean
  /** What the check shares with other checks; absent: nothing, it may run beside any other (see Shared). */
  shares?: readonly Shared[]
}

/**
 * State a check shares with others, which decides what may run at the same time (schedule.ts):
 * - `history`: it reads every exchange of the run, so it runs alone, after every earlier check
 *   and before any later one (it sees the same exchanges however many checks run at once).
 * - `tier-wallets`: it trades with the target's known-tier wallets (--config, or the embedded
 *   server's), which keep open orders, positions and windows from one check to the next.
 * - `book`: it trades with whatever rests in the book (a taker lifts the lowest ask, a buy at
 *   100 fills an ask below it), or rests an order it expects nobody else to fill; two such
 *   checks never overlap. Orders at the runner's usual prices (a buy at 1, a sell at 999999)
 *   never cross each other and need no entry.
 * Fresh wallets are a check's own (their nonces and windows too), so they need no entry here.
 */
export type Shared = 'history' | 'tier-wallets' | 'book'

/** `Id` keeps the literal id, so the registry can type every check id (see registry.ts). */
export interface Check<Id extends string = string> extends CheckInfo<Id> {
  run(ctx: CheckContext): Promise<void>
  /**
   * What a live target must offer beyond the defaults (one `--symbol`, no `--config` wallets) for
   * this check to run rather than skip, as a phrase starting "with" (`oec coverage` prints it).
   */
  needs?(spec: FullContract): string
}

/** What a family of generated checks is made from: the contract and, for a contract other than the shipped one, its vectors. */
export interface FamilyInput {
  readonly spec: FullContract
  readonly vectorFiles?: readonly LoadedFile[] | undefined
}

/**
 * Checks generated from data rather than written one per file (`mutate.*` from the spec's signed
 * schemas, `vectors.*` from the vector files): their ids are known only at run time, under one prefix.
 */
export interface CheckFamily<Prefix extends string> {
  readonly family: Prefix
  expand(input: FamilyInput): readonly Check<`${Prefix}.${string}`>[]
}

/** What the runner knows about the server under test. */
export interface TargetInfo {
  readonly url: string
  /** The embedded reference server (simulated clock) rather than a user's target. */
  readonly embedded: boolean
  readonly domainName: string
  readonly chainId: number
  readonly perpChainId: number
  readonly isMainnet: boolean
  /** Listed instruments the runner may trade; the first is the perp asset index 0. */
  readonly symbols: readonly string[]
  /** A well-formed symbol the target does not list. */
  readonly missingSymbol: string
  /** Wallets with a known tier (from --config); fresh wallets are the default tier. */
  readonly tierWallets: readonly { readonly privateKey: `0x${string}`; readonly tier: string }[]
  /** The target's clock in ms (simulated when embedded, the local clock otherwise). */
  now(): number
  /** Returns once the target's clock has reached this Unix time (seconds). */
  waitUntil(unixSeconds: number): Promise<void>
}

export interface FailOptions {
  readonly expected?: string | undefined
  /** The exchange to show; default: the last one of the case. */
  readonly exchange?: HttpExchange | undefined
  /** Override the case level (e.g. an assumed detail inside a stated check). */
  readonly level?: Level
  readonly rules?: readonly RuleId[]
}

export interface CaseOptions {
  readonly rules?: readonly RuleId[]
  readonly level?: Level
}

export interface CheckContext {
  readonly target: TargetInfo
  readonly spec: FullContract
  readonly http: HttpClient
  readonly rng: Rng
  readonly slow: boolean
  /** A fresh wallet (new key): the target's default tier. */
  wallet(): Wallet
  /** The next unused nonce for a trading wallet (strictly increasing per run). */
  nonce(wallet: Wallet | string): bigint
  /** Send a request; the exchange is logged for the current case. */
  send(method: string, path: string, body?: string, headers?: Record<string, string>): Promise<HttpExchange>
  /** Like send, with raw options (bytes, no content type); a missing response does not stop the case. */
  sendRaw(method: string, path: string, options: SendOptions): Promise<HttpExchange>
  /** Records a failure of the current case (stated: fail, assumed: warn) and stops it. */
  fail(message: string, options?: FailOptions): never
  /** Records a warning (an assumed rule departed from) and carries on. */
  warn(message: string, options?: FailOptions): void
  /** Skips the current case with a reason. */
  skip(reason: string): never
  /** Runs a sub-case reported as `<check id>/<sub id>`. Failures inside stay inside. */
  case(subId: string, title: string, fn: (ctx: CheckContext) => Promise<void>, options?: CaseOptions): Promise<void>
  /** The exchanges of this case so far. */
  readonly log: readonly HttpExchange[]
  /** Every exchange of the run so far (for checks over all responses, e.g. error bodies). */
  history(): readonly HttpExchange[]
}
