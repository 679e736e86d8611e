import { generateSpec } from './bench/diff.bench.ts'
import { diffSpecs } from './src/diff/index.ts'
import { specFromSource } from './src/spec/load.ts'
const doc = generateSpec(5000)
const s = specFromSource({ file: 'x', text: '', doc, lineOf: () => 1 })
const h = specFromSource({ file: 'x', text: '', doc: structuredClone(doc), lineOf: () => 1 })
for (let i = 0; i < 3; i++) {
  const c0 = process.cpuUsage(); const t = performance.now()
  diffSpecs(s, h)
  const c1 = process.cpuUsage(c0)
  console.log('wall', Math.round(performance.now() - t), 'cpu', Math.round((c1.user + c1.system) / 1000))
}
