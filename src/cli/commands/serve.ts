import { InputError } from '../../errors.ts'
import { refuseHandshakesOnClose } from '../../server/listen-filter.ts'
import { LAYER_NAMES, passedOptionalLine, passedOptionalUntil } from '../../contract/index.ts'
import { addContractOptions, contractFromFlags, type ContractFlags } from '../contract-options.ts'
import { commaList, intOption, renamedOption, runUntilSignal, type CommandModule } from '../program.ts'

interface ServeOptions extends ContractFlags {
  port: number
  host: string
  config?: string
  symbols: string[]
  walletTier: string[]
  routeRequired?: boolean
  domainName?: string
  chainId?: number
  perpChainId?: number
  testnet?: boolean
  log?: boolean
  explain?: boolean
  data?: string
  dataSync?: boolean
  retain?: number
  rateWindow?: number
  maxConnections?: number
  headerTimeout?: number
  requestTimeout?: number
}

const collect = (value: string, previous: string[]) => [...previous, value]

/** `oec serve`: the reference server, until SIGINT or SIGTERM. */
export const serveCommand: CommandModule = {
  register(program, io, done) {
    addContractOptions(program.command('serve'))
      .description('run the reference server: every operation of the spec, signed auth, rate limits, matching, WebSocket /ws')
      .option('--port <n>', 'TCP port (0: any free port)', intOption('--port', 0, 65535), 8080)
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .option(
        '--config <file>',
        'JSON config: symbols, walletTiers, routeRequired, domainName, chainId, tiers, maxBatch, rateWindowSeconds, perpChainId, isMainnet, log',
      )
      .option(
        '--symbols <list>',
        'the instruments to list, comma-separated or repeated (replaces the shipped set; the position is the perp asset index)',
        (value: string, previous: string[]) => [...previous, ...commaList(value)],
        [],
      )
      .addOption(renamedOption('--instruments', '--symbols'))
      .option('--wallet-tier <address=tier>', 'put a wallet in a tier (repeatable), e.g. 0xabc…=tier2', collect, [])
      .option('--route-required', 'refuse orders without route (400 invalid_field)')
      .option('--domain-name <name>', 'EIP-712 domain name of the options domain (default from the spec: Service)')
      .option('--chain-id <n>', 'chain ID of the options domain (default 999)', intOption('--chain-id', 1))
      .option('--perp-chain-id <n>', 'chain ID of the perp domain (default 1337)', intOption('--perp-chain-id', 1))
      .option('--testnet', 'perp Agent source "b" instead of mainnet "a"')
      .option('--log', 'one JSON line per request on stderr')
      .option(
        '--data <dir>',
        'keep the state (nonces, orders, agents, positions, rate windows) in an LMDB database in DIR; without it a restart forgets',
      )
      .option('--data-sync', 'with --data: fsync every commit (survives power loss, not only a crash), slower')
      .option(
        '--retain <n>',
        'finished orders kept for GET /orders (default 10000); older ones are forgotten, in memory and with --data',
        intOption('--retain', 0),
      )
      .option(
        '--rate-window <seconds>',
        "length of a rate-limit window (default the spec's 60): a staging or test target that crosses windows in seconds",
        intOption('--rate-window', 1),
      )
      .option(
        '--max-connections <n>',
        'open connections served normally (default 512); past it: 503, GET /health still served',
        intOption('--max-connections', 1),
      )
      .option(
        '--header-timeout <ms>',
        'a request header section must arrive within this (default 5000), else 408',
        intOption('--header-timeout', 1),
      )
      .option(
        '--request-timeout <ms>',
        'a whole request must arrive within this (default 10000), else 408',
        intOption('--request-timeout', 1),
      )
      .option(
        '--explain',
        'development: add the diagnosis of a refused signature to the refusal body (field "explain"); never on by default',
      )
      .addHelpText(
        'after',
        '\nPrints "oec serve: listening on URL" once ready; stops cleanly on SIGINT/SIGTERM (answers every request received, then closes).\nWithout --data the state lives in memory: a restart forgets it and old signatures replay.\nExit codes: 0 stopped by a signal, 2 bad flag or config, port in use.',
      )
      .action(async (opts: ServeOptions) => {
        // Loaded on use, so other commands do not pay for ajv, ws and the server at start-up.
        const { checkConfig, defaultConfig, loadServerConfig, mergeConfig, startServer } = await import('../../server/index.ts')
        const spec = contractFromFlags(opts, LAYER_NAMES, 'oec serve')
        let config = opts.config ? loadServerConfig(opts.config, spec) : defaultConfig(spec)
        const walletTiers: Record<string, string> = {}
        for (const pair of opts.walletTier) {
          const m = /^(0x[0-9a-fA-F]{40})=(.+)$/.exec(pair)
          if (!m) throw new InputError(`--wallet-tier takes ADDRESS=TIER (0x + 40 hex digits), not "${pair}"`)
          walletTiers[m[1]!] = m[2]!
        }
        const flags: Record<string, unknown> = {
          instruments: opts.symbols.length ? opts.symbols : undefined,
          walletTiers: opts.walletTier.length ? walletTiers : undefined,
          routeRequired: opts.routeRequired,
          domainName: opts.domainName,
          chainId: opts.chainId,
          perpChainId: opts.perpChainId,
          isMainnet: opts.testnet ? false : undefined,
          log: opts.log,
          retain: opts.retain,
          rateWindowSeconds: opts.rateWindow,
          maxConnections: opts.maxConnections,
          headerTimeoutMs: opts.headerTimeout,
          requestTimeoutMs: opts.requestTimeout,
        }
        config = checkConfig(mergeConfig(config, flags, 'flags'), spec, 'flags')
        const explain = opts.explain
          ? (await import('../../explain/server-hook.ts')).refusalExplainer(spec, {
              domain: { name: config.domainName, chainId: config.chainId },
            })
          : undefined
        // Clients keep arriving at a served process: at the signal, refuse them rather than reset them.
        refuseHandshakesOnClose()
        const server = await startServer({
          spec,
          config,
          host: opts.host,
          port: opts.port,
          ...(opts.data ? { data: opts.data, dataSync: opts.dataSync === true } : {}),
          ...(explain ? { deps: { explainRefusal: explain } } : {}),
        })
        // The signal handlers first: a script may send Ctrl-C the moment it reads the line.
        const stopped = runUntilSignal(() => server.close())
        io.stderr.write(
          opts.data
            ? `oec serve: state in ${opts.data} (LMDB): a restart keeps nonces, orders, agents and rate windows\n`
            : `oec serve: state in memory only: a restart forgets it (old signatures replay); --data DIR keeps it\n`,
        )
        io.stdout.write(`oec serve: listening on ${server.url}\n`)
        // A date the contract set has passed: say so once, and what this server does about it.
        for (const p of passedOptionalUntil(spec.doc))
          io.stderr.write(
            `oec serve: note: ${passedOptionalLine(p)}${p.name === 'route' ? ` (this server ${server.config.routeRequired ? 'requires it: --route-required' : 'still accepts it missing; --route-required refuses it'})` : ''}\n`,
          )
        const signal = await stopped
        io.stderr.write(`oec serve: ${signal}, stopped\n`)
        done(0)
      })
  },
}
