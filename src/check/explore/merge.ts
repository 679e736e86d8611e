/**
 * `oec report merge`: the JSON reports of a campaign's parts (`--shard I/N`) joined into the
 * report one whole run would give. Cases are joined by id, keeping the first of the shortest
 * sequence; an exploration's summary case is made again from the parts' campaign records. Parts
 * of different seeds, specs, budgets or splits are refused, as is anything not an oec JSON report.
 * Pure: texts in, a summary out.
 */
import { InputError } from '../../errors.ts'
import type { Campaign, CaseResult, RunSummary } from '../../report/model.ts'
import { OUTCOMES } from '../../report/model.ts'
import { exploredCase } from './report.ts'

export interface ReportText {
  readonly file: string
  readonly text: string
}

function notReport(file: string, why: string): InputError {
  return new InputError(`${file}: not a JSON report of oec (${why}); write one with --reporter json --out FILE`)
}

const isCase = (r: unknown): r is CaseResult => {
  const c = r as Partial<CaseResult> | null
  return (
    !!c &&
    typeof c.id === 'string' &&
    typeof c.title === 'string' &&
    Array.isArray(c.rules) &&
    OUTCOMES.includes(c.outcome as CaseResult['outcome'])
  )
}

/** One report, checked to be what `--reporter json` writes. */
export function parseReport({ file, text }: ReportText): RunSummary {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (err) {
    throw notReport(file, `not JSON: ${(err as Error).message.split('\n')[0]}`)
  }
  const d = doc as Partial<RunSummary> | null
  if (!d || typeof d !== 'object' || typeof d.suite !== 'string' || typeof d.target !== 'string' || !Array.isArray(d.results))
    throw notReport(file, 'no suite, target and results')
  const bad = d.results.findIndex((r) => !isCase(r))
  if (bad >= 0) throw notReport(file, `results[${bad}] is not a case with an id, a title, rules and an outcome`)
  return {
    suite: d.suite,
    target: d.target,
    results: d.results,
    startedAt: typeof d.startedAt === 'string' ? d.startedAt : new Date(0).toISOString(),
    durationMs: typeof d.durationMs === 'number' ? d.durationMs : 0,
    ...(d.campaign ? { campaign: d.campaign } : {}),
  }
}

/** Steps of an explored case's sequence (its numbered lines); a case with none counts as 0. */
function sequenceLength(r: CaseResult): number {
  return (r.details?.sequence ?? '').split('\n').filter((l) => /^\d+\. /.test(l)).length
}

/** The parts' campaign records joined, or an error naming the first way they are not parts of one run. */
function joinCampaigns(parts: readonly { file: string; c: Campaign }[]): Campaign {
  const first = parts[0]!
  const seen = new Map<number, string>()
  for (const { file, c } of parts) {
    const differs = (what: string, a: unknown, b: unknown) =>
      new InputError(`${file}: ${what} ${String(b)}, but ${first.file} has ${String(a)}: parts of one campaign share it`)
    if (c.seed !== first.c.seed) throw differs('seed', first.c.seed, c.seed)
    if (c.spec.digest !== first.c.spec.digest) throw differs('spec', first.c.spec.digest, c.spec.digest)
    if (c.budget !== first.c.budget) throw differs('--explore budget', first.c.budget, c.budget)
    if (c.part.of !== first.c.part.of) throw differs('--shard split into', first.c.part.of, c.part.of)
    for (const p of c.part.parts) {
      if (seen.has(p)) throw new InputError(`${file}: part ${p}/${c.part.of} is also in ${seen.get(p)}: give each part once`)
      seen.set(p, file)
    }
  }
  const lengths: number[] = []
  for (const { c } of parts) for (const [n, k] of c.lengths.entries()) lengths[n] = (lengths[n] ?? 0) + (k ?? 0)
  for (let n = 0; n < lengths.length; n++) lengths[n] ??= 0
  return {
    ...first.c,
    part: {
      parts: [...seen.keys()].sort((a, b) => a - b),
      of: first.c.part.of,
      shards: parts.flatMap(({ c }) => c.part.shards).sort((a, b) => a - b),
    },
    sequences: parts.reduce((n, { c }) => n + c.sequences, 0),
    steps: parts.reduce((n, { c }) => n + c.steps, 0),
    lengths,
  }
}

export function mergeReports(texts: readonly ReportText[]): RunSummary {
  if (!texts.length) throw new InputError('oec report merge needs at least one JSON report')
  const reports = texts.map((t) => ({ file: t.file, r: parseReport(t) }))
  const first = reports[0]!
  for (const { file, r } of reports) {
    if (r.suite !== first.r.suite)
      throw new InputError(`${file}: a report of "${r.suite}", but ${first.file} is of "${first.r.suite}": merge reports of one suite`)
    if (!r.campaign !== !first.r.campaign)
      throw new InputError(`${file} and ${first.file}: one is a part of an --explore campaign and the other is not`)
  }
  // Each id once: the first of the shortest sequences (named checks have none: the first).
  const byId = new Map<string, CaseResult>()
  for (const { r } of reports)
    for (const c of r.results) {
      const kept = byId.get(c.id)
      if (!kept || sequenceLength(c) < sequenceLength(kept)) byId.set(c.id, c)
    }
  const campaign = first.r.campaign ? joinCampaigns(reports.map(({ file, r }) => ({ file, c: r.campaign! }))) : undefined
  let results = [...byId.values()]
  if (campaign) {
    const found = results.filter((c) => c.id !== 'explore')
    results = [exploredCase(campaign, found.length).result, ...found]
  }
  const targets = [...new Set(reports.map(({ r }) => r.target))]
  return {
    suite: first.r.suite,
    target: targets.join(', '),
    results,
    startedAt: reports.map(({ r }) => r.startedAt).sort()[0]!,
    // The parts ran side by side: the run took as long as its longest part.
    durationMs: Math.max(...reports.map(({ r }) => r.durationMs)),
    ...(campaign ? { campaign } : {}),
  }
}
