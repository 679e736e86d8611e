/**
 * `npm run bench [-- NAME...]`: runs every bench/*.bench.ts (or those whose file name contains
 * one of NAME) one after the other, so that peers share the machine's state, and prints tables.
 */
import { readdirSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { BenchMain, BenchSection } from './types.ts'

const dir = fileURLToPath(new URL('.', import.meta.url))
const filters = process.argv.slice(2)
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((n) => f.includes(n)))
  .sort()

if (files.length === 0) {
  console.error(`bench: no benchmark matches ${filters.join(', ')}`)
  process.exit(2)
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU'
console.log(`# oec benchmarks — node ${process.version}, ${os.cpus().length} × ${cpu}, ${new Date().toISOString()}\n`)

function print(section: BenchSection): void {
  const width = Math.max(...section.rows.map((r) => r.name.length), 4)
  const vwidth = Math.max(...section.rows.map((r) => r.value.length), 5)
  console.log(`## ${section.title}\n`)
  for (const r of section.rows) console.log(`  ${r.name.padEnd(width)}  ${r.value.padStart(vwidth)}  ${r.ratio ?? ''}`.trimEnd())
  for (const n of section.notes ?? []) console.log(`  - ${n}`)
  console.log('')
}

for (const file of files) {
  const mod = (await import(pathToFileURL(`${dir}/${file}`).href)) as { default: BenchMain }
  for (const section of await mod.default()) print(section)
}
