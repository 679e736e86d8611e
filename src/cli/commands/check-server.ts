/** `oec check server`: the conformance runner for any server implementation. */
import { terminalProgress } from '../terminal-progress.ts'
import { reportOut, wroteLines } from '../report-out.ts'
import { HEADER_HELP, headerOption, resolveTarget, TARGET_HELP } from '../target.ts'
import { InputError } from '../../errors.ts'
import { createReporter, exitCodeFor, REPORTER_NAMES, type ReporterName } from '../../report/index.ts'
import type { RunSummary } from '../../report/model.ts'
import { LAYER_NAMES } from '../../contract/index.ts'
import { addContractOptions, contractFromFlags, type ContractFlags } from '../contract-options.ts'
import { intOption, Option, type CommandModule } from '../program.ts'
import { applyExpectedFailures, loadExpectedFailures, writeExpectedFailures } from '../../check/expected-failures.ts'
import { CATALOG_FORMATS, formatServerCatalog, serverCheckCatalog, type CatalogFormat } from '../../check/server/catalog.ts'
import { loadRunnerConfig } from '../../check/target/config.ts'
import { HttpClient, UnreachableError } from '../../check/target/http.ts'
import { EMBEDDED_WORKERS, LIVE_WORKERS, runServerChecks } from '../../check/server/runner.ts'
import { targetProfile, type TargetProfile } from '../../check/target/profile.ts'
import { listedInstruments } from '../../check/target/world.ts'
import type { FullContract } from '../../contract/index.ts'

interface Opts extends ContractFlags {
  target?: string
  config?: string
  domainName?: string
  chainId?: number
  symbol: string[]
  missingSymbol?: string
  slow?: boolean
  only?: string
  skip?: string
  seed: number
  workers?: number
  reporter: ReporterName
  out?: string
  timeout: number
  expectedFailures?: string
  fix?: boolean
  list?: boolean
  format: CatalogFormat
  explore?: string | true
  exploreOut?: string
  replay?: string
  shard?: string
  shrink?: string
  rateWindow?: number
  sunset?: string
  exploreTime: boolean
  preflight: boolean
  header: [string, string][]
}

const collect = (value: string, previous: string[]) => [...previous, value]
const ids = (s: string | undefined) =>
  s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : undefined

function checkUrl(url: string): string {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new InputError(`--target takes a base URL such as http://127.0.0.1:8080, not "${url}"`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InputError(`--target must be an http(s) URL, not "${url}"`)
  return url.replace(/\/+$/, '')
}

/**
 * The named checks' options that the explorer has no use for: refused in one line rather than
 * accepted and ignored (a run that says PASSED must have done what its flags asked).
 */
function refuseForExplore(opts: Opts): void {
  const mode = opts.replay ? '--replay' : '--explore'
  const named: [string, boolean][] = [
    ['--only', opts.only !== undefined],
    ['--skip', opts.skip !== undefined],
    ['--slow', opts.slow === true],
    ['--expected-failures', opts.expectedFailures !== undefined],
    ['--fix', opts.fix === true],
    ['--no-preflight', opts.preflight === false],
  ]
  const given = named.filter(([, on]) => on).map(([flag]) => flag)
  if (given.length)
    throw new InputError(`${given.join(', ')} select or judge the named checks; ${mode} does not take ${given.length > 1 ? 'them' : 'it'}`)
}

/** The missing `--symbol` error, naming what the target lists when it says. */
async function noSymbolError(spec: FullContract, profile: TargetProfile, timeoutMs: number): Promise<InputError> {
  const http = new HttpClient(profile.url!, timeoutMs, profile.headers)
  let listed: string[] | undefined
  try {
    listed = await listedInstruments(spec, http)
  } finally {
    http.close()
  }
  const shown = listed?.length
    ? ` (it lists ${listed.slice(0, 4).join(', ')}${listed.length > 4 ? `, … ${listed.length} in all` : ''})`
    : ''
  return new InputError(`with --target, name at least one instrument the target lists: --symbol SYM${shown}, or "symbols" in a config`)
}

export const checkServerCommand: CommandModule = {
  register(program, io, done) {
    addContractOptions(program.command('server'))
      .description('check a server against the contract (no --target: the embedded reference server, slow checks included, in seconds)')
      .option('--target <url>', TARGET_HELP)
      .option('--header <name:value>', HEADER_HELP, headerOption, [])
      .option(
        '--config <file>',
        'JSON: {"wallets":[{"privateKey","tier"}], "symbols":[...], "missingSymbol", "domainName", "chainId", "perpChainId", "isMainnet"}',
      )
      .option('--domain-name <name>', 'EIP-712 domain name of the options domain (default Service)')
      .option('--chain-id <n>', 'chain ID of the options domain (default 999)', intOption('--chain-id', 0))
      .option('--symbol <sym>', 'an instrument the target lists (repeatable; the first is perp asset 0)', collect, [])
      .option('--missing-symbol <sym>', 'a well-formed symbol the target does not list')
      .option('--slow', 'also run the checks that wait for a rate-limit window reset (about a minute each on a live target)')
      .option('--only <ids>', 'comma-separated check or case ids (prefixes) to run')
      .option('--skip <ids>', 'comma-separated check or case ids (prefixes) to leave out')
      .option('--seed <n>', 'seed of the mutation engine (same seed, same cases)', intOption('--seed', 0, 2 ** 31), 1)
      .option(
        '--workers <n>',
        `checks run at a time, so that rate-limit window waits overlap (default ${LIVE_WORKERS} with --target, ${EMBEDDED_WORKERS} embedded; the report is in the same order either way)`,
        intOption('--workers', 1, 64),
      )
      .addOption(new Option('--reporter <name>', 'output format').choices([...REPORTER_NAMES]).default('pretty'))
      .option('--out <file>', 'write the report to a file instead of stdout')
      .option('--timeout <ms>', 'per-request timeout', intOption('--timeout', 1, 600_000), 10_000)
      .option('--expected-failures <file>', 'known failures, one case id (prefix) per line; a listed case that passes fails the run')
      .option('--fix', 'with --expected-failures: rewrite the file to list exactly the cases failing now')
      .option(
        '--explore [budget]',
        'random stateful sequences against the target and the reference server (the oracle): a duration (60s, 2m) or a number of sequences; bare: 60s',
      )
      .option('--explore-out <file>', 'with --explore: save the shrunk sequences it finds (JSON), to rerun with --replay')
      .option('--replay <file>', 'rerun the sequences saved by --explore-out, one case each')
      .option(
        '--shrink <budget>',
        'with --explore: shrinking budget of each find, apart from the exploration budget: a duration (30s) or a number of reruns (default 200 reruns, 30 s at most)',
      )
      .option(
        '--shard <I/N>',
        'with --explore: run part I of N of the exploration (same --seed and budget on every machine); join the parts with oec report merge',
      )
      .option(
        '--rate-window <seconds>',
        "with --explore: the target's rate-limit window (default the spec's 60), when it was started with another (oec serve --rate-window)",
        intOption('--rate-window', 1),
      )
      .option(
        '--sunset <date>',
        'with --explore: the date after which route is required (the target enforces it once its time is past; the reference then does too)',
      )
      .option(
        '--no-explore-time',
        "with --explore --target: no time reach (Reset and Retry-After not held against the target's clock, no waits across its windows)",
      )
      .option(
        '--no-preflight',
        'with --target: skip the set-up check (operations answer, symbols listed, one order accepted under the domain)',
      )
      .option('--list', 'print the check catalog (id, level, rules) and exit')
      .addOption(
        new Option('--format <format>', 'with --list: text, or json (for generated docs)').choices([...CATALOG_FORMATS]).default('text'),
      )
      .addHelpText(
        'after',
        '\nLevels: a departure from a stated rule is a failure; from an assumed rule (x-assumed in the spec) a warning.\n' +
          'Every failure shows the request sent, the response, what was expected and a curl command.\n' +
          'Exit codes: 0 no failure, 1 a failure, 2 bad arguments or an unreachable target.',
      )
      .action(async (opts: Opts) => {
        const spec = contractFromFlags(opts, LAYER_NAMES, 'oec check server')
        const target = resolveTarget(opts.target, spec)
        if (opts.list) {
          io.stdout.write(formatServerCatalog(serverCheckCatalog(spec), opts.format))
          return done(0)
        }
        const cfg = opts.config ? loadRunnerConfig(opts.config, Object.keys(spec.rateLimits.tiers)) : {}
        const profile = targetProfile({ ...opts, ...(target ? { target: checkUrl(target) } : {}) }, cfg)
        if (profile.url && !profile.symbols.length) throw await noSymbolError(spec, profile, opts.timeout)
        if (opts.explore === undefined && (opts.shard !== undefined || opts.shrink !== undefined))
          throw new InputError(
            `${opts.shard !== undefined ? '--shard splits' : '--shrink shrinks the finds of'} an --explore run; ${opts.replay ? '--replay does' : 'the named checks do'} not take it`,
          )
        const exploreOnly =
          opts.rateWindow !== undefined
            ? '--rate-window'
            : opts.sunset !== undefined
              ? '--sunset'
              : !opts.exploreTime
                ? '--no-explore-time'
                : undefined
        if (opts.explore === undefined && !opts.replay && exploreOnly)
          throw new InputError(`${exploreOnly} is for an --explore (or --replay) run; the named checks do not take it`)
        if (opts.explore !== undefined || opts.replay || opts.exploreOut) {
          if (opts.exploreOut && opts.explore === undefined) throw new InputError('--explore-out needs --explore')
          refuseForExplore(opts)
          const { runExplore } = await import('./check-explore.ts')
          return done(await runExplore({ ...opts, profile }, spec, io))
        }
        if (opts.fix && !opts.expectedFailures) throw new InputError('--fix needs --expected-failures FILE')
        const expected = opts.expectedFailures && !opts.fix ? loadExpectedFailures(opts.expectedFailures) : undefined
        const report = reportOut(opts.out, io.stdout)
        const out = report.stream
        const reporter = createReporter(opts.reporter, out, {
          color: opts.out ? false : undefined,
          html: { seed: opts.seed, specVersion: spec.version, rules: spec.rules },
        })
        // The pretty report on stdout has its own progress line; any other report gets one on a terminal's stderr.
        const terminal = opts.out || opts.reporter !== 'pretty' ? terminalProgress(io.stderr) : undefined
        let summary: RunSummary
        try {
          const run = await runServerChecks({
            spec,
            target: profile.url || undefined,
            headers: Object.keys(profile.headers).length ? profile.headers : undefined,
            domainName: profile.domainName || undefined,
            chainId: profile.chainId,
            perpChainId: profile.perpChainId,
            isMainnet: profile.isMainnet,
            symbols: profile.symbols.length ? profile.symbols : undefined,
            missingSymbol: profile.missingSymbol || undefined,
            tierWallets: profile.tierWallets.length ? profile.tierWallets : undefined,
            slow: opts.slow === true,
            only: ids(opts.only),
            skip: ids(opts.skip),
            seed: opts.seed,
            workers: opts.workers,
            timeoutMs: opts.timeout,
            preflight: opts.preflight,
            onWait: ({ until, seconds }) => {
              const line = `oec check server: waiting for the rate-limit window until ${until.toTimeString().slice(0, 8)}, ${seconds} s\n`
              if (terminal) terminal.note(line)
              else io.stderr.write(line)
            },
            // Expected-failure bookkeeping rewrites outcomes, so results are reported at the end then.
            onResult: (r) => {
              terminal?.onResult(r)
              if (!expected) reporter.onResult(r)
            },
            onProgress: ({ done, total }) => {
              terminal?.onProgress(done, total, 'checks')
              if (!expected) reporter.onProgress?.(done, total, 'checks')
            },
          })
          summary = run.summary
        } catch (err) {
          if (err instanceof UnreachableError) throw new InputError(err.message)
          throw err
        } finally {
          terminal?.end()
        }
        let results = summary.results
        if (expected) {
          const applied = applyExpectedFailures(results, expected)
          results = applied.results
          for (const r of results) reporter.onResult(r)
        }
        if (opts.fix && opts.expectedFailures) {
          writeExpectedFailures(opts.expectedFailures, results)
          io.stderr.write(
            `oec: rewrote ${opts.expectedFailures} with the ${results.filter((r) => r.outcome === 'fail').length} failing case(s)\n`,
          )
        }
        reporter.finish({ ...summary, results })
        report.commit()
        if (opts.out) io.stderr.write(wroteLines({ ...summary, results }, opts.out))
        done(opts.fix ? 0 : exitCodeFor(results))
      })
  },
}
