/**
 * `oec check client --http -- <command...>`: the client-behaviour run of `oec check client`
 * (the scenarios and checks live in src/check/client/http).
 */
import { InputError } from '../../errors.ts'
import { createReporter, exitCodeFor, type ReporterName } from '../../report/index.ts'
import { shippedContract, type Contract } from '../../contract/index.ts'
import { applyExpectedFailures, loadExpectedFailures, writeExpectedFailures } from '../../check/expected-failures.ts'
import { runClientHttpCheck } from '../../check/client/http/runner.ts'
import { checksOf } from '../../check/client/http/plan.ts'
import { scenarios } from '../../check/client/http/scenarios.ts'
import { reportOut } from '../report-out.ts'
import type { CliIO, ExitCode } from '../program.ts'

export interface HttpFlags {
  timeout?: number
  startupTimeout: number
  expectedFailures?: string
  fix?: boolean
  only: string[]
  reporter: ReporterName
  out?: string
}

export async function runHttpCommand(
  command: string[],
  opts: HttpFlags,
  spec: Contract | undefined,
  io: CliIO,
  done: (code: ExitCode) => void,
): Promise<void> {
  // The symbol does not matter here: only the ids and the checks of each scenario are read.
  const all = scenarios('')
  const known: readonly string[] = all.map((s) => s.id)
  const unknown = opts.only.filter((id) => !known.includes(id))
  if (unknown.length > 0) throw new InputError(`check client --http: no scenario ${unknown.join(', ')} (scenarios: ${known.join(', ')})`)
  const list = opts.expectedFailures && !opts.fix ? loadExpectedFailures(opts.expectedFailures) : undefined
  const report = reportOut(opts.out, io.stdout)
  const shown = opts.reporter === 'html' ? (spec ?? shippedContract()) : undefined
  const reporter = createReporter(opts.reporter, report.stream, {
    total: all.filter((s) => opts.only.length === 0 || opts.only.includes(s.id)).reduce((n, s) => n + checksOf(s).length, 0),
    color: opts.out ? false : undefined,
    html: shown ? { specVersion: shown.version, rules: shown.rules } : undefined,
  })
  const summary = await runClientHttpCheck({
    command,
    timeoutMs: opts.timeout,
    startupMs: opts.startupTimeout,
    only: opts.only,
    spec,
    onResult: (r) => reporter.onResult(list ? applyExpectedFailures([r], list).results[0]! : r),
  })
  const applied = list ? applyExpectedFailures(summary.results, list) : { results: summary.results }
  const final = { ...summary, results: applied.results }
  reporter.finish(final)
  report.commit()
  if (opts.fix && opts.expectedFailures) {
    writeExpectedFailures(opts.expectedFailures, summary.results)
    io.stderr.write(
      `wrote ${opts.expectedFailures}: ${summary.results.filter((r) => r.outcome === 'fail').length} failing case(s) listed\n`,
    )
    return done(0)
  }
  done(exitCodeFor(final.results))
}
