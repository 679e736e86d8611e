/**
 * Explore throughput: steps per second of `oec check server --explore` against the embedded
 * server (the library call the command makes, compiled from dist/), for a 60 s budget, 1 and 4
 * workers; and the process CPU time per step, the figure a loaded machine does not distort.
 * Target (issue 26): at least 300 steps/s on the 2-core box. `OEC_BENCH_EXPLORE_SECONDS` shortens it.
 */
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { BenchSection } from './types.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const SECONDS = Number(process.env.OEC_BENCH_EXPLORE_SECONDS ?? 60)

export default async function main(): Promise<BenchSection[]> {
  const { explore } = (await import(
    pathToFileURL(`${ROOT}dist/src/check/explore/explore.js`).href
  )) as typeof import('../src/check/explore/explore.ts')
  const rows = []
  const notes: string[] = []
  for (const workers of [1, 4]) {
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const run = await explore({ budget: { ms: SECONDS * 1000 }, seed: 1, workers })
    const wall = (performance.now() - t0) / 1000
    const cpu = process.cpuUsage(cpu0)
    const cpuMsPerStep = (cpu.user + cpu.system) / 1000 / run.steps
    const perSecond = run.steps / wall
    rows.push({
      name: `explore ${SECONDS}s, --workers ${workers}`,
      value: `${Math.round(perSecond)} steps/s`,
      ratio: `${run.sequences} sequences, ${run.steps} steps, ${cpuMsPerStep.toFixed(2)} ms CPU per step (${Math.round(1000 / cpuMsPerStep)} steps per CPU-second)`,
    })
    if (run.found.length) notes.push(`--workers ${workers}: ${run.found.length} divergence(s) on the embedded server (expected none)`)
  }
  notes.push(
    'a step is one drawn operation (a flood of up to 70 orders or a fill to the open-order cap counts once), with its state read-back',
  )
  notes.push('target: 300 steps/s on the 2-core box')
  return [{ title: `Explore against the embedded server (${SECONDS} s budget)`, rows, notes }]
}
