/**
 * `oec generate` beside openapi-typescript on the same spec (spec/openapi.yaml): in process
 * (spec read + emit, warm median and the cold first run) and as a CLI process (end to end).
 * openapi-typescript emits types.ts only; oec also emits errors, typed data and limits.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { BenchSection } from './types.ts'
import { median } from './measure.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const SPEC = join(ROOT, 'spec/openapi.yaml')
const OEC = join(ROOT, 'bin/oec.js')
const OTS_CLI = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js')

const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`)

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now()
  await fn()
  return performance.now() - t
}

function timeProcess(args: string[]): number {
  const t = performance.now()
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' })
  const elapsed = performance.now() - t
  if (r.status !== 0) throw new Error(`bench: ${args.join(' ')} exited ${r.status}: ${r.stderr.split('\n')[0]}`)
  return elapsed
}

export default async function generateBench(): Promise<BenchSection[]> {
  const tmp = mkdtempSync(join(os.tmpdir(), 'oec-gen-bench-'))
  try {
    const runs = 7
    // In process. The first call of each includes its lazy module imports (oec: the emitters;
    // openapi-typescript: the TypeScript compiler and @redocly).
    const { generateFiles } = await import('../src/generate/index.ts')
    const ots = await import('openapi-typescript')
    const oecOnce = () => generateFiles({ spec: SPEC })
    const otsOnce = async () => ots.astToString(await ots.default(pathToFileURL(SPEC)))
    const oecCold = await timeAsync(oecOnce)
    const otsCold = await timeAsync(otsOnce)
    const oecWarm: number[] = []
    const otsWarm: number[] = []
    for (let i = 0; i < runs; i++) {
      oecWarm.push(await timeAsync(oecOnce))
      otsWarm.push(await timeAsync(otsOnce))
    }

    // As CLI processes, end to end (node start, module loading, spec read, emit, write).
    const cliRuns = 5
    const oecCli: number[] = []
    const otsCli: number[] = []
    const help: number[] = []
    const alone: number[] = []
    // The same work in a fresh process that loads only the generate module: what the command
    // costs once the CLI stops loading every command module at start-up.
    const aloneScript = `const g = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src/generate/index.ts')).href)}); g.writeGenerated(${JSON.stringify(join(tmp, 'alone'))}, await g.generateFiles());`
    for (let i = 0; i < cliRuns; i++) {
      oecCli.push(timeProcess([OEC, 'generate', '--out', join(tmp, 'oec')]))
      alone.push(timeProcess(['--import', 'tsx', '--input-type=module', '-e', aloneScript]))
      otsCli.push(timeProcess([OTS_CLI, SPEC, '-o', join(tmp, 'ots', 'schema.ts')]))
      help.push(timeProcess([OEC, 'generate', '--help']))
    }
    const oecCheck = median(Array.from({ length: cliRuns }, () => timeProcess([OEC, 'generate', '--out', join(tmp, 'oec'), '--check'])))

    const ratio = (a: number, b: number) => `${(b / a).toFixed(2)}× openapi-typescript speed (${(a / b).toFixed(2)}× its time)`
    const cliMedian = median(oecCli)
    return [
      {
        title: 'generate: in process (read spec + emit all files)',
        rows: [
          { name: 'oec generate (every file), warm median', value: ms(median(oecWarm)), ratio: ratio(median(oecWarm), median(otsWarm)) },
          { name: 'openapi-typescript openapiTS + astToString, warm median', value: ms(median(otsWarm)) },
          { name: 'oec generate, first call (incl. module imports)', value: ms(oecCold), ratio: ratio(oecCold, otsCold) },
          { name: 'openapi-typescript, first call (incl. imports)', value: ms(otsCold) },
        ],
        notes: [
          `${runs} warm runs each, interleaved`,
          'openapi-typescript emits request/response types only; oec adds errors.ts, typed-data.ts, limits.ts, index.ts',
        ],
      },
      {
        title: 'generate: CLI process, end to end',
        rows: [
          { name: 'oec generate --out DIR', value: ms(cliMedian), ratio: ratio(cliMedian, median(otsCli)) },
          { name: 'openapi-typescript SPEC -o FILE', value: ms(median(otsCli)) },
          { name: `oec generate --check (no drift), median of ${cliRuns}`, value: ms(oecCheck) },
          { name: 'oec generate --help (CLI start-up alone)', value: ms(median(help)) },
          {
            name: 'generate module alone in a fresh node + tsx process',
            value: ms(median(alone)),
            ratio: ratio(median(alone), median(otsCli)),
          },
        ],
        notes: [
          `median of ${cliRuns} runs; target: oec generate under 2 s end to end — ${cliMedian < 2000 ? 'met' : 'MISSED'} (${ms(cliMedian)})`,
          `generate's own share above CLI start-up: ${ms(cliMedian - median(help))}`,
        ],
      },
    ]
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
