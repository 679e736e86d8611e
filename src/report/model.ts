/**
 * The result model shared by both conformance runners (`oec check client`, `oec check server`)
 * and their reporters. A result names the rules it exercises so that a failure always points
 * back at the contract.
 */
import type { Level } from '../contract/rules.ts'
export type { Level }

/** warn = an assumed rule departed from; xfail = a listed expected failure that still fails. */
export type Outcome = 'pass' | 'fail' | 'warn' | 'skip' | 'xfail'

export interface CaseResult {
  /** Stable case/check id, e.g. 'auth.chain-id-1' or 'place-order-valid/17'. */
  id: string
  title: string
  /** Rule ids from spec/rules.yaml. */
  rules: string[]
  level: Level
  outcome: Outcome
  /** One line: what was expected vs what came back. */
  message?: string
  details?: { request?: string; response?: string; expected?: string; curl?: string; [k: string]: string | undefined }
  durationMs: number
}

export interface RunSummary {
  suite: string
  target: string
  results: CaseResult[]
  startedAt: string
  durationMs: number
  /** An exploration's part of a campaign: what `oec report merge` needs to join the parts. */
  campaign?: Campaign
}

/**
 * What an explored run was (seed, spec, budget, which part of the whole) and what it did, in the
 * JSON report, so that the reports of a campaign's shards can be checked as parts of one run and
 * joined into the report that run would have given.
 */
export interface Campaign {
  seed: number
  /** The spec's version and a digest of its text: parts of one campaign explore one contract. */
  spec: { version: string; digest: string }
  /** The --explore budget as given (`500`, `2m`). */
  budget: string
  /** The 1-based parts of `of` this report holds (a run without --shard: part 1 of 1), and the explorer's shards they ran. */
  part: { parts: number[]; of: number; shards: number[] }
  sequences: number
  steps: number
  /** lengths[n] = explored sequences that ran n steps (for the merged median). */
  lengths: number[]
  /** The cap on findings (the explorer's `maxFound`): the whole run keeps its first ones, and so does the merge. */
  maxFound?: number
  /**
   * Where each reported finding came in the whole run: its shard and its place among that shard's
   * finds. The whole run keeps the first `maxFound` in this order; a part, the first of its own.
   */
  found?: { id: string; shard: number; index: number }[]
}

export const OUTCOMES: readonly Outcome[] = ['pass', 'fail', 'warn', 'skip', 'xfail']

/** Counts per outcome, every outcome present (0 when none). */
export function countOutcomes(results: readonly CaseResult[]): Record<Outcome, number> {
  const counts: Record<Outcome, number> = { pass: 0, fail: 0, warn: 0, skip: 0, xfail: 0 }
  for (const r of results) counts[r.outcome]++
  return counts
}

/** 1 iff any result failed; warnings, skips and expected failures do not fail a run. */
export function exitCodeFor(results: readonly CaseResult[]): 0 | 1 {
  return results.some((r) => r.outcome === 'fail') ? 1 : 0
}
