import { generateSpec } from './bench/diff.bench.ts'
import { Collector } from './src/diff/collect.ts'
import { diffCatalog } from './src/diff/catalog.ts'
import { diffSigning } from './src/diff/signing.ts'
import { diffOperations } from './src/diff/operations.ts'
import { diffLimits } from './src/diff/limits.ts'
import { diffAssumed } from './src/diff/assumed.ts'
import { specFromSource } from './src/spec/load.ts'
const doc = generateSpec(5000)
const s = specFromSource({ file: 'x', text: '', doc, lineOf: () => 1 })
const h = specFromSource({ file: 'x', text: '', doc: structuredClone(doc), lineOf: () => 1 })
for (let k = 0; k < 2; k++) {
const c = new Collector()
for (const [n, f] of [['catalog', () => diffCatalog(s, h, c)], ['signing', () => diffSigning(s, h, c)], ['ops', () => diffOperations(s, h, c, { today: '2026' })], ['limits', () => diffLimits(s, h, c)], ['assumed', () => diffAssumed(s, h, c)], ['findings', () => c.findings()]] as const) {
  const t = performance.now(); f(); console.log(n, Math.round(performance.now() - t))
}
}
