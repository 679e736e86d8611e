/**
 * `oec check server --explore`: random, signature-aware, stateful sequences run against the
 * target and an in-process reference server (the oracle), with fast-check's model-based testing
 * drawing the sequences (`fc.commands`) and shrinking a failing one (`fc.asyncModelRun`).
 *
 * The budget is split into shards, each with its own seed and its own oracle (and, on the
 * embedded target, its own target), so a run with a sequence budget is the same whatever the
 * number of workers running the shards. A divergence ends its shard's fast-check run; the shard
 * then goes on with a new run that no longer stops at that divergence (same rule, same step kind),
 * until its budget is spent.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { contractFor, type Contract, type FullContract } from '../../contract/index.ts'
import type { CaseResult, RunSummary } from '../../report/model.ts'
import { SimulatedClock, startServer, type RunningServer, type ServerConfig } from '../../server/index.ts'
import { HttpClient, probe, UnreachableError } from '../server/http.ts'
import { missingSymbolFor } from '../server/runner.ts'
import { walletDeriver, runSalt } from '../server/wallets.ts'
import type { Divergence } from './compare.ts'
import { foundCase, foundId, type Found } from './report.ts'
import { Session, type Pair } from './session.ts'
import { describeStep, stepArbitrary, type Step } from './steps.ts'

export type ExploreBudget = { readonly sequences: number } | { readonly ms: number }

export interface ExploreOptions {
  readonly spec?: Contract | string
  /** Base URL; absent: the embedded reference server. */
  readonly target?: string
  /** The target's clock when the caller controls it (tests): `wait` steps move it. */
  readonly clock?: SimulatedClock
  readonly budget: ExploreBudget
  readonly seed?: number
  /** Shards run at a time. */
  readonly workers?: number
  readonly symbols?: readonly string[]
  readonly missingSymbol?: string
  readonly domainName?: string
  readonly chainId?: number
  readonly perpChainId?: number
  readonly isMainnet?: boolean
  readonly timeoutMs?: number
  /** Longest sequence drawn (default 10 steps). */
  readonly maxSteps?: number
  /** Saved sequences to run once each instead of exploring (`--replay`). */
  readonly replay?: readonly SavedSequence[]
  /** Stop after this many divergences (default 30). */
  readonly maxFound?: number
  readonly onProgress?: (p: ExploreProgress) => void
}

export interface ExploreProgress {
  readonly sequences: number
  readonly steps: number
  readonly divergences: number
  readonly elapsedMs: number
}

export interface SavedSequence {
  readonly id: string
  readonly rule: string
  readonly what: string
  readonly steps: readonly Step[]
}

export interface ExploreResult {
  readonly summary: RunSummary
  readonly found: readonly Found[]
  readonly sequences: number
  readonly steps: number
}

/** The shards of an embedded run: fixed, so that the report does not depend on --workers. */
export const EMBEDDED_SHARDS = 8
/** The embedded servers' clocks start here: a fixed time, so that the report is the same run after run. */
const EMBEDDED_EPOCH = Date.UTC(2026, 0, 5, 12, 0, 0)

class StopSequence extends Error {}

interface Model {
  readonly session: Session
  stopped: boolean
}

/** A shard's fast-check seed for its n-th run. */
function shardSeed(seed: number, shard: number, attempt: number): number {
  return createHash('sha256').update(`${seed}:${shard}:${attempt}`).digest().readInt32BE(0)
}

const keyOf = (d: Divergence, s: Step) => `${d.rule}|${s.op === 'burst' ? `burst:${s.step.op}` : s.op}`

interface Counters {
  sequences: number
  steps: number
  found: Found[]
  readonly seen: Set<string>
}

async function oracleFor(
  spec: FullContract,
  config: Partial<ServerConfig>,
  start: number,
): Promise<{ server: RunningServer; clock: SimulatedClock }> {
  const clock = new SimulatedClock(start)
  const server = await startServer({ spec, config: { ...config, log: false }, deps: { clock } })
  return { server, clock }
}

export async function explore(opts: ExploreOptions): Promise<ExploreResult> {
  const spec = contractFor(opts.spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'oec check server --explore')
  const t0 = performance.now()
  const startedAt = new Date()
  const seed = opts.seed ?? 1
  const perps = spec.typedData.domains.perps
  const embedded = opts.target === undefined
  const symbols = opts.symbols ?? []
  const config: Partial<ServerConfig> = {
    ...(symbols.length ? { instruments: [...symbols] } : {}),
    ...(opts.domainName ? { domainName: opts.domainName } : {}),
    ...(opts.chainId !== undefined ? { chainId: opts.chainId } : {}),
    ...(opts.perpChainId !== undefined ? { perpChainId: opts.perpChainId } : {}),
    ...(opts.isMainnet !== undefined ? { isMainnet: opts.isMainnet } : {}),
  }
  const workers = Math.max(1, opts.workers ?? 4)
  // Shards share a live target; with the caller's clock they would also share its time, so one shard then.
  const shards = opts.replay || opts.clock ? 1 : embedded ? EMBEDDED_SHARDS : workers
  const counters: Counters = { sequences: 0, steps: 0, found: [], seen: new Set() }
  const walletKey = walletDeriver(seed, embedded ? undefined : runSalt())
  const deadline = 'ms' in opts.budget ? Date.now() + opts.budget.ms : undefined
  const maxFound = opts.maxFound ?? 30
  const defaultTier = spec.rateLimits.tiers[spec.rateLimits.defaultTier]!

  if (!embedded) {
    const http = new HttpClient(opts.target!, opts.timeoutMs ?? 10_000)
    try {
      const unreachable = await probe(http, '/')
      if (unreachable) throw new UnreachableError(`cannot reach ${opts.target}: ${unreachable}`)
    } finally {
      http.close()
    }
  }

  const progress = () =>
    opts.onProgress?.({
      sequences: counters.sequences,
      steps: counters.steps,
      divergences: counters.found.length,
      elapsedMs: performance.now() - t0,
    })

  const runShard = async (shard: number): Promise<Found[]> => {
    const found: Found[] = []
    const oracle = await oracleFor(spec, config, EMBEDDED_EPOCH)
    const own = embedded ? await oracleFor(spec, config, EMBEDDED_EPOCH) : undefined
    const targetUrl = own ? own.server.url : opts.target!
    const target = new HttpClient(targetUrl, opts.timeoutMs ?? 10_000)
    const oracleHttp = new HttpClient(oracle.server.url, opts.timeoutMs ?? 10_000)
    const targetClock = own?.clock ?? opts.clock
    const listed = symbols.length ? symbols : oracle.server.config.instruments
    const pair: Pair = {
      spec,
      target,
      oracle: oracleHttp,
      domainName: oracle.server.config.domainName,
      chainId: oracle.server.config.chainId,
      perpChainId: oracle.server.config.perpChainId ?? perps?.chainId ?? 1337,
      isMainnet: oracle.server.config.isMainnet ?? true,
      symbols: listed,
      missingSymbol: opts.missingSymbol ?? missingSymbolFor(listed),
      openCap: defaultTier.maxOpenOrders,
      ...(targetClock
        ? {
            advance: (ms: number) => {
              targetClock.advance(ms)
              oracle.clock.advance(ms)
            },
          }
        : {}),
    }
    let run = 0
    const newSession = () => new Session(pair, (label) => walletKey(`explore/${shard}/${run}/${label}`))
    try {
      if (opts.replay) {
        for (const saved of opts.replay) {
          run++
          const session = newSession()
          let hit: Divergence | undefined
          for (const step of saved.steps) {
            counters.steps++
            const v = await session.run(step)
            if (v === 'rolled') break
            if (v.length) {
              hit = v[0]
              break
            }
          }
          counters.sequences++
          if (hit) found.push({ divergence: hit, steps: [...session.steps], trace: session.trace })
          else
            found.push({ divergence: { rule: saved.rule as Divergence['rule'], level: 'stated', what: '' }, steps: saved.steps, trace: [] })
        }
        return found
      }
      const total =
        'sequences' in opts.budget
          ? Math.floor(opts.budget.sequences / shards) + (shard < opts.budget.sequences % shards ? 1 : 0)
          : Number.POSITIVE_INFINITY
      let left = total
      const arb = stepArbitrary({ listed: listed.length, canWait: targetClock !== undefined })
      for (let attempt = 0; left > 0 && counters.found.length < maxFound; attempt++) {
        const msLeft = deadline === undefined ? undefined : deadline - Date.now()
        if (msLeft !== undefined && msLeft <= 0) break
        let last: Found | undefined
        const command = (step: Step): fc.AsyncCommand<Model, object> => ({
          check: (m) => !m.stopped,
          async run(m) {
            counters.steps++
            const v = await m.session.run(step)
            if (v === 'rolled') {
              m.stopped = true
              return
            }
            const fresh = v.filter((d) => !counters.seen.has(keyOf(d, step)))
            if (fresh.length) {
              m.stopped = true
              last = { divergence: fresh[0]!, steps: [...m.session.steps], trace: [...m.session.trace] }
              throw new StopSequence(fresh[0]!.what)
            }
            // Only divergences already reported: the rest of the sequence is not comparable.
            if (v.length) m.stopped = true
          },
          toString: () => describeStep(step),
        })
        const details = await fc.check(
          fc.asyncProperty(fc.commands([arb.map(command)], { maxCommands: opts.maxSteps ?? 10 }), async (cmds) => {
            run++
            counters.sequences++
            if (counters.sequences % 25 === 0) progress()
            const model: Model = { session: newSession(), stopped: false }
            try {
              await fc.asyncModelRun(() => ({ model, real: {} }), cmds)
            } finally {
              if (model.stopped) await model.session.cleanup()
            }
          }),
          {
            seed: shardSeed(seed, shard, attempt),
            numRuns: Number.isFinite(left) ? left : 2 ** 31 - 1,
            ...(msLeft !== undefined ? { interruptAfterTimeLimit: msLeft, markInterruptAsFailure: false } : {}),
          },
        )
        if (!details.failed || !last) break
        const f: Found = last
        counters.seen.add(keyOf(f.divergence, f.steps.at(-1)!))
        found.push(f)
        counters.found.push(f)
        progress()
        left -= details.numRuns
      }
      return found
    } finally {
      target.close()
      oracleHttp.close()
      await Promise.all([oracle.server.close(), own?.server.close()])
    }
  }

  const perShard: Found[][] = new Array(shards)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(workers, shards) }, async () => {
      while (next < shards) {
        const i = next++
        perShard[i] = await runShard(i)
      }
    }),
  )
  progress()
  // One case per id, in shard order: the same run gives the same report.
  const byId = new Map<string, Found>()
  for (const f of perShard.flat()) if (!byId.has(foundId(f))) byId.set(foundId(f), f)
  const found = [...byId.values()]
  const results: CaseResult[] = opts.replay
    ? opts.replay.map((saved, i) => replayCase(saved, perShard[0]![i]!))
    : [
        {
          id: 'explore',
          title: `explored ${counters.sequences} sequences (${counters.steps} steps) against the reference server`,
          rules: [],
          level: 'stated',
          outcome: 'pass',
          message: `${found.length} divergence(s); seed ${seed}`,
          durationMs: 0,
        },
        ...found.map(foundCase),
      ]
  const summary: RunSummary = {
    suite: 'oec check server --explore',
    target: embedded ? 'embedded reference server' : opts.target!,
    results,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
  }
  return { summary, found, sequences: counters.sequences, steps: counters.steps }
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
