/**
 * `oec report merge`: the JSON reports of a campaign's parts (`--shard I/N`) joined into the
 * report one whole run would give. Cases are joined by id and put in the whole run's order (the
 * shard and place each part recorded), cut at the run's cap on findings; a case no part placed
 * keeps the first of the shortest sequence. An exploration's summary case is made again from the
 * parts' campaign records. Parts of different seeds, specs, budgets, caps or splits are refused,
 * as is anything not an oec JSON report.
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

type Place = NonNullable<Campaign['found']>[number]

/**
 * The parts' finds as the whole run orders them (shard, then place in the shard), each id once
 * (its first) and at most the run's cap: a part keeps the first finds of its own shards, so
 * together they hold the whole run's first ones, and more when the cap was reached.
 */
function inRunOrder(places: readonly Place[], maxFound = Number.POSITIVE_INFINITY): Place[] {
  const ids = new Set<string>()
  return [...places]
    .sort((a, b) => a.shard - b.shard || a.index - b.index)
    .filter((p) => !ids.has(p.id) && !!ids.add(p.id))
    .slice(0, maxFound)
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
    if (c.maxFound !== first.c.maxFound) throw differs('a cap on findings of', first.c.maxFound, c.maxFound)
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
    ...(first.c.found
      ? {
          found: inRunOrder(
            parts.flatMap(({ c }) => c.found ?? []),
            first.c.maxFound,
          ),
        }
      : {}),
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
  // Each id once: the one its part found first in the whole run's order; a case no part placed
  // (a report edited by hand), the first of the shortest sequences (named checks have none: the first).
  const byId = new Map<string, { c: CaseResult; at: Place | undefined }>()
  for (const { r } of reports)
    for (const c of r.results) {
      const at = r.campaign?.found?.find((p) => p.id === c.id)
      const kept = byId.get(c.id)
      const before =
        at && kept?.at ? at.shard - kept.at.shard || at.index - kept.at.index : sequenceLength(c) - (kept ? sequenceLength(kept.c) : 0)
      if (!kept || before < 0) byId.set(c.id, { c, at })
    }
  const campaign = first.r.campaign ? joinCampaigns(reports.map(({ file, r }) => ({ file, c: r.campaign! }))) : undefined
  let results = [...byId.values()].map(({ c }) => c)
  if (campaign) {
    let found = results.filter((c) => c.id !== 'explore')
    if (campaign.found) {
      // Cut to the whole run's finds (campaign.found, cut at its cap), in its order; the unplaced after them.
      const place = new Map(campaign.found.map((p, k) => [p.id, k]))
      const placed = found.filter((c) => place.has(c.id)).sort((a, b) => place.get(a.id)! - place.get(b.id)!)
      const placedAnywhere = new Set(reports.flatMap(({ r }) => r.campaign?.found ?? []).map((p) => p.id))
      found = [...placed, ...found.filter((c) => !placedAnywhere.has(c.id))]
    }
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
