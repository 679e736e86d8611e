/**
 * `oec check server --explore`: random, signature-aware, stateful sequences run against the
 * target and an in-process reference server (the oracle), with fast-check's model-based testing
 * drawing the sequences (`fc.commands`) and shrinking a failing one (`fc.asyncModelRun`).
 *
 * The budget is split into shards, each with its own seed, its own oracle (and, on the embedded
 * target, its own target) and its own record of findings (see shard.ts), so a run with a sequence
 * budget is the same whatever the number of workers running the shards, and whether they run in
 * worker threads (the compiled package: one shard per thread, every core busy) or in this one.
 */
import { createHash } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { contractFor, shippedContract, type Contract, type FullContract } from '../../contract/index.ts'
import type { Campaign, CaseResult, RunSummary } from '../../report/model.ts'
import type { SimulatedClock, ServerConfig } from '../../server/index.ts'
import { HttpClient, probe, UnreachableError } from '../target/http.ts'
import type { TierWallet } from '../target/profile.ts'
import { listedInstruments } from '../target/world.ts'
import { runSalt, walletFromKey } from '../target/wallets.ts'
import { InputError } from '../../errors.ts'
import { exploredCase, foundCase, foundId, type Found } from './report.ts'
import { DEFAULT_SHRINK, type ShrinkBudget } from './shrink.ts'
import { REACHES, type Reach } from './steps.ts'
import { EMBEDDED_EPOCH, findingKey, runShard, type SavedSequence, type ShardPlan, type ShardResult } from './shard.ts'
import { READ_BACKS, type ReadBack } from './read-back.ts'
import type { ThreadInput, ThreadMessage, ThreadSpec } from './shard-thread.ts'

export type { SavedSequence } from './shard.ts'

export type ExploreBudget = { readonly sequences: number } | { readonly ms: number }

export interface ExploreOptions {
  readonly spec?: Contract | string
  /** Base URL; absent: the embedded reference server. */
  readonly target?: string | undefined
  /** The target's clock when the caller controls it (tests): `wait` steps move it. */
  readonly clock?: SimulatedClock
  readonly budget: ExploreBudget
  readonly seed?: number
  /** Shards run at a time. */
  readonly workers?: number | undefined
  readonly symbols?: readonly string[] | undefined
  readonly missingSymbol?: string | undefined
  /** Sent with every request to the target (`--header`: a gateway's key). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly domainName?: string | undefined
  readonly chainId?: number | undefined
  readonly perpChainId?: number | undefined
  readonly isMainnet?: boolean | undefined
  /**
   * Wallets the target has put in a tier (`--config` wallets): shard i trades with the i-th as
   * its sequences' last wallet (one shard per wallet, so no two share its nonces and windows).
   */
  readonly tierWallets?: readonly TierWallet[] | undefined
  readonly timeoutMs?: number
  /**
   * `basic`: exploration without the wider reach (mixed races, replays of earlier requests, reuse
   * of any earlier nonce, agent-signed bulk items), to show what only that reach finds. Default `full`.
   */
  readonly reach?: Reach
  /** Longest sequence drawn (default 10 steps). */
  readonly maxSteps?: number
  /** Saved sequences to run once each instead of exploring (`--replay`). */
  readonly replay?: readonly SavedSequence[] | undefined
  /** Stop after this many divergences (default 30). */
  readonly maxFound?: number
  /** Shrinking a find, apart from the exploration budget (default DEFAULT_SHRINK). */
  readonly shrink?: ShrinkBudget | undefined
  /**
   * `--shard I/N`: run part I (1-based) of N of this exploration: the shards the whole run would
   * have, dealt round-robin to the parts, so the N parts together run exactly the whole run's
   * sequences and each part runs its shards as the whole run would.
   */
  readonly part?: { readonly index: number; readonly of: number } | undefined
  /**
   * The time reach on a live target (default on): Reset and Retry-After held against the
   * target's own clock, and `wait` steps that cross its windows (clock.ts). Only a live target
   * whose clock is its own has it: set elsewhere, an error.
   */
  readonly time?: boolean | undefined
  /**
   * `--sunset DATE`: the date after which `route` is required. Once the target's time is past it
   * (the embedded target's simulated clock, a live target's own), the oracle refuses an order
   * without route as a server past the sunset does.
   */
  readonly sunset?: string | undefined
  /** The target's rate-limit window in seconds (`--rate-window`; default the spec's): the oracle uses it too. */
  readonly rateWindow?: number | undefined
  readonly onProgress?: (p: ExploreProgress) => void
  /**
   * How far a step's verdict reaches (read-back.ts): `parties` (default) also reads back every
   * party a step may have touched, compares error codes and the `/ws` updates; `acting` does not.
   */
  readonly readBack?: ReadBack
}

export interface ExploreProgress {
  readonly sequences: number
  readonly steps: number
  readonly divergences: number
  readonly elapsedMs: number
}

export interface ExploreResult {
  readonly summary: RunSummary
  readonly found: readonly Found[]
  readonly sequences: number
  readonly steps: number
  /** The median number of steps an explored sequence ran: how deep exploration reached. */
  readonly medianSteps: number
  /** Each shard this run ran, with a digest of the sequences it ran (what a part of a campaign did). */
  readonly shards: readonly { readonly shard: number; readonly sequences: number; readonly digest: string }[]
}

/** The shards of an embedded run: fixed, so that the report does not depend on --workers. */
export const EMBEDDED_SHARDS = 8

/**
 * Sequences a live run keeps in flight, shared out among its shards (lanes.ts). A wait sleeps
 * until the target's window ends, and a lane crosses one window a wait: so a lane runs about one
 * wait's worth of sequences a window, and what a run explores a minute grows with its lanes.
 */
const LIVE_LANES = 64

/** Worker threads need the compiled package: from TypeScript sources (the tests) shards share this thread. */
const THREADS_AVAILABLE = import.meta.url.endsWith('.js')

/** What a thread needs to rebuild the contract: nothing for the shipped spec, else its text. */
function threadSpec(spec: FullContract): ThreadSpec {
  return spec === shippedContract() ? undefined : { text: spec.text, file: spec.file, service: spec.service }
}

/**
 * Runs `plans` in one worker thread, `concurrency` at a time; resolves with each shard's result
 * (by shard number) once the thread has run them all.
 */
function inThread(
  input: ThreadInput,
  onCount: (shard: number, sequences: number, steps: number) => void,
  onFound: (shard: number, f: Found) => void,
  running: Worker[],
): Promise<Map<number, ShardResult>> {
  return new Promise((resolve, reject) => {
    const found = new Map<number, Found[]>()
    const results = new Map<number, ShardResult>()
    const worker = new Worker(new URL('./shard-thread.js', import.meta.url), { workerData: input })
    running.push(worker)
    let failed = false
    worker.on('message', (m: ThreadMessage) => {
      if (m.kind === 'count') onCount(m.shard, m.sequences, m.steps)
      else if (m.kind === 'found') {
        found.set(m.shard, [...(found.get(m.shard) ?? []), m.found])
        onFound(m.shard, m.found)
      } else if (m.kind === 'done')
        results.set(m.shard, {
          found: found.get(m.shard) ?? [],
          sequences: m.sequences,
          steps: m.steps,
          lengths: m.lengths,
          digest: m.digest,
        })
      else {
        failed = true
        reject(new Error(m.message))
      }
    })
    worker.on('error', (err) => {
      failed = true
      reject(err)
    })
    worker.on('exit', (code) => {
      if (failed) return
      if (results.size === input.plans.length) resolve(results)
      else reject(new Error(`an explore thread stopped before its shards were done (exit ${code})`))
    })
  })
}

export async function explore(opts: ExploreOptions): Promise<ExploreResult> {
  const spec = contractFor(opts.spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'oec check server --explore')
  const t0 = performance.now()
  const startedAt = new Date()
  const seed = opts.seed ?? 1
  const embedded = opts.target === undefined
  const symbols = opts.symbols ?? []
  const workers = Math.max(1, opts.workers ?? 4)
  const headers = opts.headers ?? {}
  if (opts.time !== undefined && (embedded || opts.clock))
    throw new InputError(
      "the time reach is for a live target whose clock is its own: the embedded target (or a caller's clock) moves time itself; drop the time option or give --target",
    )
  const sunset = opts.sunset === undefined ? undefined : Date.parse(opts.sunset)
  if (sunset !== undefined && !Number.isFinite(sunset))
    throw new InputError(`the sunset is a date (2026-07-04 or an HTTP date), not "${opts.sunset}"`)
  if (opts.rateWindow !== undefined && !(Number.isSafeInteger(opts.rateWindow) && opts.rateWindow >= 1))
    throw new InputError(`the rate window is a whole number of seconds >= 1, not ${opts.rateWindow}`)

  // A live target's own instrument list, in its order: the oracle lists the same, so that a perp
  // asset index means the same instrument on both sides.
  let universe: readonly string[] | undefined
  if (!embedded) {
    const http = new HttpClient(opts.target!, opts.timeoutMs ?? 10_000, headers)
    try {
      const unreachable = await probe(http, '/')
      if (unreachable) throw new UnreachableError(`cannot reach ${opts.target}: ${unreachable}`)
      const listed = await listedInstruments(spec, http)
      if (listed && symbols.every((s) => listed.includes(s))) universe = listed
    } finally {
      http.close()
    }
  }
  const config: Partial<ServerConfig> = {
    ...(universe ? { instruments: [...universe] } : symbols.length ? { instruments: [...symbols] } : {}),
    ...(opts.domainName ? { domainName: opts.domainName } : {}),
    ...(opts.chainId !== undefined ? { chainId: opts.chainId } : {}),
    ...(opts.perpChainId !== undefined ? { perpChainId: opts.perpChainId } : {}),
    ...(opts.isMainnet !== undefined ? { isMainnet: opts.isMainnet } : {}),
    ...(opts.rateWindow !== undefined ? { rateWindowSeconds: opts.rateWindow } : {}),
    ...(sunset !== undefined ? { routeRequired: sunset <= (embedded ? EMBEDDED_EPOCH : (opts.clock?.now() ?? Date.now())) } : {}),
    ...(opts.tierWallets?.length
      ? { walletTiers: Object.fromEntries(opts.tierWallets.map((w) => [walletFromKey(w.privateKey).address.toLowerCase(), w.tier])) }
      : {}),
  }
  // Shards share a live target; with the caller's clock they would also share its time, so one shard then.
  // On a live target each shard trades its own instruments (a world of its own: no shard's order
  // meets another's on a book), those named, else those the target lists, so there are no more
  // shards than instruments.
  const dealt = symbols.length ? symbols : (universe ?? [])
  const shards = opts.replay || opts.clock ? 1 : embedded ? EMBEDDED_SHARDS : Math.min(workers, Math.max(1, dealt.length))
  const salt = embedded ? undefined : runSalt()
  const deadline = 'ms' in opts.budget ? Date.now() + opts.budget.ms : undefined
  const maxFound = opts.maxFound ?? 30
  const part = opts.part ?? { index: 1, of: 1 }
  if (opts.reach !== undefined && !REACHES.includes(opts.reach))
    throw new InputError(`explore: reach ${JSON.stringify(opts.reach)} is not one of ${REACHES.join(', ')}`)
  if (opts.readBack !== undefined && !READ_BACKS.includes(opts.readBack))
    throw new InputError(`explore: readBack ${JSON.stringify(opts.readBack)} is not one of ${READ_BACKS.join(', ')}`)
  if (part.of > shards)
    throw new InputError(
      `--shard ${part.index}/${part.of}: this exploration has ${shards} shard(s) to deal out, so at most ${shards} parts`,
    )
  // This part's shards: the whole run's, dealt round-robin (part I of N runs shards I-1, I-1+N, ...).
  const mine = Array.from({ length: shards }, (_, i) => i).filter((i) => i % part.of === part.index - 1)
  // One thread per core at most: a thread costs a module load and a spec compile.
  const threads = THREADS_AVAILABLE ? Math.min(workers, mine.length, availableParallelism()) : 1
  const shardSymbols = (shard: number) => (embedded || shards === 1 ? symbols : dealt.filter((_, i) => i % shards === shard))

  // Running totals per shard, summed for progress: a shard reports its own totals.
  const counts = Array.from({ length: shards }, () => ({ sequences: 0, steps: 0 }))
  let divergences = 0
  let lastProgress = 0
  const progress = (force = false) => {
    const sequences = counts.reduce((n, c) => n + c.sequences, 0)
    if (!force && sequences - lastProgress < 25) return
    lastProgress = sequences
    opts.onProgress?.({ sequences, steps: counts.reduce((n, c) => n + c.steps, 0), divergences, elapsedMs: performance.now() - t0 })
  }
  const planFor = (shard: number): ShardPlan => ({
    shard,
    seed,
    ...(opts.target !== undefined ? { target: opts.target } : {}),
    config,
    symbols: shardSymbols(shard),
    headers,
    ...(opts.missingSymbol ? { missingSymbol: opts.missingSymbol } : {}),
    ...(opts.tierWallets?.[shard] ? { tierWallet: opts.tierWallets[shard] } : {}),
    timeoutMs: opts.timeoutMs ?? 10_000,
    maxSteps: opts.maxSteps ?? 10,
    maxFound,
    reach: opts.reach,
    salt,
    ...('sequences' in opts.budget
      ? { sequences: Math.floor(opts.budget.sequences / shards) + (shard < opts.budget.sequences % shards ? 1 : 0) }
      : {}),
    deadline,
    shrink: opts.shrink ?? DEFAULT_SHRINK,
    time: opts.time,
    readBack: opts.readBack ?? 'parties',
    lanes: Math.ceil(LIVE_LANES / shards),
  })
  const onCount = (shard: number, sequences: number, steps: number) => {
    counts[shard] = { sequences, steps }
    progress()
  }
  const onFound = () => {
    divergences++
    progress(true)
  }

  const perShard: ShardResult[] = new Array(shards)
  if (threads > 1 && !opts.clock && !opts.replay) {
    // Thread k runs this part's k-th, (k + threads)-th, ... shard; the shards a run has are the same either way.
    const input = (k: number): ThreadInput => {
      const plans = mine.filter((_, j) => j % threads === k).map(planFor)
      return { spec: threadSpec(spec), plans, concurrency: Math.ceil(Math.min(workers, mine.length) / threads) }
    }
    const running: Worker[] = []
    const done = await Promise.all(Array.from({ length: threads }, (_, k) => inThread(input(k), onCount, onFound, running))).catch(
      async (err: unknown) => {
        // One thread failed: the run is over; the others are stopped, not left running.
        await Promise.all(running.map((w) => w.terminate()))
        throw err
      },
    )
    for (const results of done) for (const [i, r] of results) perShard[i] = r
  } else {
    let next = 0
    await Promise.all(
      Array.from({ length: Math.min(workers, mine.length) }, async () => {
        while (next < mine.length) {
          const i = mine[next++]!
          perShard[i] = await runShard(spec, planFor(i), {
            onCount: (sequences, steps) => onCount(i, sequences, steps),
            onFound,
            ...(opts.clock ? { clock: opts.clock } : {}),
            ...(opts.replay ? { replay: opts.replay } : {}),
          })
        }
      }),
    )
  }
  const ran = mine.map((i) => perShard[i]!)
  const sequences = ran.reduce((n, r) => n + r.sequences, 0)
  const steps = ran.reduce((n, r) => n + r.steps, 0)
  // Each find with its place in the whole run (shard, then its order in the shard): the order a
  // whole run keeps its first maxFound in, and `oec report merge` sorts the parts' finds by.
  const all = mine.flatMap((shard) => perShard[shard]!.found.map((f, index) => ({ f, shard, index })))
  const campaign: Campaign = {
    seed,
    spec: { version: spec.version, digest: createHash('sha256').update(spec.text).digest('hex').slice(0, 16) },
    budget: 'sequences' in opts.budget ? String(opts.budget.sequences) : `${opts.budget.ms}ms`,
    part: { parts: [part.index], of: part.of, shards: mine },
    sequences,
    steps,
    lengths: ran.flatMap((r) => r.lengths).reduce<number[]>((h, n) => ((h[n] = (h[n] ?? 0) + 1), h), []),
  }
  for (let n = 0; n < campaign.lengths.length; n++) campaign.lengths[n] ??= 0
  // A replay reports each saved sequence; an exploration one case per finding (rule and step
  // kind) and per id, in shard order, at most maxFound: the same run gives the same report.
  const kept = distinct(all).slice(0, maxFound)
  if (!opts.replay) {
    campaign.maxFound = maxFound
    campaign.found = kept.map(({ f, shard, index }) => ({ id: foundId(f), shard, index }))
  }
  const found = opts.replay ? all.map(({ f }) => f).filter((f) => f.trace.length > 0) : kept.map(({ f }) => f)
  opts.onProgress?.({ sequences, steps, divergences: found.length, elapsedMs: performance.now() - t0 })
  const explored = exploredCase(campaign, found.length)
  const results: CaseResult[] = opts.replay
    ? opts.replay.map((saved, i) => replayCase(saved, perShard[0]!.found[i]!))
    : [explored.result, ...found.map(foundCase)]
  const summary: RunSummary = {
    suite: 'oec check server --explore',
    target: embedded ? 'embedded reference server' : opts.target!,
    results,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    ...(opts.replay ? {} : { campaign }),
  }
  const shardsRan = mine.map((i) => ({ shard: i, sequences: perShard[i]!.sequences, digest: perShard[i]!.digest }))
  return { summary, found, sequences, steps, medianSteps: explored.medianSteps, shards: shardsRan }
}

function distinct<T extends { readonly f: Found }>(all: readonly T[]): T[] {
  const keys = new Set<string>()
  const ids = new Set<string>()
  return all.filter(({ f }) => {
    const key = findingKey(f.divergence, f.steps.at(-1)!)
    const id = foundId(f)
    if (keys.has(key) || ids.has(id)) return false
    keys.add(key)
    ids.add(id)
    return true
  })
}

/** A replayed sequence: a case under the saved id, passing when no step diverges any more. */
function replayCase(saved: SavedSequence, f: Found): CaseResult {
  if (f.trace.length === 0)
    return {
      id: saved.id,
      title: `replayed sequence of ${saved.steps.length} step(s)`,
      rules: [saved.rule],
      level: 'stated',
      outcome: 'pass',
      message: `no divergence any more (was: ${saved.what})`,
      durationMs: 0,
    }
  return { ...foundCase(f), id: saved.id, title: `replayed sequence of ${saved.steps.length} step(s) still diverges` }
}
