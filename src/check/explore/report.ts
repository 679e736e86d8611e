/**
 * An explored divergence as a report case: a stable id from its rule and kind of step, the
 * rule and its level, and the sequence as numbered steps with the target's and the reference's
 * answers side by side and a curl line per request sent to the target. Pure.
 */
import type { Campaign, CaseResult } from '../../report/model.ts'
import { curlCommand } from '../target/curl.ts'
import type { HttpExchange } from '../target/http.ts'
import type { Divergence } from './compare.ts'
import { describeStep } from './commands/index.ts'
import type { TraceStep } from './world.ts'
import type { Step } from './steps.ts'

export interface Found {
  readonly divergence: Divergence
  /** The shrunk sequence, as run. */
  readonly steps: readonly Step[]
  readonly trace: readonly TraceStep[]
}

/** What makes two divergences the same finding: the rule, and the kind of step that showed it. */
export function findingKind(s: Step): string {
  return s.op === 'burst' ? `burst-${s.step.op}` : s.op
}

/**
 * `explore/<rule>/<kind of step>`: named by what was found, not by the sequence that found it,
 * so two runs against the same server (other seeds, other shards, other neighbours) report the
 * same ids, and an expected-failures file or a dashboard can follow a finding from run to run.
 */
export function foundId(f: Pick<Found, 'divergence' | 'steps'>): string {
  return `explore/${f.divergence.rule}/${findingKind(f.steps.at(-1)!)}`
}

const MAX_BODY = 300

function answer(e: HttpExchange | undefined): string {
  if (!e) return '-'
  if (!e.response) return `no answer (${e.error ?? 'connection failed'})`
  const body = e.response.body.length > MAX_BODY ? `${e.response.body.slice(0, MAX_BODY)}…` : e.response.body
  return `${e.response.status} ${body}`
}

function request(e: HttpExchange): string {
  const path = new URL(e.request.url).pathname + new URL(e.request.url).search
  return `${e.request.method} ${path}`
}

/** The numbered steps, each request with both answers and its curl line. */
export function sequenceText(trace: readonly TraceStep[]): string {
  const lines: string[] = []
  for (const [i, t] of trace.entries()) {
    lines.push(`${i + 1}. ${describeStep(t.step)}`)
    // A burst shows its first request and how many answers of each kind came back.
    const shown = t.step.op === 'burst' || t.step.op === 'flood' ? t.target.slice(0, 1) : t.target
    for (const [j, e] of shown.entries()) {
      lines.push(`   ${request(e)}`)
      lines.push(`     target:    ${answer(e)}`)
      lines.push(`     reference: ${answer(t.oracle[j])}`)
      lines.push(`     ${curlCommand(e.request)}`)
    }
    if (shown.length < t.target.length) {
      const tally = (xs: readonly HttpExchange[]) => {
        const n = new Map<string, number>()
        for (const e of xs) n.set(String(e.response?.status ?? 'none'), (n.get(String(e.response?.status ?? 'none')) ?? 0) + 1)
        return [...n].map(([s, k]) => `${k}× ${s}`).join(', ')
      }
      lines.push(`   all ${t.target.length} at once: target ${tally(t.target)}; reference ${tally(t.oracle)}`)
    }
  }
  return lines.join('\n')
}

export function foundCase(f: Found): CaseResult {
  const last = f.trace.at(-1)
  const e = last?.target.at(-1)
  return {
    id: foundId(f),
    title: `explored sequence of ${f.steps.length} step(s) diverges from the reference server`,
    rules: [f.divergence.rule],
    level: f.divergence.level,
    outcome: f.divergence.level === 'stated' ? 'fail' : 'warn',
    message: f.divergence.what,
    details: {
      sequence: sequenceText(f.trace),
      ...(e ? { request: request(e), response: answer(e), expected: answer(last?.oracle.at(-1)), curl: curlCommand(e.request) } : {}),
      replay: 'save with --explore-out FILE, rerun with oec check server --replay FILE --target URL',
    },
    durationMs: 0,
  }
}

/**
 * The case that says what an exploration did: its sequences and steps, how many divergences, its
 * seed and the median steps a sequence (from the campaign's length counts, so that the merged
 * report of a campaign's parts says what one whole run would). A part of a campaign says which.
 */
export function exploredCase(c: Campaign, divergences: number): { result: CaseResult; medianSteps: number } {
  const total = c.lengths.reduce((a, b) => a + b, 0)
  let medianSteps = 0
  for (let n = 0, below = 0; n < c.lengths.length; n++) {
    below += c.lengths[n]!
    if (total && below > Math.floor((total - 1) / 2)) {
      medianSteps = n
      break
    }
  }
  const part = c.part.parts.length < c.part.of ? `; part ${c.part.parts.join(', ')} of ${c.part.of}` : ''
  return {
    medianSteps,
    result: {
      id: 'explore',
      title: `explored ${c.sequences} sequences (${c.steps} steps) against the reference server`,
      rules: [],
      level: 'stated',
      outcome: 'pass',
      message: `${divergences} divergence(s); seed ${c.seed}; a median of ${medianSteps} steps a sequence${part}`,
      durationMs: 0,
    },
  }
}
