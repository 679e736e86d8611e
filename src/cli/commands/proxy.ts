/**
 * `oec proxy`: a transparent reverse proxy in front of a server, for a client team's real client.
 * Violations print live, attributed to the client or the server; `--reporter json|junit --out FILE`
 * writes the session's report when the proxy stops (SIGINT/SIGTERM).
 */
import { reportOut } from '../report-out.ts'
import { HEADER_HELP, headerOption, resolveTarget } from '../target.ts'
import { InputError } from '../../errors.ts'
import { addContractOptions, contractFromFlags, type ContractFlags } from '../contract-options.ts'
import { intOption, runUntilSignal, type CommandModule } from '../program.ts'
import { LAYER_NAMES } from '../../contract/index.ts'
import { targetProfile } from '../../check/target/profile.ts'

interface ProxyFlags extends ContractFlags {
  target?: string
  port: number
  host: string
  reporter?: string
  out?: string
  domainName?: string
  chainId?: number
  header: [string, string][]
}

export const proxyCommand: CommandModule = {
  register(program, io, done) {
    addContractOptions(program.command('proxy'))
      .description(
        "forward a client's traffic to a server unchanged and check every exchange against the contract (schema, signature, nonces, statuses, error codes, rate-limit headers)",
      )
      .option('--target <url>', 'the server to forward to (http:// or https://), or "spec" for the first servers: URL of the spec')
      .option('--header <name:value>', HEADER_HELP, headerOption, [])
      .option('--port <n>', 'TCP port to listen on (0: any free port)', intOption('--port', 0, 65535), 8081)
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .option('--reporter <name>', 'write the session report when the proxy stops: json or junit')
      .option('--out <file>', 'file for --reporter (default stdout)')
      .option('--domain-name <name>', 'the options domain name the target signs (default from the spec)')
      .option('--chain-id <n>', 'the options chain ID the target signs (default from the spec: 999)', intOption('--chain-id', 0))
      .addHelpText(
        'after',
        [
          '',
          'Prints "oec proxy: listening on URL -> TARGET", then one line per violation:',
          '  [client] #3 POST /order SIGFAIL-4,DOM-3 FAIL: chain_id: you signed chainId 1; the service signs 999',
          "Point the client at the proxy's URL; WebSocket upgrades pass through.",
          'Exit codes: 0 stopped with no failure, 1 a stated rule was broken, 2 bad flags or port in use.',
        ].join('\n'),
      )
      .action(async (opts: ProxyFlags) => {
        if (!opts.target) throw new InputError('proxy: --target URL is required (the server to forward to)')
        if (opts.reporter !== undefined && opts.reporter !== 'json' && opts.reporter !== 'junit')
          throw new InputError(`proxy: --reporter is json or junit, not ${JSON.stringify(opts.reporter)}`)
        if (opts.out !== undefined && opts.reporter === undefined) throw new InputError('proxy: --out needs --reporter json|junit')
        const { startProxy, violationLine } = await import('../../proxy/index.ts')
        const { createReporter, exitCodeFor } = await import('../../report/index.ts')
        const spec = contractFromFlags(opts, LAYER_NAMES, 'oec proxy')
        // The same profile the check modes resolve: one reading of the target's flags for every mode.
        const profile = targetProfile(
          {
            target: resolveTarget(opts.target, spec)!,
            header: opts.header,
            domainName: opts.domainName,
            chainId: opts.chainId,
            symbol: [],
          },
          {},
        )
        const target = profile.url!
        // Opened before the proxy starts, so that a path that cannot take the report is refused first.
        const name = opts.reporter === 'json' || opts.reporter === 'junit' ? opts.reporter : undefined
        const report = name ? ({ name, out: reportOut(opts.out, io.stdout) } as const) : undefined
        const proxy = await startProxy({
          target,
          port: opts.port,
          headers: Object.entries(profile.headers),
          host: opts.host,
          spec,
          // An undefined field keeps the contract's (checkDomain skips it).
          domain: { name: profile.domainName, chainId: profile.chainId },
          onViolation: (v) => io.stdout.write(`${violationLine(v)}\n`),
          onError: (m) => io.stderr.write(`oec proxy: ${m}\n`),
        })
        // The signal handlers first: a script may send Ctrl-C the moment it reads the line.
        const stopped = runUntilSignal(async () => {
          await proxy.idle()
          await proxy.close()
        })
        io.stdout.write(`oec proxy: listening on ${proxy.url} -> ${target.replace(/\/$/, '')}\n`)
        const signal = await stopped
        const summary = proxy.summary()
        if (report) {
          createReporter(report.name, report.out.stream).finish(summary)
          report.out.commit()
        }
        io.stderr.write(
          `oec proxy: ${signal}, stopped after ${proxy.exchanges()} exchange(s), ${proxy.violations().length} violation(s)${opts.out ? `; report in ${opts.out}` : ''}\n`,
        )
        done(exitCodeFor(summary.results))
      })
  },
}
