/**
 * Runs the server checks against a target: the embedded reference server (simulated clock,
 * slow checks included, seconds) or a URL. Independent checks run at the same time (up to
 * `workers`), so that their rate-limit window waits overlap; results come out in registry
 * order all the same, each check's once every check before it has ended.
 */
import { addressOf } from '../../signing/index.ts'
import type { CaseResult, RunSummary } from '../../report/model.ts'
import { DEFAULT_INSTRUMENTS, SimulatedClock, startServer, type RunningServer, type ServerConfig } from '../../server/index.ts'
import { contractFor, shippedContract, type Contract, type FullContract } from '../../contract/index.ts'
import type { LoadedFile } from '../../vectors/load.ts'
import type { VectorFile } from '../../vectors/model.ts'
import { InputError } from '../../errors.ts'
import type { OperationId } from '../../contract/generated/types.ts'
import { allChecks } from './registry.ts'
import { runCheck, type RunShared } from './context.ts'
import { HttpClient, probe, UnreachableError, type HttpExchange } from '../target/http.ts'
import { preflight } from './preflight.ts'
import { createRng } from './rng.ts'
import { schedule } from './schedule.ts'
import type { Check, TargetInfo } from './types.ts'
import { VirtualTime } from './virtual-time.ts'
import { NonceBook, randomPrivateKey, runSalt, walletDeriver } from '../target/wallets.ts'
import { missingSymbolFor } from '../target/world.ts'

/**
 * Checks at a time against a live target: enough that every window-waiting check (rl.*, cap.*:
 * six with the shipped contract) runs beside the others from the start, few enough that a small
 * server sees a handful of connections, not a flood.
 */
export const LIVE_WORKERS = 8

/**
 * Checks at a time against the embedded server: it shares this process, so more checks at once
 * only interleave CPU work (signing, both ends of each request); four hides the round trips.
 */
export const EMBEDDED_WORKERS = 4

export interface ServerRunOptions {
  /** Base URL; absent: the embedded reference server. */
  readonly target?: string | undefined
  readonly domainName?: string | undefined
  readonly chainId?: number | undefined
  readonly perpChainId?: number | undefined
  readonly isMainnet?: boolean | undefined
  readonly symbols?: readonly string[] | undefined
  readonly missingSymbol?: string | undefined
  readonly tierWallets?: readonly { privateKey: `0x${string}`; tier: string }[] | undefined
  /** Run the checks that need a window reset (always on when embedded). */
  readonly slow?: boolean
  readonly only?: readonly string[] | undefined
  readonly skip?: readonly string[] | undefined
  readonly seed?: number
  /** How many checks run at a time (≥ 1); default LIVE_WORKERS for a target, EMBEDDED_WORKERS embedded. */
  readonly workers?: number | undefined
  readonly timeoutMs?: number
  /** Headers sent with every request to the target (a gateway's key). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** The contract to check against (a compiled contract or a spec path); default the shipped spec. */
  readonly spec?: Contract | string
  /**
   * The target's clock when the caller controls it (a test that puts a proxy in front of a
   * reference server with a SimulatedClock): waits advance it instead of sleeping.
   */
  readonly clock?: SimulatedClock
  /** Extra settings of the embedded server (tests). */
  readonly embeddedConfig?: Partial<ServerConfig>
  /** Each result in the final (registry) order, as soon as every check before its own has ended. */
  readonly onResult?: (r: CaseResult) => void
  /**
   * Check the setup before any case runs (a live target only): the operations answer, the
   * symbols are listed, one signed order is accepted under the configured domain. A wrong setup
   * is a PreflightError (one line naming the cause and the flag). Default off in the library;
   * the CLI turns it on unless --no-preflight.
   */
  readonly preflight?: boolean
  /**
   * A live target's wait for a rate-limit window to end, before it starts (once per distinct end
   * time, however many checks wait for it): a --slow run says why it is quiet.
   */
  readonly onWait?: (wait: { readonly until: Date; readonly seconds: number }) => void
  /** Called with the number of checks selected, before the first result. */
  readonly onStart?: (info: { checks: number; target: string }) => void
  /**
   * Called after each check's results were reported, with the checks reported so far and in all:
   * the run's known total (a check's number of cases is known only once it ran).
   */
  readonly onProgress?: (p: { readonly done: number; readonly total: number }) => void
}

export interface ServerRunResult {
  readonly summary: RunSummary
  readonly target: TargetInfo
}

/** `entry` selects `id` when equal, a prefix up to a `.`/`/` boundary, or a `*` pattern. */
export function idMatches(id: string, entry: string): boolean {
  if (entry.includes('*'))
    return new RegExp(
      `^${entry
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}`,
    ).test(id)
  return id === entry || id.startsWith(`${entry}.`) || id.startsWith(`${entry}/`) || (/[./-]$/.test(entry) && id.startsWith(entry))
}

/** Whether a case runs: selected by --only (or on the path to a selected sub-case) and not --skip'ped. */
export function selects(id: string, only: readonly string[] | undefined, skip: readonly string[] | undefined): boolean {
  if (skip?.some((s) => idMatches(id, s))) return false
  if (!only?.length) return true
  return only.some(
    (o) =>
      idMatches(id, o) || o.startsWith(`${id}/`) || o.startsWith(`${id}.`) || (o.includes('*') && idMatches(o.replace(/\*.*$/, ''), id)),
  )
}

/** Extra instruments and one known-tier wallet so that `cap.positions` can run on the embedded server. */
export function positionsSetup(
  spec: FullContract,
  base: readonly string[],
  privateKey: `0x${string}` = randomPrivateKey(),
): { instruments: string[]; walletTiers: Record<string, string>; wallet: { privateKey: `0x${string}`; tier: string } } {
  const tiers = Object.values(spec.rateLimits.tiers).filter((t) => t.maxPositions > 0)
  const tier = tiers.reduce((a, b) => (b.maxPositions < a.maxPositions ? b : a), tiers[0]!)
  const instruments = [...base]
  for (let i = 1; instruments.length < tier.maxPositions + 1 + base.length; i++) {
    const s = `OECPOS${i}-20301231-100-C`
    if (!instruments.includes(s)) instruments.push(s)
  }
  return {
    instruments,
    walletTiers: { [addressOf(privateKey).toLowerCase()]: tier.id },
    wallet: { privateKey, tier: tier.id },
  }
}

/** A wallet of a tier without a positions cap (-1), when the spec has one, for cap.unlimited-positions. */
export function unlimitedSetup(
  spec: FullContract,
  privateKey: `0x${string}` = randomPrivateKey(),
): { walletTiers: Record<string, string>; wallet: { privateKey: `0x${string}`; tier: string } } | undefined {
  const tier = Object.values(spec.rateLimits.tiers).find((t) => t.maxPositions === -1)
  if (!tier) return undefined
  return { walletTiers: { [addressOf(privateKey).toLowerCase()]: tier.id }, wallet: { privateKey, tier: tier.id } }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The vectors to replay: the checked-in files for the shipped contract, else the ones the
 * generator makes from the contract under test (its domain, its structs, its fields).
 */
async function vectorsFor(spec: FullContract): Promise<LoadedFile[] | undefined> {
  if (spec.text === shippedContract().text) return undefined
  // Loaded only here: the generators (every family, its fixed parties) cost a run of the shipped contract nothing.
  const { generateVectors } = await import('../../vectors/generate.ts')
  const generated = await generateVectors(spec)
  return [...generated].map(([name, text]) => ({ name, text, file: JSON.parse(text) as VectorFile }))
}

export async function runServerChecks(opts: ServerRunOptions = {}): Promise<ServerRunResult> {
  const spec = contractFor(opts.spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'oec check server')
  if (opts.workers !== undefined && (!Number.isSafeInteger(opts.workers) || opts.workers < 1))
    throw new InputError(`workers must be a whole number ≥ 1, not ${opts.workers}`)
  const startedAt = new Date()
  const t0 = performance.now()
  let server: RunningServer | undefined
  let clock: SimulatedClock | undefined = opts.clock
  let url = opts.target
  const options = spec.typedData.domains.options
  const perps = spec.typedData.domains.perps
  let domainName = opts.domainName ?? options?.name ?? 'Service'
  let chainId = opts.chainId ?? options?.chainId ?? 999
  let perpChainId = opts.perpChainId ?? perps?.chainId ?? 1337
  let isMainnet = opts.isMainnet ?? true
  let symbols = opts.symbols ?? []
  let tierWallets = opts.tierWallets ?? []
  const seed = opts.seed ?? 1
  // A fresh embedded server each run: wallets from the seed alone, so a run is reproducible. Any
  // other target keeps its state per wallet (open orders, positions, windows), so a run there
  // gets wallets of its own.
  const walletKey = walletDeriver(seed, url ? runSalt() : undefined)
  if (!url) {
    clock = new SimulatedClock(Date.now())
    // The positions cap needs cap + 1 instruments and a wallet of a known tier: the embedded
    // server lists extra instruments and puts one runner wallet in the tier with the smallest cap.
    const positions = positionsSetup(spec, opts.symbols?.length ? opts.symbols : DEFAULT_INSTRUMENTS, walletKey('setup/positions'))
    const unlimited = unlimitedSetup(spec, walletKey('setup/unlimited'))
    tierWallets = [...tierWallets, positions.wallet, ...(unlimited ? [unlimited.wallet] : [])]
    server = await startServer({
      spec,
      config: {
        // Spread, not plain keys: the server config fills absent keys from its defaults, an undefined one would not.
        ...(opts.domainName ? { domainName: opts.domainName } : {}),
        ...(opts.chainId !== undefined ? { chainId: opts.chainId } : {}),
        instruments: positions.instruments,
        walletTiers: { ...positions.walletTiers, ...unlimited?.walletTiers },
        ...opts.embeddedConfig,
        log: false,
      },
      deps: { clock },
    })
    url = server.url
    domainName = server.config.domainName
    chainId = server.config.chainId
    perpChainId = server.config.perpChainId ?? perpChainId
    isMainnet = server.config.isMainnet ?? isMainnet
    symbols = server.config.instruments
  }
  if (symbols.length === 0) throw new InputError('no instruments to trade: pass --symbol SYM (one or more) or a config file with "symbols"')
  const http = new HttpClient(url, opts.timeoutMs ?? 10_000, opts.headers)
  const probed: HttpExchange[] = []
  const unlisten = http.onExchange((e) => probed.push(e))
  try {
    // Any answer will do; the health operation when the contract has one, else the root.
    const unreachable = await probe(http, spec.operations.find((o) => o.operationId === ('getHealth' satisfies OperationId))?.path ?? '/')
    unlisten()
    if (unreachable) throw new UnreachableError(`cannot reach ${url}: ${unreachable}`)
    if (opts.preflight && !server)
      await preflight({
        spec,
        http,
        target: { url, domainName, chainId, symbols },
        privateKey: walletKey('preflight'),
        nonce: BigInt(Date.now()) * 1000n,
        timeoutMs: opts.timeoutMs ?? 10_000,
        headers: opts.headers,
      })
    const simulated = clock
    const workers = opts.workers ?? (server ? EMBEDDED_WORKERS : LIVE_WORKERS)
    const virtual = simulated ? new VirtualTime(simulated) : undefined
    let announced: number | undefined
    const target: TargetInfo = {
      url,
      embedded: server !== undefined,
      domainName,
      chainId,
      perpChainId,
      isMainnet,
      symbols,
      missingSymbol: opts.missingSymbol ?? missingSymbolFor(symbols),
      tierWallets,
      now: () => (simulated ? simulated.now() : Date.now()),
      async waitUntil(unixSeconds) {
        if (virtual) return virtual.waitUntil(unixSeconds * 1000)
        // A live target: wait on its own reset time, plus a little for clock skew.
        const ms = unixSeconds * 1000 + 500 - Date.now()
        if (ms > 1000 && unixSeconds !== announced) {
          announced = unixSeconds
          opts.onWait?.({ until: new Date(unixSeconds * 1000 + 500), seconds: Math.round(ms / 1000) })
        }
        if (ms > 0) await sleep(ms)
      },
    }
    const slow = server !== undefined || clock !== undefined || opts.slow === true
    const results: CaseResult[] = []
    const nonces = new NonceBook()
    const vectorFiles = await vectorsFor(spec)
    const checks: Check[] = allChecks({ spec, vectorFiles }).filter((c) => selects(c.id, opts.only, opts.skip))
    if (opts.only?.length && checks.length === 0)
      throw new InputError(`--only ${opts.only.join(',')} selects no check (see oec check server --list)`)
    opts.onStart?.({ checks: checks.length, target: server ? `embedded reference server (${url})` : url })
    // Each check's results and exchanges wait in its own slot: the report, and the history the
    // err.* checks read, are in registry order whatever order the checks end in.
    const buffered: CaseResult[][] = checks.map(() => [])
    const logs: HttpExchange[][] = checks.map(() => [])
    const ended: boolean[] = checks.map(() => false)
    let reported = 0
    const report = () => {
      for (; reported < checks.length && ended[reported]; reported++) {
        for (const r of buffered[reported]!) {
          results.push(r)
          opts.onResult?.(r)
        }
        opts.onProgress?.({ done: reported + 1, total: checks.length })
      }
    }
    const sharedFor = (i: number): RunShared => ({
      target,
      spec,
      http,
      nonces,
      slow,
      rngFor: (label) => createRng(seed, label),
      walletKey: (label) => walletKey(label),
      // A history reader runs alone after every earlier check (schedule.ts): it sees those and its own.
      history: () => [...probed, ...logs.flatMap((log, j) => (ended[j] || j === i ? log : []))],
      selects: (id) => selects(id, opts.only, opts.skip),
      emit: (r) => buffered[i]!.push(r),
      record: (e) => logs[i]!.push(e),
    })
    const run = async (i: number) => {
      const check = checks[i]!
      if (check.slow && !slow) {
        buffered[i]!.push({
          id: check.id,
          title: check.title,
          rules: [...check.rules],
          level: check.level,
          outcome: 'skip',
          message: 'needs a rate-limit window reset: run with --slow',
          durationMs: 0,
        })
      } else await runCheck(sharedFor(i), check)
      ended[i] = true
      report()
    }
    await schedule(checks, workers, run, {
      ...(virtual ? { settle: (n: number) => virtual.settle(n), batch: (start: () => void) => virtual.hold(start) } : {}),
    })
    const summary: RunSummary = {
      suite: 'oec check server',
      target: server ? `embedded reference server (${url})` : url,
      results,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - t0),
    }
    return { summary, target }
  } finally {
    http.close()
    await server?.close()
  }
}
