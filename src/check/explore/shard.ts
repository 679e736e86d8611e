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
import { HttpClient } from '../server/http.ts'
import { missingSymbolFor } from '../server/runner.ts'
import { walletDeriver } from '../server/wallets.ts'
import type { Divergence } from './compare.ts'
import { InProcessClient } from './in-process.ts'
import type { Found } from './report.ts'
import { Session, type Pair } from './session.ts'
import { describeStep, stepArbitrary, type Step } from './steps.ts'

/** The embedded servers' clocks start here: a fixed time, so that the report is the same run after run. */
const EMBEDDED_EPOCH = Date.UTC(2026, 0, 5, 12, 0, 0)

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
  readonly symbols: readonly string[]
  readonly missingSymbol?: string
  readonly timeoutMs: number
  readonly maxSteps: number
  readonly maxFound: number
  /** Mixed into wallet keys against a live target, so that runs never share a wallet. */
  readonly salt?: string
  /** This shard's share of a sequence budget; absent: run until `deadline`. */
  readonly sequences?: number
  /** `Date.now()` time at which to stop drawing sequences. */
  readonly deadline?: number
}

export interface ShardHooks {
  /** The shard's running totals, after each sequence. */
  readonly onCount?: (sequences: number, steps: number) => void
  readonly onFound?: (f: Found) => void
  /** The target's clock when the caller controls it (tests): `wait` steps move it. Not with threads. */
  readonly clock?: SimulatedClock
  /** Saved sequences to run once each instead of exploring. */
  readonly replay?: readonly SavedSequence[]
}

export interface ShardResult {
  readonly found: readonly Found[]
  readonly sequences: number
  readonly steps: number
}

class StopSequence extends Error {}

interface Model {
  readonly session: Session
  stopped: boolean
}

/** A shard's fast-check seed for its n-th run. */
function shardSeed(seed: number, shard: number, attempt: number): number {
  return createHash('sha256').update(`${seed}:${shard}:${attempt}`).digest().readInt32BE(0)
}

/** What makes two divergences the same finding: the rule, and the kind of step that showed it. */
export const findingKey = (d: Divergence, s: Step) => `${d.rule}|${s.op === 'burst' ? `burst:${s.step.op}` : s.op}`

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
  const seen = new Set<string>()
  let sequences = 0
  let steps = 0
  const count = () => hooks.onCount?.(sequences, steps)
  const perps = spec.typedData.domains.perps
  const oracle = await referenceServer(spec, plan.config)
  const own = plan.target === undefined ? await referenceServer(spec, plan.config) : undefined
  const target = new HttpClient(own ? own.server.url : plan.target!, plan.timeoutMs)
  const targetClock = own?.clock ?? hooks.clock
  const listed = plan.symbols.length ? plan.symbols : oracle.server.config.instruments
  const pair: Pair = {
    spec,
    target,
    oracle: new InProcessClient(oracle.server),
    domainName: oracle.server.config.domainName,
    chainId: oracle.server.config.chainId,
    perpChainId: oracle.server.config.perpChainId ?? perps?.chainId ?? 1337,
    isMainnet: oracle.server.config.isMainnet ?? true,
    symbols: listed,
    missingSymbol: plan.missingSymbol ?? missingSymbolFor(listed),
    openCap: spec.rateLimits.tiers[spec.rateLimits.defaultTier]!.maxOpenOrders,
    ...(targetClock
      ? {
          advance: (ms: number) => {
            targetClock.advance(ms)
            oracle.clock.advance(ms)
          },
        }
      : {}),
  }
  const walletKey = walletDeriver(plan.seed, plan.salt)
  let run = 0
  const newSession = () => new Session(pair, (label) => walletKey(`explore/${plan.shard}/${run}/${label}`))
  try {
    if (hooks.replay) {
      for (const saved of hooks.replay) {
        run++
        const session = newSession()
        let hit: Divergence | undefined
        for (const step of saved.steps) {
          steps++
          const v = await session.run(step)
          if (v === 'rolled') break
          if (v.length) {
            hit = v[0]
            break
          }
        }
        sequences++
        count()
        if (hit) found.push({ divergence: hit, steps: [...session.steps], trace: session.trace })
        else
          found.push({ divergence: { rule: saved.rule as Divergence['rule'], level: 'stated', what: '' }, steps: saved.steps, trace: [] })
      }
      return { found, sequences, steps }
    }
    let left = plan.sequences ?? Number.POSITIVE_INFINITY
    const arb = stepArbitrary({ listed: listed.length, canWait: targetClock !== undefined })
    for (let attempt = 0; left > 0 && found.length < plan.maxFound; attempt++) {
      const msLeft = plan.deadline === undefined ? undefined : plan.deadline - Date.now()
      if (msLeft !== undefined && msLeft <= 0) break
      let last: Found | undefined
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
        fc.asyncProperty(fc.commands([arb.map(command)], { maxCommands: plan.maxSteps }), async (cmds) => {
          run++
          sequences++
          const model: Model = { session: newSession(), stopped: false }
          try {
            await fc.asyncModelRun(() => ({ model, real: {} }), cmds)
          } finally {
            if (model.stopped) await model.session.cleanup()
            count()
          }
        }),
        {
          seed: shardSeed(plan.seed, plan.shard, attempt),
          numRuns: Number.isFinite(left) ? left : 2 ** 31 - 1,
          ...(msLeft !== undefined ? { interruptAfterTimeLimit: msLeft, markInterruptAsFailure: false } : {}),
        },
      )
      if (!details.failed || !last) break
      const f: Found = last
      seen.add(findingKey(f.divergence, f.steps.at(-1)!))
      found.push(f)
      hooks.onFound?.(f)
      left -= details.numRuns
    }
    return { found, sequences, steps }
  } finally {
    target.close()
    await Promise.all([oracle.server.close(), own?.server.close()])
  }
}
