/**
 * Trust on a shared, live target: `oec check server --explore` against the reference server in a
 * process of its own, listing more instruments than the run names (in another order), with a
 * noisy neighbour placing, crossing and cancelling orders on the same books for the whole run.
 * Seeds 1-5, 30 s each (`OEC_BENCH_WORLDS_SECONDS` shortens it): failures (target 0), warning
 * ids shared by any two runs (Jaccard, target at least 0.8), the median steps per sequence (target
 * at least 4) and steps per second, beside the same exploration of the embedded server.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { startNeighbour } from '../test/fixtures/noisy-neighbour.ts'
import type { BenchSection } from './types.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OEC = `${ROOT}bin/oec.js`
const SECONDS = Number(process.env.OEC_BENCH_WORLDS_SECONDS ?? 30)
const LISTED = ['BTC-20261225-100000-C', 'BTC-20261225-100000-P', 'ETH-20261225-4000-C', 'ETH-20261225-4000-P', 'SOL-20261225-200-C']
const NAMED = [LISTED[4]!, LISTED[2]!, LISTED[0]!]

interface Run {
  readonly failures: number
  readonly warnings: Set<string>
  readonly median: number
  readonly stepsPerSecond: number
}

function oec(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [OEC, ...args], { cwd: ROOT })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', () => resolve({ stdout, stderr }))
  })
}

async function explore(args: readonly string[], seed: number): Promise<Run> {
  const { stdout, stderr } = await oec([
    'check',
    'server',
    ...args,
    '--explore',
    `${SECONDS}s`,
    '--seed',
    String(seed),
    '--reporter',
    'json',
  ])
  const report = JSON.parse(stdout) as { results: { id: string; outcome: string; message: string }[]; durationMs: number }
  const steps = Number(/(\d+) steps, \d+ divergence/.exec(stderr.trim().split('\n').at(-1) ?? '')?.[1] ?? 0)
  return {
    failures: report.results.filter((r) => r.outcome === 'fail').length,
    warnings: new Set(report.results.filter((r) => r.outcome === 'warn').map((r) => r.id)),
    median: Number(/a median of (\d+) steps/.exec(report.results.find((r) => r.id === 'explore')?.message ?? '')?.[1] ?? 0),
    stepsPerSecond: steps / (report.durationMs / 1000),
  }
}

const jaccard = (a: Set<string>, b: Set<string>) =>
  a.size + b.size === 0 ? 1 : [...a].filter((x) => b.has(x)).length / new Set([...a, ...b]).size

export default async function main(): Promise<BenchSection[]> {
  const server = spawn(process.execPath, [OEC, 'serve', '--port', '0', '--symbols', LISTED.join(',')], { cwd: ROOT })
  const url = await new Promise<string>((resolve) => {
    let out = ''
    server.stdout.on('data', (d) => {
      out += d
      const m = /listening on (\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
  })
  const rows = []
  const runs: Run[] = []
  try {
    const embedded = await explore(
      NAMED.flatMap((s) => ['--symbol', s]),
      1,
    )
    const neighbour = startNeighbour(url, LISTED, { name: 'Service', chainId: 999 })
    try {
      for (const seed of [1, 2, 3, 4, 5]) runs.push(await explore(['--target', url, ...NAMED.flatMap((s) => ['--symbol', s])], seed))
    } finally {
      await neighbour.stop()
    }
    const quiet = await explore(['--target', url, ...NAMED.flatMap((s) => ['--symbol', s])], 1)
    for (const [i, r] of runs.entries())
      rows.push({
        name: `live, neighbour, seed ${i + 1}`,
        value: `${Math.round(r.stepsPerSecond)} steps/s`,
        ratio: `${r.failures} failures, ${r.warnings.size} warnings, median ${r.median} steps a sequence, ${(r.stepsPerSecond / embedded.stepsPerSecond).toFixed(2)}× embedded`,
      })
    rows.push({
      name: 'live, no neighbour, seed 1',
      value: `${Math.round(quiet.stepsPerSecond)} steps/s`,
      ratio: `${quiet.failures} failures, median ${quiet.median} steps, ${(quiet.stepsPerSecond / embedded.stepsPerSecond).toFixed(2)}× embedded`,
    })
    rows.push({
      name: 'embedded, seed 1',
      value: `${Math.round(embedded.stepsPerSecond)} steps/s`,
      ratio: `median ${embedded.median} steps`,
    })
  } finally {
    server.kill('SIGTERM')
  }
  let lowest = 1
  for (let i = 0; i < runs.length; i++)
    for (let j = i + 1; j < runs.length; j++) lowest = Math.min(lowest, jaccard(runs[i]!.warnings, runs[j]!.warnings))
  return [
    {
      title: `Explore on a shared live target (${SECONDS} s a seed)`,
      rows,
      notes: [
        `false failures over seeds 1-5: ${runs.reduce((n, r) => n + r.failures, 0)} (target 0)`,
        `lowest Jaccard of two runs' warning ids: ${lowest.toFixed(2)} (target ≥ 0.8)`,
        'the target lists 5 instruments, the run names 3 of them in another order; the neighbour sends about 20 requests a second',
      ],
    },
  ]
}
