/**
 * `npm run bench -- diff`: two generated specs of 5,000 operations each (the shipped spec plus
 * generated endpoints; head carries a handful of changes), diffed in-process and through the CLI.
 * Target (issue 16): the two 11 MB YAML files end to end, process start included, in at most
 * 2 s. No peer is measured: oasdiff (the reference tool) is a Go binary that is not installed
 * here; when `oasdiff` is on the PATH its `breaking` run is timed for context.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { diffSpecs, formatDiff, readSpecArg, readSpecPair } from '../src/diff/index.ts'
import { shippedContract } from '../src/contract/load.ts'
import type { BenchSection } from './types.ts'

export const OPERATIONS = 5_000
const TARGET_MS = 2_000

type Doc = Record<string, any>

/** The shipped spec with generated endpoints added until it has `total` operations. */
export function generateSpec(total: number): Doc {
  const doc = structuredClone(shippedContract().doc) as Doc
  const existing = shippedContract().operations.length
  for (let i = 0; doc && i < total - existing; i++) {
    const name = `Gen${i}`
    doc.components.schemas[`${name}Request`] = {
      type: 'object',
      additionalProperties: false,
      required: ['wallet', 'side', 'size', 'nonce'],
      properties: {
        wallet: { $ref: '#/components/schemas/Address' },
        side: { $ref: '#/components/schemas/Side' },
        size: { $ref: '#/components/schemas/Decimal' },
        mode: { type: 'string', enum: ['a', 'b', 'c'] },
        note: { type: 'string', maxLength: 64 },
        nonce: { $ref: '#/components/schemas/Nonce' },
        signature: { $ref: '#/components/schemas/Signature' },
      },
    }
    doc.components.schemas[`${name}Result`] = {
      type: 'object',
      required: ['status', 'id'],
      properties: {
        status: { type: 'string', enum: ['ok', 'rejected'] },
        id: { type: 'string' },
        items: {
          type: 'array',
          items: { type: 'object', required: ['k'], properties: { k: { type: 'integer', minimum: 0 }, v: { type: 'string' } } },
        },
      },
    }
    doc.paths[`/gen/${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        operationId: `gen${i}`,
        'x-rate-limit': { category: 'api' },
        parameters: [{ name: 'dry', in: 'query', required: false, schema: { type: 'boolean' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Request` } } } },
        responses: {
          '200': {
            description: 'ok',
            headers: {
              'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
              'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
              'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
            },
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Result` } } },
          },
          '400': { $ref: '#/components/responses/BadRequest' },
          '429': { $ref: '#/components/responses/RateLimited' },
        },
      },
    }
  }
  return doc
}

/** A handful of release edits spread over the document: the diff must find each of them. */
export function applyChanges(doc: Doc): string[] {
  const n = Object.keys(doc.paths).filter((p) => p.startsWith('/gen/')).length
  const at = (f: number) => Math.floor(n * f)
  delete doc.paths[`/gen/${at(0.1)}/{id}`]
  doc.components.schemas[`Gen${at(0.3)}Request`].required.push('mode')
  doc.components.schemas[`Gen${at(0.5)}Request`].properties.mode.enum = ['a', 'b']
  doc.components.schemas[`Gen${at(0.7)}Result`].properties.id.type = 'integer'
  delete doc.paths[`/gen/${at(0.9)}/{id}`].post.responses['200'].headers['X-RateLimit-Reset']
  doc['x-service-error-codes'] = doc['x-service-error-codes'].filter((e: { code: unknown }) => e.code !== 'nonce_reused')
  doc['x-eip712'].domains.perps.chainId = 999
  doc['x-rate-limits'].tiers.default.ordersPerMinute = 30
  doc.info.version = '2.0.0'
  return [
    'api-path-removed-without-deprecation',
    'request-property-became-required',
    'request-property-enum-value-removed',
    'response-property-type-changed',
    'required-response-header-removed',
    'error-code-removed',
    'eip712-domain-changed',
    'rate-limit-tier-lowered',
  ]
}

/** Wall-clock and CPU time (user + system) of `fn`: CPU time stays meaningful on a busy machine. */
function time<T>(fn: () => T): { value: T; ms: number; cpu: number } {
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const value = fn()
  const c = process.cpuUsage(c0)
  return { value, ms: performance.now() - t0, cpu: (c.user + c.system) / 1000 }
}

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`)

export default async function bench(): Promise<BenchSection[]> {
  const baseDoc = generateSpec(OPERATIONS)
  const headDoc = structuredClone(baseDoc)
  const expected = applyChanges(headDoc)
  const baseText = stringify(baseDoc, { aliasDuplicateObjects: false })
  const headText = stringify(headDoc, { aliasDuplicateObjects: false })
  const dir = mkdtempSync(join(tmpdir(), 'oec-diff-bench-'))
  writeFileSync(join(dir, 'base.yaml'), baseText)
  writeFileSync(join(dir, 'head.yaml'), headText)
  writeFileSync(join(dir, 'base.json'), JSON.stringify(baseDoc))
  writeFileSync(join(dir, 'head.json'), JSON.stringify(headDoc))

  const parse = time(() => [readSpecArg(join(dir, 'base.yaml')).spec, readSpecArg(join(dir, 'head.yaml')).spec] as const)
  const [base, head] = parse.value
  const pair = time(() => readSpecPair(join(dir, 'base.yaml'), join(dir, 'head.yaml')))
  if (JSON.stringify(pair.value[1].spec.doc) !== JSON.stringify(head.doc))
    throw new Error('bench: the parse-once loader read head differently')
  const generated = Object.keys(base.doc.paths as object).length
  if (generated < OPERATIONS / 2) throw new Error(`bench: generated ${generated} paths for ${OPERATIONS} operations`)
  diffSpecs(base, head) // warm-up (JIT), not timed
  const runs = [0, 1, 2].map(() => time(() => diffSpecs(base, head)))
  const best = Math.min(...runs.map((r) => r.ms))
  const bestCpu = Math.min(...runs.map((r) => r.cpu))
  const findings = runs[0]!.value
  const missing = expected.filter((id) => !findings.some((f) => f.id === id))
  if (missing.length) throw new Error(`bench: the diff missed ${missing.join(', ')}`)
  const self = time(() => diffSpecs(base, base))
  if (self.value.length !== 0) throw new Error('bench: a spec diffed against itself gave findings')

  const pipeline = (ext: string) =>
    time(() => {
      const [{ spec: b }, { spec: h }] = readSpecPair(join(dir, `base.${ext}`), join(dir, `head.${ext}`))
      return formatDiff(diffSpecs(b, h), 'json', { base: b, head: h, headPath: `head.${ext}` })
    })
  const inProcess = pipeline('yaml')
  const inProcessJson = pipeline('json')
  if (inProcessJson.value !== inProcess.value.replace(/head\.yaml/g, 'head.json'))
    throw new Error('bench: JSON and YAML specs diff differently')
  const cli = time(() =>
    spawnSync(
      process.execPath,
      [join(import.meta.dirname, '..', 'bin', 'oec.js'), 'diff', join(dir, 'base.yaml'), join(dir, 'head.yaml'), '--format', 'json'],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    ),
  )
  if (cli.value.status !== 1) throw new Error(`bench: oec diff exited ${cli.value.status}: ${cli.value.stderr}`)

  const rows = [
    {
      name: `diffSpecs, ${OPERATIONS.toLocaleString('en-US')} operations (best of 3), wall`,
      value: fmt(best),
      ratio: `${(best / TARGET_MS).toFixed(2)}× of the 2 s target`,
    },
    { name: 'diffSpecs, same, CPU time', value: fmt(bestCpu), ratio: `${(bestCpu / TARGET_MS).toFixed(2)}× of the 2 s target` },
    { name: 'diffSpecs, spec against itself, wall', value: fmt(self.ms) },
    { name: 'read and parse both YAML files, each on its own (js-yaml), wall', value: fmt(parse.ms) },
    { name: 'read and parse both YAML files as a pair (parse-once chunks), wall', value: fmt(pair.ms) },
    {
      name: 'read + parse + diff + format in-process, wall',
      value: fmt(inProcess.ms),
      ratio: `${(inProcess.ms / TARGET_MS).toFixed(2)}× of the 2 s target`,
    },
    {
      name: 'read + parse + diff + format in-process, CPU time',
      value: fmt(inProcess.cpu),
      ratio: `${(inProcess.cpu / TARGET_MS).toFixed(2)}× of the 2 s target`,
    },
    {
      name: 'the same with JSON specs, wall',
      value: fmt(inProcessJson.ms),
      ratio: `${(inProcessJson.ms / TARGET_MS).toFixed(2)}× of the 2 s target`,
    },
    {
      name: 'the same with JSON specs, CPU time',
      value: fmt(inProcessJson.cpu),
      ratio: `${(inProcessJson.cpu / TARGET_MS).toFixed(2)}× of the 2 s target`,
    },
    {
      name: 'oec diff end to end (process start, read, parse, diff, print)',
      value: fmt(cli.ms),
      ratio: `${(cli.ms / TARGET_MS).toFixed(2)}× of the 2 s target`,
    },
  ]
  const notes = [
    `YAML size: ${(baseText.length / 1e6).toFixed(1)} MB per spec, ${baseText.split('\n').length.toLocaleString('en-US')} lines; ${findings.length} findings (${expected.length} planted changes, all found).`,
    `Target (issue 16): two 11 MB YAML specs end to end in at most 2 s — ${cli.ms <= TARGET_MS ? 'met' : 'missed'} (${fmt(cli.ms)} wall, process start included); diffSpecs ${best < TARGET_MS ? 'met' : 'missed'} (wall) / ${bestCpu < TARGET_MS ? 'met' : 'missed'} (CPU); read+parse+diff ${inProcess.ms < TARGET_MS ? 'met' : 'missed'} (wall) / ${inProcess.cpu < TARGET_MS ? 'met' : 'missed'} (CPU).`,
  ]
  const oasdiff = spawnSync('oasdiff', ['--version'], { encoding: 'utf8' })
  if (oasdiff.status === 0) {
    const peer = time(() =>
      spawnSync('oasdiff', ['breaking', join(dir, 'base.yaml'), join(dir, 'head.yaml')], { encoding: 'utf8', maxBuffer: 64 << 20 }),
    )
    rows.push({
      name: `oasdiff breaking (${oasdiff.stdout.trim()})`,
      value: fmt(peer.ms),
      ratio: `oec end to end ${(cli.ms / peer.ms).toFixed(2)}× oasdiff`,
    })
  } else {
    notes.push('Peer: oasdiff is not installed on this machine, so no ratio is printed (install it and re-run for one).')
  }
  notes.push(
    `Machine load while measuring: ${loadavg()[0]!.toFixed(1)} (1-min load average on ${cpus().length} CPUs); figures are wall-clock.`,
  )
  rmSync(dir, { recursive: true, force: true })
  return [{ title: `oec diff: two specs of ${OPERATIONS.toLocaleString('en-US')} operations`, rows, notes }]
}
