/**
 * Start-up budget: whole-process wall time of the compiled `oec` (bin/oec.js → dist/), medians
 * of an odd number of runs, against `node -e 0` measured in the same rounds. The commands take
 * turns within each round, so a burst of load from elsewhere on the machine hits all of them.
 * Budgets (issue 14): `oec --help` ≤ 5× bare node, `oec lint` of the shipped spec ≤ 0.5 s, the
 * embedded `oec check server` ≤ 3 s.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchSection } from './types.ts'
import { median } from './measure.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OEC = join(ROOT, 'bin', 'oec.js')
const RUNS = oddRuns(Number(process.env.OEC_BENCH_RUNS ?? 7))

function oddRuns(n: number): number {
  const whole = Number.isSafeInteger(n) && n > 0 ? n : 7
  return whole % 2 === 1 ? whole : whole + 1
}

interface Subject {
  readonly name: string
  readonly args: readonly string[]
  /** Exit codes that mean the command ran as intended. */
  readonly ok: readonly number[]
}

const SUBJECTS: readonly Subject[] = [
  { name: 'node -e 0', args: ['-e', '0'], ok: [0] },
  { name: 'oec --help', args: [OEC, '--help'], ok: [0] },
  { name: 'oec lint spec/openapi.yaml', args: [OEC, 'lint', 'spec/openapi.yaml'], ok: [0] },
  { name: 'oec check server (embedded)', args: [OEC, 'check', 'server'], ok: [0] },
]

/**
 * CPU time (user + system, ms) of the waited-for children so far, from /proc (Linux; undefined
 * elsewhere). Wall time is the budget; CPU time says how much of it the load of a shared machine took.
 */
export function childCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
    // cutime and cstime, fields 16 and 17 of stat(5), are 14 and 15 once the command name is cut off; ticks of 10 ms.
    return (Number(fields[13]) + Number(fields[14])) * 10
  } catch {
    return undefined
  }
}

interface Sample {
  readonly wall: number
  readonly cpu: number | undefined
}

function run(s: Subject): Sample {
  const cpu0 = childCpuMs()
  const t = performance.now()
  const r = spawnSync(process.execPath, s.args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
  const wall = performance.now() - t
  const cpu1 = childCpuMs()
  if (r.status === null || !s.ok.includes(r.status)) {
    throw new Error(`bench: ${s.name} exited ${r.status ?? r.signal}: ${r.stderr.split('\n')[0]}`)
  }
  return { wall, cpu: cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined }
}

const fmt = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`)

export interface StartupFigures {
  readonly runs: number
  /** Median wall time per subject (ms). */
  readonly medians: ReadonlyMap<string, number>
  /** Median CPU time per subject (ms), where the platform tells. */
  readonly cpu: ReadonlyMap<string, number | undefined>
}

/** Measures every subject RUNS times, round-robin, after one unrecorded warm-up round (disk cache). */
export function measureStartup(runs = RUNS): StartupFigures {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('bench: dist/ is missing: run `npm run build` first')
  for (const s of SUBJECTS) run(s)
  const samples = new Map(SUBJECTS.map((s) => [s.name, [] as Sample[]]))
  for (let i = 0; i < runs; i++) for (const s of SUBJECTS) samples.get(s.name)!.push(run(s))
  const cpuMedian = (xs: readonly Sample[]) => (xs.every((x) => x.cpu !== undefined) ? median(xs.map((x) => x.cpu!)) : undefined)
  return {
    runs,
    medians: new Map([...samples].map(([name, xs]) => [name, median(xs.map((x) => x.wall))])),
    cpu: new Map([...samples].map(([name, xs]) => [name, cpuMedian(xs)])),
  }
}

export default async function startupBench(): Promise<BenchSection[]> {
  const { runs, medians, cpu } = measureStartup()
  const at = (name: string) => medians.get(name)!
  const cpuOf = (name: string) => {
    const c = cpu.get(name)
    return c === undefined ? '' : `, CPU ${fmt(c)}`
  }
  const node = at('node -e 0')
  const help = at('oec --help')
  const lint = at('oec lint spec/openapi.yaml')
  const check = at('oec check server (embedded)')
  const verdict = (met: boolean) => (met ? 'met' : 'MISSED')
  return [
    {
      title: `Start-up: whole-process wall time, median of ${runs} runs (compiled CLI, bin/oec.js)`,
      rows: [
        { name: 'node -e 0', value: fmt(node), ratio: cpuOf('node -e 0').slice(2) },
        { name: 'oec --help', value: fmt(help), ratio: `${(help / node).toFixed(1)}× bare node${cpuOf('oec --help')}` },
        {
          name: 'oec lint spec/openapi.yaml',
          value: fmt(lint),
          ratio: `${(lint / node).toFixed(1)}× bare node${cpuOf('oec lint spec/openapi.yaml')}`,
        },
        {
          name: 'oec check server (embedded)',
          value: fmt(check),
          ratio: `${(check / node).toFixed(1)}× bare node${cpuOf('oec check server (embedded)')}`,
        },
      ],
      notes: [
        `oec --help ≤ 5× bare node: ${verdict(help <= 5 * node)} (${(help / node).toFixed(1)}×)`,
        `oec lint ≤ 0.5 s: ${verdict(lint <= 500)} (${fmt(lint)})`,
        `oec check server ≤ 3 s: ${verdict(check <= 3000)} (${fmt(check)})`,
        `load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')} on ${os.cpus().length} CPUs at the end of the run`,
      ],
    },
  ]
}
