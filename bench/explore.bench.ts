/**
 * Explore throughput: steps per second of `oec check server --explore` against the embedded
 * server (the library call the command makes, compiled from dist/), for a 60 s budget, 1 and 4
 * workers; then the same exploration against `oec serve` in a process of its own (a live target:
 * every step crosses loopback HTTP twice, the target's answer and its state read-back); and the
 * process CPU time per step, the figure a loaded machine does not distort.
 * Targets (issues 26, 36): at least 300 steps/s embedded and 150 live on the 2-core box.
 * `OEC_BENCH_EXPLORE_SECONDS` shortens it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { startServerProcess } from './serve-process.ts'
import type { BenchSection } from './types.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const SECONDS = Number(process.env.OEC_BENCH_EXPLORE_SECONDS ?? 60)

export default async function main(): Promise<BenchSection[]> {
  const { explore } = (await import(
    pathToFileURL(`${ROOT}dist/src/check/explore/explore.js`).href
  )) as typeof import('../src/check/explore/explore.ts')
  const rows = []
  const notes: string[] = []
  const dir = mkdtempSync(join(os.tmpdir(), 'oec-bench-explore-'))
  const server = await startServerProcess({ port: 0 }, join(dir, 'child.mjs'))
  try {
    for (const [where, target, workers] of [
      ['embedded', undefined, 1],
      ['embedded', undefined, 4],
      ['oec serve in its own process', server.url, 4],
    ] as const) {
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      const run = await explore({ budget: { ms: SECONDS * 1000 }, seed: 1, workers, ...(target ? { target } : {}) })
      const wall = (performance.now() - t0) / 1000
      const cpu = process.cpuUsage(cpu0)
      const cpuMsPerStep = (cpu.user + cpu.system) / 1000 / run.steps
      rows.push({
        name: `explore ${SECONDS}s, ${where}, --workers ${workers}`,
        value: `${Math.round(run.steps / wall)} steps/s`,
        ratio: `${run.sequences} sequences, ${run.steps} steps, ${cpuMsPerStep.toFixed(2)} ms CPU per step in the explorer (${Math.round(1000 / cpuMsPerStep)} steps per CPU-second)`,
      })
      if (run.found.length) notes.push(`${where}, --workers ${workers}: ${run.found.length} divergence(s) (expected none)`)
    }
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  notes.push(
    'a step is one drawn operation (a flood of up to 70 orders or a fill to the open-order cap counts once), with its state read-back',
  )
  notes.push('targets: 300 steps/s embedded, 150 steps/s against a live server, on a quiet 2-core box')
  return [{ title: `Explore against the embedded server and a live one (${SECONDS} s budget)`, rows, notes }]
}
