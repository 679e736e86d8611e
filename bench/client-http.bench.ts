/**
 * `oec check client --http`, whole process, against the two reference clients in examples/:
 * wall and CPU time per run (medians, the clients taking turns within each round), against the
 * budget of 90 s on the 2-core box and the floor the scripts set (the longest scenario's
 * Retry-After and slow-answer time, which no client can go below).
 */
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { scenarios } from '../src/check/client/http/scenarios.ts'
import { median } from './measure.ts'
import { childCpuMs } from './startup.bench.ts'
import type { BenchSection } from './types.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OEC = join(ROOT, 'bin', 'oec.js')
const RUNS = Math.max(1, Number(process.env.OEC_BENCH_RUNS ?? 3) | 1)
const BUDGET_MS = 90_000

const CLIENTS = [
  { name: 'TypeScript (viem, tsx)', command: [process.execPath, '--import', 'tsx', 'examples/typescript/client.ts'] },
  { name: 'Python (/usr/bin/python3)', command: ['/usr/bin/python3', 'examples/python/client.py'] },
]

/** The scripted waiting of the slowest scenario: Retry-After seconds and held-back answers. */
function floorMs(): number {
  return Math.max(
    ...scenarios('X').map((s) =>
      s.tasks
        .flatMap((t) => t.script ?? [])
        .reduce((ms, step) => ms + ('retryAfter' in step ? step.retryAfter * 1000 : step.kind === 'slow' ? step.ms : 0), 0),
    ),
  )
}

function runOnce(command: readonly string[]): { wall: number; cpu: number | undefined } {
  const cpu0 = childCpuMs()
  const t = performance.now()
  const r = spawnSync(process.execPath, [OEC, 'check', 'client', '--http', '--reporter', 'json', '--', ...command], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  })
  const wall = performance.now() - t
  const cpu1 = childCpuMs()
  if (r.status !== 0)
    throw new Error(`bench: check client --http against ${command.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr.split('\n')[0]}`)
  return { wall, cpu: cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export default async function clientHttpBench(): Promise<BenchSection[]> {
  const samples = new Map(CLIENTS.map((c) => [c.name, [] as { wall: number; cpu: number | undefined }[]]))
  for (let i = 0; i < RUNS; i++) for (const c of CLIENTS) samples.get(c.name)!.push(runOnce(c.command))
  const floor = floorMs()
  const rows = CLIENTS.map((c) => {
    const xs = samples.get(c.name)!
    const wall = median(xs.map((x) => x.wall))
    const cpu = xs.every((x) => x.cpu !== undefined) ? median(xs.map((x) => x.cpu!)) : undefined
    return {
      name: c.name,
      value: s(wall),
      ratio: `${(wall / BUDGET_MS).toFixed(2)}× the 90 s budget, ${(wall / floor).toFixed(1)}× the scripted floor${cpu !== undefined ? `, CPU ${s(cpu)}` : ''}`,
    }
  })
  return [
    {
      title: `oec check client --http, whole process, median of ${RUNS} run(s) per client`,
      rows,
      notes: [
        `scripted floor (the slowest scenario's Retry-After and slow-answer time): ${s(floor)}`,
        `load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')} on ${os.cpus().length} CPUs at the end of the run`,
      ],
    },
  ]
}
