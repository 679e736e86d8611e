/**
 * Live conformance run (issue 17): `oec check server --target URL --slow` against the reference
 * server in its own process (`oec serve --port 0`, a real clock), with the default number of
 * workers and with `--workers 1`, each against a fresh server. Target: the default run ≤ 90 s,
 * about one rate-limit window plus the fast checks. The sequential run takes several minutes:
 * OEC_BENCH_SEQUENTIAL=0 leaves it out.
 *
 * The server lists the extra instruments and known-tier wallets the embedded run has, so that
 * cap.positions and cap.unlimited-positions run too (passed as a user would: --config).
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { addressOf } from '../src/signing/index.ts'
import { positionsSetup, unlimitedSetup } from '../src/check/server/runner.ts'
import { shippedContract } from '../src/contract/index.ts'
import { DEFAULT_INSTRUMENTS } from '../src/server/index.ts'
import type { BenchSection } from './types.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OEC = join(ROOT, 'bin', 'oec.js')
const TARGET_MS = 90_000

interface Served {
  readonly url: string
  stop(): Promise<void>
}

/** Starts `oec serve` in its own process; resolves once it prints the URL it listens on. */
function serve(args: readonly string[]): Promise<Served> {
  const child = spawn(process.execPath, [OEC, 'serve', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()))
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (d: Buffer) => {
      out += d.toString()
      const m = /listening on (\S+)/.exec(out)
      if (m)
        resolve({
          url: m[1]!,
          stop: async () => {
            child.kill('SIGTERM')
            await exited
          },
        })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('close', (code) => reject(new Error(`bench: oec serve exited ${code} before listening: ${out.split('\n')[0]}`)))
  })
}

interface Timed {
  readonly wallMs: number
  /** The second of the minute the run started at: the windows are epoch minutes, so the waits depend on it. */
  readonly phase: number
  readonly counts: Record<string, number>
  readonly code: number | null
}

/** One live run against a fresh server: wall time of the whole `oec check server` process. */
async function liveRun(workers: number | undefined, dir: string): Promise<Timed> {
  const spec = shippedContract()
  const positions = positionsSetup(spec, DEFAULT_INSTRUMENTS)
  const unlimited = unlimitedSetup(spec)
  const wallets = [positions.wallet, ...(unlimited ? [unlimited.wallet] : [])]
  const tiers = wallets.flatMap((w) => ['--wallet-tier', `${addressOf(w.privateKey)}=${w.tier}`])
  const server = await serve(['--symbols', positions.instruments.join(','), ...tiers])
  try {
    const config = join(dir, 'runner.json')
    writeFileSync(config, JSON.stringify({ wallets, symbols: positions.instruments }))
    const report = join(dir, `live-${workers ?? 'default'}.json`)
    const args = [OEC, 'check', 'server', '--target', server.url, '--slow', '--config', config, '--reporter', 'json', '--out', report]
    const phase = new Date().getUTCSeconds()
    const t = performance.now()
    const r = spawnSync(process.execPath, [...args, ...(workers ? ['--workers', String(workers)] : [])], { cwd: ROOT, encoding: 'utf8' })
    const wallMs = performance.now() - t
    if (r.status !== 0 && r.status !== 1)
      throw new Error(`bench: oec check server exited ${r.status ?? r.signal}: ${r.stderr.split('\n')[0]}`)
    const counts = (JSON.parse(readFileSync(report, 'utf8')) as { counts: Record<string, number> }).counts
    return { wallMs, phase, counts, code: r.status }
  } finally {
    await server.stop()
  }
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const tally = (t: Timed) =>
  `${Object.entries(t.counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ')}; started at :${String(t.phase).padStart(2, '0')}`

export default async function liveBench(): Promise<BenchSection[]> {
  const dir = mkdtempSync(join(os.tmpdir(), 'oec-live-bench-'))
  try {
    const concurrent = await liveRun(undefined, dir)
    const sequential = process.env.OEC_BENCH_SEQUENTIAL === '0' ? undefined : await liveRun(1, dir)
    const rows = [
      { name: 'check server --target URL --slow (default workers)', value: secs(concurrent.wallMs), ratio: tally(concurrent) },
      ...(sequential
        ? [
            {
              name: 'check server --target URL --slow --workers 1',
              value: secs(sequential.wallMs),
              ratio: `${(sequential.wallMs / concurrent.wallMs).toFixed(1)}× the default; ${tally(sequential)}`,
            },
          ]
        : []),
    ]
    return [
      {
        title: 'Live conformance run: oec check server against `oec serve --port 0` (real clock, own process), whole-process wall time',
        rows,
        notes: [
          `live --slow ≤ ${secs(TARGET_MS)}: ${concurrent.wallMs <= TARGET_MS ? 'met' : 'MISSED'} (${secs(concurrent.wallMs)})`,
          ...(sequential ? [] : ['the --workers 1 run was left out (OEC_BENCH_SEQUENTIAL=0)']),
          'the waits follow the epoch minute: longest (a fresh window, then a whole one) when the rl.* checks begin in the last 15 s of a minute',
          `exit codes: ${concurrent.code}${sequential ? ` / ${sequential.code}` : ''}`,
          `load average ${os
            .loadavg()
            .map((l) => l.toFixed(1))
            .join(' / ')} on ${os.cpus().length} CPUs at the end of the run`,
        ],
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
