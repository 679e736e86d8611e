/**
 * `oec report merge FILE...`: the JSON reports of a campaign's parts (`check server --explore
 * --shard I/N --reporter json`) joined into one report, in any reporter. Reading the files is
 * here; the joining is src/check/explore/merge.ts.
 */
import { readFileSync } from 'node:fs'
import { InputError } from '../../errors.ts'
import { mergeReports } from '../../check/explore/merge.ts'
import { createReporter, exitCodeFor, REPORTER_NAMES, type ReporterName } from '../../report/index.ts'
import { reportOut, wroteLines } from '../report-out.ts'
import { Option, type CommandModule } from '../program.ts'

interface Opts {
  reporter: ReporterName
  out?: string
}

function readReport(file: string): { file: string; text: string } {
  try {
    return { file, text: readFileSync(file, 'utf8') }
  } catch (err) {
    throw new InputError(`cannot read the report ${file} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`)
  }
}

export const reportCommand: CommandModule = {
  register(program, io, done) {
    const report = program.command('report').description('work with the JSON reports the runners write')
    report
      .command('merge')
      .description('join the JSON reports of the parts of a campaign (--explore --shard I/N) into one report')
      .argument('<file...>', 'JSON reports (--reporter json), one per part')
      .addOption(new Option('--reporter <name>', 'output format').choices([...REPORTER_NAMES]).default('pretty'))
      .option('--out <file>', 'write the report to a file instead of stdout')
      .addHelpText(
        'after',
        '\nCases are joined by id, keeping the shortest sequence; parts of different seeds, specs, budgets or splits are refused.\n' +
          'Exit codes: 0 no failure, 1 a failure in the merged report, 2 a file that is not a report or not a part of the same run.',
      )
      .action((files: string[], opts: Opts) => {
        const summary = mergeReports(files.map(readReport))
        const out = reportOut(opts.out, io.stdout)
        const reporter = createReporter(opts.reporter, out.stream, { color: opts.out ? false : undefined })
        for (const r of summary.results) reporter.onResult(r)
        reporter.finish(summary)
        out.commit()
        if (opts.out) io.stderr.write(wroteLines(summary, opts.out))
        const c = summary.campaign
        if (c && c.part.parts.length < c.part.of)
          io.stderr.write(`oec report merge: only part(s) ${c.part.parts.join(', ')} of ${c.part.of}: the report covers those\n`)
        done(exitCodeFor(summary.results))
      })
  },
}
