/**
 * The public corpus (test/fixtures/public-openapi/corpus/) side by side with the peers people
 * compare us with, each as its own process measured by /usr/bin/time (wall time, peak RSS; the
 * lint processes, oec's and Redocly's alike, as the median of three runs):
 * `oec lint` beside Redocly's recommended lint (@redocly/openapi-core), also on the largest
 * document with one planted schema error (whose line is looked up), `oec generate` beside
 * openapi-typescript, and `oec diff` of the largest pair. Targets (issue 30): lint ≤ 0.5×
 * Redocly, generate ≤ 0.5× openapi-typescript, the largest diff ≤ 5 s and ≤ 300 MB.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import type { BenchRow, BenchSection } from './types.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const CORPUS = join(ROOT, 'test/fixtures/public-openapi/corpus')
const OEC = join(ROOT, 'bin/oec.js')
const OTS_CLI = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js')

interface Run {
  readonly seconds: number
  readonly peakMb: number
}

/** One process under /usr/bin/time: its wall time and peak resident memory. */
function measure(args: readonly string[], okCodes: readonly number[] = [0]): Run {
  const out = join(os.tmpdir(), `oec-bench-time-${process.pid}`)
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', '-o', out, process.execPath, ...args], { cwd: ROOT, encoding: 'utf8' })
  if (r.status === null || !okCodes.includes(r.status))
    throw new Error(`bench: ${args.join(' ')} exited ${r.status}: ${r.stderr.split('\n')[0]}`)
  const [seconds, kb] = readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ').map(Number)
  return { seconds: seconds!, peakMb: kb! / 1024 }
}

/**
 * The median of three runs, for the sub-second lint processes: one run on a shared box swings by
 * half its time with the other work, which decides a ratio to a peer measured a moment apart.
 */
function median3(args: readonly string[], okCodes: readonly number[] = [0]): Run {
  const runs = [measure(args, okCodes), measure(args, okCodes), measure(args, okCodes)].sort((a, b) => a.seconds - b.seconds)
  return runs[1]!
}

const fmt = (r: Run) => `${r.seconds.toFixed(2)} s ${r.peakMb.toFixed(0)} MB`
const ratio = (a: Run, b: Run, peer: string) => `${(a.seconds / b.seconds).toFixed(2)}× ${peer}`

export default async function publicSpecsBench(): Promise<BenchSection[]> {
  const tmp = mkdtempSync(join(os.tmpdir(), 'oec-public-bench-'))
  try {
    const names = readdirSync(CORPUS, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
    const files: Record<string, { base: string; head: string }> = {}
    for (const n of names) {
      const side = (s: string) => {
        const path = join(tmp, `${n}.${s}.yaml`)
        writeFileSync(path, gunzipSync(readFileSync(join(CORPUS, n, `${s}.yaml.gz`))))
        return path
      }
      files[n] = { base: side('base'), head: side('head') }
    }
    const redocly = join(tmp, 'redocly-lint.mjs')
    writeFileSync(
      redocly,
      `import { createConfig, lint } from ${JSON.stringify(join(ROOT, 'node_modules/@redocly/openapi-core/lib/index.js'))};\n` +
        `const problems = await lint({ ref: process.argv[2], config: await createConfig({ extends: ['recommended'] }) });\n` +
        `console.log(problems.length);\n`,
    )
    const lintRows: BenchRow[] = []
    const genRows: BenchRow[] = []
    const notes: string[] = []
    let lintWorst = 0
    let genWorst = 0
    for (const n of names) {
      const spec = files[n]!.head
      const oecLint = median3([OEC, 'lint', spec], [0, 1])
      const peerLint = median3([redocly, spec])
      lintWorst = Math.max(lintWorst, oecLint.seconds / peerLint.seconds)
      lintRows.push({ name: `${n} oec lint`, value: fmt(oecLint), ratio: ratio(oecLint, peerLint, 'Redocly') })
      lintRows.push({ name: `${n} Redocly lint`, value: fmt(peerLint) })
      const oecGen = measure([OEC, 'generate', '--spec', spec, '--out', join(tmp, `gen-${n}`)])
      const peerGen = measure([OTS_CLI, spec, '-o', join(tmp, `ots-${n}.ts`)])
      genWorst = Math.max(genWorst, oecGen.seconds / peerGen.seconds)
      genRows.push({ name: `${n} oec generate`, value: fmt(oecGen), ratio: ratio(oecGen, peerGen, 'openapi-typescript') })
      genRows.push({ name: `${n} openapi-typescript`, value: fmt(peerGen) })
    }
    const largest = names.reduce((a, b) => (statSync(files[a]!.head).size >= statSync(files[b]!.head).size ? a : b))
    // One misspelt `type` among the component schemas: a finding asks for its line, which used to
    // cost a second parse of the whole text by the slower YAML library.
    const text = readFileSync(files[largest]!.head, 'utf8')
    const at = text.indexOf('type: string', text.indexOf('\n  schemas:\n', text.indexOf('\ncomponents:')))
    const planted = join(tmp, `${largest}.planted.yaml`)
    writeFileSync(planted, `${text.slice(0, at)}type: strnig${text.slice(at + 'type: string'.length)}`)
    const oecPlanted = median3([OEC, 'lint', planted], [1])
    const peerPlanted = median3([redocly, planted])
    lintWorst = Math.max(lintWorst, oecPlanted.seconds / peerPlanted.seconds)
    lintRows.push({
      name: `${largest} + 1 planted error, oec lint`,
      value: fmt(oecPlanted),
      ratio: ratio(oecPlanted, peerPlanted, 'Redocly'),
    })
    lintRows.push({ name: `${largest} + 1 planted error, Redocly lint`, value: fmt(peerPlanted) })
    const diff = measure([OEC, 'diff', files[largest]!.base, files[largest]!.head, '--format', 'json'], [0, 1])
    notes.push(`lint: worst ratio ${lintWorst.toFixed(2)}× Redocly (target ≤ 0.5×)`)
    notes.push(`generate: worst ratio ${genWorst.toFixed(2)}× openapi-typescript (target ≤ 0.5×)`)
    notes.push(`machine load at the end: ${os.loadavg()[0]!.toFixed(1)} (1-minute average, ${os.cpus().length} cores)`)
    return [
      { title: 'public specs: oec lint vs Redocly (recommended), per corpus head document', rows: lintRows },
      { title: 'public specs: oec generate vs openapi-typescript', rows: genRows, notes },
      {
        title: `public specs: oec diff of the largest pair (${largest})`,
        rows: [{ name: `${largest} base → head`, value: fmt(diff) }],
        notes: [`target ≤ 5 s and ≤ 300 MB: ${diff.seconds <= 5 && diff.peakMb <= 300 ? 'met' : 'missed'} on this run`],
      },
    ]
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
