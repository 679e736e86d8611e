/**
 * `oec check client [options] -- <command...>`: the client conformance runner on the command line.
 */
import { reportOut, wroteLines } from '../report-out.ts'
import { resolve } from 'node:path'
import { InputError } from '../../errors.ts'
import { createReporter, exitCodeFor, REPORTER_NAMES, type ReporterName } from '../../report/index.ts'
import { Option, commaList, intOption, type CommandModule } from '../program.ts'
import { DEFAULT_VECTORS_DIR } from '../../vectors/paths.ts'
import { addContractOptions, contractFromFlags, type ContractFlags } from '../contract-options.ts'
import { shippedContract } from '../../contract/index.ts'
import { loadExpectedFailures, writeExpectedFailures } from '../../check/expected-failures.ts'
import { clientCasesFor, runClientCheck } from '../../check/client/runner.ts'

interface ClientOpts extends ContractFlags {
  http?: boolean
  timeout?: number
  startupTimeout: number
  expectedFailures?: string
  fix?: boolean
  only?: string
  skip?: string
  reporter: ReporterName
  out?: string
  vectors?: string
  preflight: boolean
}

export const checkClientCommand: CommandModule = {
  register(check, io, done) {
    addContractOptions(check.command('client'))
      .description(
        'check a client: replay the vectors to its signer/verifier over the `oec sign --jsonl` protocol, or with --http watch how it behaves on the wire',
      )
      .argument('<command...>', 'the testee program and its arguments (after --)')
      .option('--http', 'check how the client behaves over HTTP against scripted answers (docs/testee-protocol.md), not its signer')
      .option(
        '--timeout <ms>',
        'per-request time limit in milliseconds (default 5000; with --http: per task, retries included, default 30000)',
        intOption('--timeout', 1, 600_000),
      )
      .option(
        '--startup-timeout <ms>',
        'extra time for the first answer after the testee starts',
        intOption('--startup-timeout', 0, 600_000),
        20_000,
      )
      .option('--expected-failures <file>', 'known failures: one case id (or prefix) per line, "# reason" optional')
      .option('--fix', 'rewrite the --expected-failures file to list exactly the cases failing now')
      .option('--only <ids>', 'comma-separated case ids or prefixes (e.g. place-order-valid,nonce/3); with --http, scenario ids')
      .option('--skip <ids>', 'comma-separated case ids or prefixes to leave out (an options-only client: --skip perp-agent)')
      .addOption(new Option('--reporter <name>', 'report format').choices([...REPORTER_NAMES]).default('pretty'))
      .option('--out <file>', 'write the report to a file instead of stdout')
      .option('--no-preflight', 'skip the start check (the testee starts and answers a first request before the run)')
      .option('--vectors <dir>', `vector directory (default: ${DEFAULT_VECTORS_DIR}; with --spec, the vectors generated from that spec)`)
      .addHelpText(
        'after',
        `
The testee reads one JSON request per line on stdin and writes one answer per line on stdout,
in request order, echoing "id" (see \`oec sign --jsonl\`). Each case checks the exact digest,
the exact signature, the body text by meaning, and that verify accepts exactly what it should.

With --http the program is a client driver instead: it reads tasks on stdin (place, cancel),
performs them against OEC_BASE_URL with its own signing, nonces and retries, and prints one
answer line per task; the checker scripts the server's answers (429, 503, unknown codes,
REJECTED, slow or dropped answers) and judges the requests it sees.

Examples:
  oec check client -- oec sign --jsonl
  oec check client --http -- python3 my_client.py
  oec check client --reporter junit --out client.xml -- python3 my_signer.py
  oec check client --expected-failures known.txt -- ./my-signer

Exit codes: 0 no failure, 1 a case failed (or a listed expected failure now passes), 2 bad arguments.`,
      )
      .action(async (command: string[], opts: ClientOpts) => {
        if (command.length === 0)
          throw new InputError('check client: give the testee command after --, e.g. oec check client -- oec sign --jsonl')
        if (opts.fix && !opts.expectedFailures) throw new InputError('check client: --fix needs --expected-failures FILE')
        const only = commaList(opts.only)
        const skip = commaList(opts.skip)
        if (opts.vectors !== undefined && (opts.spec !== undefined || opts.service !== undefined))
          throw new InputError('check client: --vectors and --spec/--service exclude each other (a spec gives its own vectors)')
        const spec =
          opts.spec !== undefined || opts.service !== undefined
            ? contractFromFlags(
                opts,
                ['catalog', 'typedData', 'rateLimits', ...(opts.http ? (['websocket'] as const) : [])],
                'oec check client',
              )
            : undefined
        if (opts.http) {
          if (opts.vectors !== undefined)
            throw new InputError('check client: --vectors does not apply to --http (its scenarios are scripted)')
          const { runHttpCommand } = await import('./check-client-http.ts')
          return runHttpCommand(command, { ...opts, only }, spec, io, done)
        }
        const vectorsDir = resolve(opts.vectors ?? DEFAULT_VECTORS_DIR)
        const total = (await clientCasesFor({ vectorsDir, only, skip, spec })).length
        if (total === 0)
          throw new InputError(`check client: no case left to run after --only ${opts.only ?? '(all)'} --skip ${opts.skip ?? '(none)'}`)
        const list = opts.expectedFailures && !opts.fix ? loadExpectedFailures(opts.expectedFailures) : undefined
        const report = reportOut(opts.out, io.stdout)
        const out = report.stream
        // Only the html page shows the spec's version and rule texts; the shipped spec is compiled for it alone.
        const shown = opts.reporter === 'html' ? (spec ?? shippedContract()) : undefined
        const reporter = createReporter(opts.reporter, out, {
          total,
          color: opts.out ? false : undefined,
          html: shown ? { specVersion: shown.version, rules: shown.rules } : undefined,
        })
        const run = await runClientCheck({
          command,
          timeoutMs: opts.timeout ?? 5000,
          startupMs: opts.startupTimeout,
          only,
          skip,
          vectorsDir,
          preflight: opts.preflight,
          spec,
          expectedFailures: list,
          onResult: (r) => reporter.onResult(r),
        })
        reporter.finish(run.summary)
        report.commit()
        if (opts.out) io.stderr.write(wroteLines(run.summary, opts.out))
        if (opts.fix && opts.expectedFailures) {
          writeExpectedFailures(opts.expectedFailures, run.raw)
          const n = run.raw.filter((r) => r.outcome === 'fail').length
          io.stderr.write(`wrote ${opts.expectedFailures}: ${n} failing case(s) listed\n`)
          done(0)
          return
        }
        done(exitCodeFor(run.summary.results))
      })
  },
}
