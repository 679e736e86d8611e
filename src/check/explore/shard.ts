/**
 * One shard of an exploration: its own oracle (and, on the embedded target, its own target), its
 * own seed and its own record of what it has found, so that what a shard finds depends on its
 * plan only, never on which shards ran beside it or in which thread. The plan is plain data: a
 * shard runs alike in the caller's thread and in a worker thread.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import type { FullContract } from '../../contract/index.ts'
import { SimulatedClock, startServer, type RunningServer, type ServerConfig } from '../../server/index.ts'
import { HttpClient } from '../target/http.ts'
import { queryValues } from '../target/routes.ts'
import { missingSymbolFor } from '../target/world.ts'
import { walletDeriver, walletFromKey } from '../target/wallets.ts'
import { BookMirror } from './mirror.ts'
import { MAX_UNBOUNDED_WINDOW_S, TargetClock, type LiveTime, type SideClocks } from './clock.ts'
import type { Divergence } from './compare.ts'
import { InProcessClient } from './in-process.ts'
import { findingKind, type Found } from './report.ts'
import type { Pair, Sides } from './pair.ts'
import { ExploreSession } from './session.ts'
import type { ReadBack } from './read-back.ts'
import type { TierWallet } from '../target/profile.ts'
import { shrinkFound, type ShrinkBudget } from './shrink.ts'
import { describeStep } from './commands/index.ts'
import { stepArbitrary, type Reach, type Step } from './steps.ts'
import { WsWatch } from './ws-watch.ts'
import { Lanes } from './lanes.ts'

/** Sequences whose orders stay on a live target's book for later sequences to trade with. */
const KEEP_LEFTOVERS = 20

/** Ghost wallets a shard's mirror spreads the target's foreign liquidity over (open-order caps). */
const GHOSTS = 8

/** The embedded servers' clocks start here: a fixed time, so that the report is the same run after run. */
export const EMBEDDED_EPOCH = Date.UTC(2026, 0, 5, 12, 0, 0)

export interface SavedSequence {
  readonly id: string
  readonly rule: string
  readonly what: string
  readonly steps: readonly Step[]
}

export interface ShardPlan {
  readonly shard: number
  readonly seed: number
  /** Base URL of the target; absent: the shard starts its own embedded reference server. */
  readonly target?: string
  readonly config: Partial<ServerConfig>
  /** The instruments this shard trades (on a live target, its own share of them). */
  readonly symbols: readonly string[]
  /** Sent with every request to the target. */
  readonly headers: Readonly<Record<string, string>>
  readonly missingSymbol?: string
  /** The tier wallet this shard's sequences trade with as their last wallet. */
  readonly tierWallet?: TierWallet | undefined
  readonly timeoutMs: number
  readonly maxSteps: number
  readonly maxFound: number
  /** The steps drawn (steps.ts `Reach`): absent, the full reach. */
  readonly reach?: Reach | undefined
  /** Mixed into wallet keys against a live target, so that runs never share a wallet. */
  readonly salt?: string | undefined
  /** This shard's share of a sequence budget; absent: run until `deadline`. */
  readonly sequences?: number
  /** `Date.now()` time at which to stop drawing sequences. */
  readonly deadline?: number | undefined
  /** Shrinking a find: a budget of its own, not what is left of the deadline. */
  readonly shrink: ShrinkBudget
  /** The time reach on a live target (clock.ts): its clock compared, waits that cross its windows. Default on. */
  readonly time?: boolean | undefined
  /** How far a step's verdict reaches (read-back.ts); absent: `parties`. */
  readonly readBack?: ReadBack
  /**
   * Sequences kept in flight on a live target whose waits sleep, under a duration (lanes.ts);
   * absent: one at a time.
   */
  readonly lanes?: number | undefined
}

export interface ShardHooks {
  /** The shard's running totals, after each sequence. */
  readonly onCount?: (sequences: number, steps: number) => void
  readonly onFound?: (f: Found) => void
  /** The target's clock when the caller controls it (tests): `wait` steps move it. Not with threads. */
  readonly clock?: SimulatedClock
  /** Saved sequences to run once each instead of exploring. */
  readonly replay?: readonly SavedSequence[]
  /** The time the deadline and the shrink budget are measured in (tests move it); default Date.now. */
  readonly now?: () => number
}

export interface ShardResult {
  readonly found: readonly Found[]
  readonly sequences: number
  readonly steps: number
  /** Steps each explored sequence ran (shrinking's reruns included). */
  readonly lengths: readonly number[]
  /** A digest of every sequence the shard ran, step by step: which sequences a part of a campaign ran. */
  readonly digest: string
}

class StopSequence extends Error {}

/** Thrown by a sequence drawn after the deadline: the end of exploring, not a finding. */
class DeadlinePassed extends Error {}

interface Model {
  readonly session: ExploreSession
  stopped: boolean
}

/** A shard's fast-check seed for its n-th run (of its lane, past the first). */
function shardSeed(seed: number, shard: number, attempt: number, lane = 0): number {
  return createHash('sha256')
    .update(`${seed}:${shard}:${attempt}${lane ? `:${lane}` : ''}`)
    .digest()
    .readInt32BE(0)
}

/** What makes two divergences the same finding (and gives it its id): the rule, and the kind of step that showed it. */
export const findingKey = (d: Divergence, s: Step) => `${d.rule}|${findingKind(s)}`

async function referenceServer(
  spec: FullContract,
  config: Partial<ServerConfig>,
): Promise<{ server: RunningServer; clock: SimulatedClock }> {
  const clock = new SimulatedClock(EMBEDDED_EPOCH)
  const server = await startServer({ spec, config: { ...config, log: false }, deps: { clock } })
  return { server, clock }
}

export async function runShard(spec: FullContract, plan: ShardPlan, hooks: ShardHooks = {}): Promise<ShardResult> {
  const found: Found[] = []
  const lengths: number[] = []
  const seen = new Set<string>()
  let sequences = 0
  let steps = 0
  const ran = createHash('sha256')
  const done = (): ShardResult => ({ found, sequences, steps, lengths, digest: ran.digest('hex') })
  const count = () => hooks.onCount?.(sequences, steps)
  const perps = spec.typedData.domains.perps
  const walletKey = walletDeriver(plan.seed, plan.salt)
  // On a live target the oracle mirrors the target's books through wallets only it knows, in its
  // largest tier so that mirroring a busy book is never rate-limited.
  const ghostKeys = plan.target === undefined ? [] : Array.from({ length: GHOSTS }, (_, i) => walletKey(`ghost/${plan.shard}/${i}`))
  const roomiest = Object.entries(spec.rateLimits.tiers).sort(([, a], [, b]) => b.ordersPerMinute - a.ordersPerMinute)[0]![0]
  const oracleConfig: Partial<ServerConfig> = ghostKeys.length
    ? {
        ...plan.config,
        walletTiers: {
          ...plan.config.walletTiers,
          ...Object.fromEntries(ghostKeys.map((k) => [walletFromKey(k).address.toLowerCase(), roomiest])),
        },
      }
    : plan.config
  const oracle = await referenceServer(spec, oracleConfig)
  const own = plan.target === undefined ? await referenceServer(spec, plan.config) : undefined
  const target = new HttpClient(own ? own.server.url : plan.target!, plan.timeoutMs, plan.headers)
  const targetClock = own?.clock ?? hooks.clock
  const instruments = oracle.server.config.instruments
  const listed = plan.symbols.length ? plan.symbols : instruments
  // One subscriber for each lane's sequences (they run one after another), not one per sequence.
  const watchers: WsWatch[] = []
  const newWatch = () => {
    if (plan.readBack === 'acting') return undefined
    const w = new WsWatch({ target: own ? own.server.url : plan.target!, headers: plan.headers, websocket: spec.websocket })
    watchers.push(w)
    return w
  }
  const sides: Sides = {
    spec,
    target,
    oracle: new InProcessClient(oracle.server),
    domainName: oracle.server.config.domainName,
    chainId: oracle.server.config.chainId,
    perpChainId: oracle.server.config.perpChainId ?? perps?.chainId ?? 1337,
    isMainnet: oracle.server.config.isMainnet ?? true,
    symbols: listed,
    assets: listed.map((s) => instruments.indexOf(s)),
    missingSymbol: plan.missingSymbol ?? missingSymbolFor(instruments),
    openCap: spec.rateLimits.tiers[spec.rateLimits.defaultTier]!.maxOpenOrders,
    tierWallet: plan.tierWallet,
    readBack: plan.readBack ?? 'parties',
    ...(targetClock
      ? {
          advance: (ms: number) => {
            targetClock.advance(ms)
            oracle.clock.advance(ms)
          },
        }
      : {}),
  }
  // A live target whose clock is its own: the time reach reads it from its answers and waits for
  // it, other lanes' sequences running while one sleeps (under a time budget: a sequence budget
  // keeps one lane, so that its sequences run in their drawn order).
  const windowSeconds = oracle.server.config.rateWindowSeconds
  const timeReach = plan.target !== undefined && !targetClock && plan.time !== false
  const lanes = new Lanes(() => oracle.clock.advance(windowSeconds * 1000))
  const laneCount = timeReach && plan.deadline !== undefined && !hooks.replay ? Math.max(1, plan.lanes ?? 1) : 1
  const time: LiveTime | undefined = timeReach
    ? { clock: new TargetClock(), windowSeconds, deadline: plan.deadline, sleep: (wake) => lanes.sleep(wake) }
    : undefined
  // Perp expiries on each side's clock: where the explorer moves both (a wait moves them a minute),
  // or on a live target with the time reach (its clock read from its answers; the oracle's moves a window a wait).
  const clocks: SideClocks | undefined = targetClock
    ? { target: () => targetClock.now(), oracle: () => oracle.clock.now(), ahead: { target: 30_000, oracle: 30_000 } }
    : time
      ? {
          target: () => time.clock.now(),
          oracle: () => oracle.clock.now(),
          ahead: { target: windowSeconds * 1000, oracle: windowSeconds * 500 },
        }
      : undefined
  const timed: Sides = { ...sides, time, clocks }
  const shared: Pair = ghostKeys.length ? { ...timed, mirror: new BookMirror(timed, ghostKeys) } : timed
  // The tier wallet is the one wallet sequences share: only the first lane trades with it, so that
  // no sequence meets its window or its open orders changed by another lane's while it slept.
  const pairs: Pair[] = Array.from({ length: laneCount }, (_, lane) => ({
    ...shared,
    watch: newWatch(),
    tierWallet: lane === 0 ? shared.tierWallet : undefined,
  }))
  let run = 0
  const newSession = (lane: number) => {
    const r = ++run
    return new ExploreSession(pairs[lane]!, (label) => walletKey(`explore/${plan.shard}/${r}/${label}`))
  }
  /** `body` holding the shard's turn (lanes.ts): no other lane's request goes out meanwhile. */
  const inTurn = async <T>(body: () => Promise<T>): Promise<T> => {
    await lanes.turn()
    try {
      return await body()
    } finally {
      lanes.release()
    }
  }
  const live = plan.target !== undefined
  const leftovers: ExploreSession[] = []
  const now = hooks.now ?? Date.now
  /**
   * Runs `sequence` alone: fresh wallets, and what it left on the book cancelled before the next,
   * so one rerun's orders never trade with another's. The finding when a step shows a divergence
   * `wanted` takes; one that `ends` takes ends it without. Run in `lane`'s turn.
   */
  const rerun = (
    lane: number,
    sequence: readonly Step[],
    wanted: (d: Divergence, step: Step) => boolean,
    ends: (d: Divergence, step: Step) => boolean,
  ): Promise<Found | undefined> =>
    inTurn(async () => {
      const session = newSession(lane)
      let hit: Divergence | undefined
      try {
        await session.begin()
        let ended = false
        for (const step of sequence) {
          steps++
          const v = await session.run(step)
          ended = v === 'rolled' || v.some((d) => ends(d, step))
          if (v === 'rolled') break
          hit = v.find((d) => wanted(d, step))
          if (hit || ended) break
        }
        // What the sequence as a whole left (its /ws updates), judged at its last step.
        const lastStep = session.steps.at(-1)
        if (!hit && !ended && lastStep) hit = (await session.finish()).find((d) => wanted(d, lastStep))
      } finally {
        await session.cleanup()
      }
      sequences++
      lengths.push(session.steps.length)
      ran.update(`${session.steps.map(describeStep).join(';')}\n`)
      count()
      return hit ? { divergence: hit, steps: [...session.steps], trace: session.trace } : undefined
    })
  try {
    if (hooks.replay) {
      // A saved sequence reproduces only when the saved rule diverges again; another rule on the
      // way is not the saved finding. As in exploration, a stated difference ends the sequence; an
      // allowed one does not.
      for (const saved of hooks.replay)
        found.push(
          (await rerun(
            0,
            saved.steps,
            (d) => d.rule === saved.rule,
            (d) => d.level === 'stated',
          )) ?? {
            divergence: { rule: saved.rule as Divergence['rule'], level: 'stated', what: '' },
            steps: saved.steps,
            trace: [],
          },
        )
      return done()
    }
    // A live wait sleeps up to a window: drawn when a deadline bounds it or the window is short.
    const liveWaits = time !== undefined && (plan.deadline !== undefined || windowSeconds <= MAX_UNBOUNDED_WINDOW_S)
    const arb = stepArbitrary({
      listed: listed.length,
      canWait: targetClock !== undefined || liveWaits,
      // A fill needs the order limit's windows crossed within a sequence: live, only with a short
      // window (a long one would be a flood that waits past any duration budget).
      canFill: targetClock !== undefined || (time !== undefined && windowSeconds <= MAX_UNBOUNDED_WINDOW_S),
      canExpire: clocks !== undefined,
      statuses: queryValues(spec, 'listOrders', 'status'),
      reach: plan.reach,
    })
    /** One lane's sequences: drawn, run in the lane's turn, and what they find shrunk. */
    const explore = async (lane: number, share: number) => {
      let left = share
      for (let attempt = 0; left > 0 && found.length < plan.maxFound; attempt++) {
        if (plan.deadline !== undefined && now() >= plan.deadline) break
        let last: Found | undefined
        // A find is claimed at once, so that another lane meeting it meanwhile does not shrink it again.
        const claim = (d: Divergence, m: Model) => {
          m.stopped = true
          last = { divergence: d, steps: [...m.session.steps], trace: [...m.session.trace] }
          seen.add(findingKey(d, m.session.steps.at(-1)!))
          throw new StopSequence(d.what)
        }
        const command = (step: Step): fc.AsyncCommand<Model, object> => ({
          check: (m) => !m.stopped,
          async run(m) {
            steps++
            const v = await m.session.run(step)
            if (v === 'rolled') {
              m.stopped = true
              return
            }
            const fresh = v.filter((d) => !seen.has(findingKey(d, step)))
            if (fresh.length) claim(fresh[0]!, m)
            // Only divergences already reported: a stated one ends the sequence (its state is past
            // judging); after an allowed one the session adopted the target's choice and it goes on.
            if (v.some((d) => d.level === 'stated')) m.stopped = true
          },
          toString: () => describeStep(step),
        })
        const details = await fc.check(
          fc.asyncProperty(fc.commands([arb.map(command)], { maxCommands: plan.maxSteps }), (cmds) =>
            inTurn(async () => {
              if (plan.deadline !== undefined && now() >= plan.deadline) throw new DeadlinePassed()
              sequences++
              const model: Model = { session: newSession(lane), stopped: false }
              try {
                await model.session.begin()
                await fc.asyncModelRun(() => ({ model, real: {} }), cmds)
                // What the sequence as a whole left (its /ws updates), judged at its last step.
                const lastStep = model.session.steps.at(-1)
                if (!model.stopped && lastStep) {
                  const fresh = (await model.session.finish()).filter((d) => !seen.has(findingKey(d, lastStep)))
                  if (fresh.length) claim(fresh[0]!, model)
                }
              } finally {
                // A sequence that diverged leaves books that no longer match: cleaned now. On a live
                // target the others' orders stay a while as the world later sequences trade in (on
                // both sides alike), then are cancelled, so a run leaves nothing behind.
                if (model.stopped) await model.session.cleanup()
                else if (live) {
                  leftovers.push(model.session)
                  if (leftovers.length > KEEP_LEFTOVERS) await leftovers.shift()!.cleanup()
                }
                lengths.push(model.session.steps.length)
                ran.update(`${model.session.steps.map(describeStep).join(';')}\n`)
                count()
              }
            }),
          ),
          // The first failure ends the draw unshrunk: shrinking has its own budget, below.
          {
            seed: shardSeed(plan.seed, plan.shard, attempt, lane),
            numRuns: Number.isFinite(left) ? left : 2 ** 31 - 1,
            endOnFailure: true,
          },
        )
        if (!details.failed || !last) break
        const key = findingKey(last.divergence, last.steps.at(-1)!)
        // A candidate diverging otherwise (stated, or a finding not yet seen) is not this finding:
        // it ends there, as an explored sequence would, and counts as passing.
        const f = await shrinkFound(
          last,
          (candidate) =>
            rerun(
              lane,
              candidate,
              (d, step) => findingKey(d, step) === key,
              (d, step) => d.level === 'stated' || !seen.has(findingKey(d, step)),
            ),
          plan.shrink,
          now,
        )
        found.push(f)
        hooks.onFound?.(f)
        left -= details.numRuns
      }
    }
    const total = plan.sequences ?? Number.POSITIVE_INFINITY
    await Promise.all(
      Array.from({ length: laneCount }, (_, lane) =>
        explore(lane, Number.isFinite(total) ? Math.floor(total / laneCount) + (lane < total % laneCount ? 1 : 0) : total),
      ),
    )
    return done()
  } finally {
    for (const session of leftovers) await session.cleanup()
    for (const w of watchers) w.close()
    target.close()
    await Promise.all([oracle.server.close(), own?.server.close()])
  }
}
