/**
 * A worker thread running shards: the explorer's CPU work (signing, both servers' signature
 * recovery) then uses every core, not one. A thread costs a module load and a spec compile, so
 * there is one per core, each running its share of the shards, `concurrency` at a time. Messages
 * to the parent, per shard: `count` (running totals), `found`, then `done`; or `error`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { contractFor, loadContractText, type FullContract } from '../../contract/index.ts'
import type { Found } from './report.ts'
import { runShard, type ShardPlan } from './shard.ts'

/** The spec as a thread receives it: nothing (the shipped one) or its text. */
export type ThreadSpec = { readonly text: string; readonly file: string; readonly service: string } | undefined

export interface ThreadInput {
  readonly spec: ThreadSpec
  readonly plans: readonly ShardPlan[]
  readonly concurrency: number
}

export type ThreadMessage =
  | { readonly kind: 'count'; readonly shard: number; readonly sequences: number; readonly steps: number }
  | { readonly kind: 'found'; readonly shard: number; readonly found: Found }
  | {
      readonly kind: 'done'
      readonly shard: number
      readonly sequences: number
      readonly steps: number
      readonly lengths: readonly number[]
      readonly digest: string
    }
  | { readonly kind: 'error'; readonly message: string }

const LAYERS = ['catalog', 'typedData', 'rateLimits', 'websocket'] as const

if (parentPort) {
  const port = parentPort
  const { spec, plans, concurrency } = workerData as ThreadInput
  const post = (m: ThreadMessage) => port.postMessage(m)
  try {
    const contract: FullContract = contractFor(
      spec === undefined ? undefined : loadContractText(spec.text, spec.file, { service: spec.service }),
      LAYERS,
      'oec check server --explore',
    )
    let next = 0
    await Promise.all(
      Array.from({ length: Math.min(concurrency, plans.length) }, async () => {
        while (next < plans.length) {
          const plan = plans[next++]!
          const shard = plan.shard
          const result = await runShard(contract, plan, {
            onCount: (sequences, steps) => post({ kind: 'count', shard, sequences, steps }),
            onFound: (found) => post({ kind: 'found', shard, found }),
          })
          const { found: _found, ...totals } = result
          post({ kind: 'done', shard, ...totals })
        }
      }),
    )
  } catch (err) {
    post({ kind: 'error', message: err instanceof Error ? err.message : String(err) })
  }
}
