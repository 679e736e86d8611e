/**
 * The `--explore` and `--replay` branch of `oec check server`: parses the budget, runs the
 * explorer, reports its cases through the usual reporters, prints progress on stderr and saves
 * the shrunk sequences with `--explore-out`.
 */
import type { FullContract } from '../../contract/index.ts'
import { InputError } from '../../errors.ts'
import { createReporter, exitCodeFor, type ReporterName } from '../../report/index.ts'
import { parseBudget, parseShard, parseShrink } from '../../check/explore/budget.ts'
import { explore, type ExploreProgress } from '../../check/explore/explore.ts'
import { loadSaved, savedFile } from '../../check/explore/saved.ts'
import { UnreachableError } from '../../check/target/http.ts'
import { reportOut } from '../report-out.ts'
import type { CliIO } from '../program.ts'
import type { TargetProfile } from '../../check/target/profile.ts'

export interface ExploreFlags {
  readonly explore?: string | true
  readonly exploreOut?: string
  readonly replay?: string
  readonly shard?: string
  readonly shrink?: string
  /** `--rate-window`: the target's window in seconds. */
  readonly rateWindow?: number
  /** `--sunset DATE`: route required after it. */
  readonly sunset?: string
  /** `--no-explore-time`: false turns the time reach off. */
  readonly exploreTime?: boolean
  /** The target as `check server` resolved it, shared with the named checks. */
  readonly profile: TargetProfile
  readonly seed: number
  readonly workers?: number
  readonly timeout: number
  readonly reporter: ReporterName
  readonly out?: string
}

function progressLine(p: ExploreProgress): string {
  const rate = p.elapsedMs > 0 ? (p.sequences / (p.elapsedMs / 1000)).toFixed(1) : '0'
  return `explore: ${p.sequences} sequences (${rate}/s), ${p.steps} steps, ${p.divergences} divergence(s) so far\n`
}

export async function runExplore(f: ExploreFlags, spec: FullContract, io: CliIO): Promise<0 | 1> {
  if (f.explore !== undefined && f.replay)
    throw new InputError('--explore and --replay do not go together: explore, or replay a saved file')
  if (f.exploreOut && f.replay) throw new InputError('--explore-out saves what --explore finds; a --replay has nothing new to save')
  const budget = parseBudget(f.explore ?? true)
  const part = f.shard !== undefined ? parseShard(f.shard) : undefined
  const shrink = f.shrink !== undefined ? parseShrink(f.shrink) : undefined
  const replay = f.replay ? loadSaved(f.replay) : undefined
  const saved = f.exploreOut ? reportOut(f.exploreOut, io.stdout) : undefined
  const report = reportOut(f.out, io.stdout)
  const reporter = createReporter(f.reporter, report.stream, {
    color: f.out ? false : undefined,
    html: { seed: f.seed, specVersion: spec.version, rules: spec.rules },
  })
  let last = 0
  try {
    const run = await explore({
      spec,
      budget,
      seed: f.seed,
      timeoutMs: f.timeout,
      // The profile holds no empty string (an empty setting is an absent one there).
      target: f.profile.url,
      symbols: f.profile.symbols.length ? f.profile.symbols : undefined,
      headers: f.profile.headers,
      missingSymbol: f.profile.missingSymbol,
      domainName: f.profile.domainName,
      chainId: f.profile.chainId,
      perpChainId: f.profile.perpChainId,
      isMainnet: f.profile.isMainnet,
      tierWallets: f.profile.tierWallets.length ? f.profile.tierWallets : undefined,
      workers: f.workers,
      replay,
      part,
      shrink,
      rateWindow: f.rateWindow,
      time: f.exploreTime === false ? false : undefined,
      sunset: f.sunset,
      onProgress: (p) => {
        // A line every two seconds at most: sequences per second and divergences so far.
        if (p.elapsedMs - last < 2000) return
        last = p.elapsedMs
        io.stderr.write(progressLine(p))
      },
    })
    io.stderr.write(
      progressLine({ sequences: run.sequences, steps: run.steps, divergences: run.found.length, elapsedMs: run.summary.durationMs }),
    )
    for (const r of run.summary.results) reporter.onResult(r)
    reporter.finish(run.summary)
    if (saved) {
      saved.stream.write(`${JSON.stringify(savedFile(f.seed, run.found), null, 2)}\n`)
      saved.commit()
    }
    report.commit()
    return exitCodeFor(run.summary.results)
  } catch (err) {
    if (err instanceof UnreachableError) throw new InputError(err.message)
    throw err
  }
}
