import { generateSpec } from './bench/diff.bench.ts'
import { diffSpecs } from './src/diff/index.ts'
import { specFromSource } from './src/spec/load.ts'
const doc = generateSpec(5000)
const s = specFromSource({ file: 'x', text: '', doc, lineOf: () => 1 })
const h = specFromSource({ file: 'x', text: '', doc: structuredClone(doc), lineOf: () => 1 })
diffSpecs(s, h)
const { Session } = await import('node:inspector/promises')
const session = new Session(); session.connect()
await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 200 }); await session.post('Profiler.start')
diffSpecs(s, h)
const { profile } = await session.post('Profiler.stop')
const nodes = new Map(profile.nodes.map((n: any) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of profile.nodes as any[]) for (const ch of n.children ?? []) parent.set(ch, n.id)
const incl = new Map<string, number>(); const selfT = new Map<string, number>()
const name = (n: any) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-1)[0]}`
profile.samples!.forEach((id: number, i: number) => {
  const dt = profile.timeDeltas![i]!
  const seen = new Set<string>()
  let cur: number | undefined = id
  selfT.set(name(nodes.get(id)), (selfT.get(name(nodes.get(id))) ?? 0) + dt)
  while (cur !== undefined) { const k = name(nodes.get(cur)); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + dt) } cur = parent.get(cur) }
})
console.log([...incl].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${(v / 1000).toFixed(0)}ms ${k}  (self ${((selfT.get(k) ?? 0) / 1000).toFixed(0)})`).join('\n'))
