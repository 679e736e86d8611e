/**
 * `oec generate`: write, --check (clean, drift, missing, stale), refusals. The headline cases run
 * the real binary; the rest run the same CLI entry (`main`) in process, because every binary
 * start loads all command modules, which costs seconds on a busy 2-core box.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseDocument } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateFiles, writeGenerated } from '../../src/generate/index.ts'
import { runOec, type RunResult } from '../helpers/cli.ts'
import { runMain as oec } from '../helpers/main.ts'
import { acmeSpec, editedSpec, SPEC, tempDir } from './helpers.ts'

const binary = (args: string[]) => runOec(args, { timeoutMs: 60_000 })
/** What the shipped spec (with its rules.yaml) generates: types and contract, one file a layer, index. */
const SHIPPED_FILES = ['client.ts', 'contract.ts', 'errors.ts', 'index.ts', 'limits.ts', 'rules.ts', 'typed-data.ts', 'types.ts']

const tmp = tempDir('cli')
const out = join(tmp.dir, 'out')
let first: RunResult
let drift: RunResult
let unsupported: RunResult
const badOut = join(tmp.dir, 'bad-out')
const driftOut = join(tmp.dir, 'drift-out')

beforeAll(async () => {
  const edited = editedSpec(tmp.dir, 'edited.yaml', [['          enum: [ACKED, REJECTED]', '          enum: [ACKED, REJECTED, PENDING]']])
  const bad = editedSpec(tmp.dir, 'bad.yaml', [
    ['    Side:\n      type: string\n', '    Side:\n      type: string\n      if: { const: Hold }\n      then: { minLength: 4 }\n'],
  ])
  // Fresh output for the drift check, written in process so the three processes can run at once.
  writeGenerated(driftOut, await generateFiles())
  ;[first, drift, unsupported] = await Promise.all([
    binary(['generate', '--out', out]),
    binary(['generate', '--spec', edited, '--out', driftOut, '--check']),
    binary(['generate', '--spec', bad, '--out', badOut]),
  ])
}, 120_000)
afterAll(() => tmp.cleanup())

describe('oec generate', () => {
  it('writes every file of the shipped spec (the bytes generateFiles gives in process)', async () => {
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toBe(`oec generate: ${out}: ${SHIPPED_FILES.length} written, 0 unchanged\n`)
    const expected = await generateFiles()
    for (const f of expected) expect(readFileSync(join(out, f.name), 'utf8')).toBe(f.text)
    expect(readdirSync(out).sort()).toEqual(SHIPPED_FILES)
  })

  it('--check passes on fresh output (exit 0, nothing written)', async () => {
    const r = await oec(['generate', '--out', out, '--check'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`${SHIPPED_FILES.length} files in .* match the spec`))
  }, 70_000)

  it('--check fails after a spec edit: exit 1 and a unified diff naming the file', () => {
    const r = drift
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`--- ${join(driftOut, 'types.ts')}\ton disk`)
    expect(r.stdout).toContain(`+++ ${join(driftOut, 'types.ts')}\tgenerated from the spec`)
    expect(r.stdout).toMatch(/^- {2}status: 'ACKED' \| 'REJECTED';$/m)
    expect(r.stdout).toMatch(/^\+ {2}status: 'ACKED' \| 'REJECTED' \| 'PENDING';$/m)
    // The spec hash in every header changed too, so every file is named.
    for (const f of ['errors.ts', 'typed-data.ts', 'limits.ts', 'index.ts']) expect(r.stdout).toContain(`+++ ${join(driftOut, f)}`)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(/is out of date \(types\.ts differs, /)
    // Nothing was written by --check.
    expect(readFileSync(join(driftOut, 'types.ts'), 'utf8')).not.toContain('PENDING')
  })

  it('--check names a missing file and a stale generated one; writing restores both and keeps user files', async () => {
    const dir = join(tmp.dir, 'stale')
    mkdirSync(dir)
    for (const f of await generateFiles()) writeFileSync(join(dir, f.name), f.text)
    rmSync(join(dir, 'limits.ts'))
    // A Windows checkout (autocrlf) is not drift.
    writeFileSync(join(dir, 'errors.ts'), readFileSync(join(dir, 'errors.ts'), 'utf8').replace(/\n/g, '\r\n'))
    const header = readFileSync(join(dir, 'types.ts'), 'utf8').split('\n')[0]
    writeFileSync(join(dir, 'old.ts'), `${header}\nexport const gone = 1;\n`)
    writeFileSync(join(dir, 'mine.ts'), 'export const handwritten = 1;\n')
    const r = await oec(['generate', '--out', dir, '--check'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/\(limits\.ts is missing, old\.ts is no longer generated\)/)
    expect(r.stdout).toContain(`+++ ${join(dir, 'limits.ts')}`)
    expect(r.stdout).toContain(`--- ${join(dir, 'old.ts')}`)
    const w = await oec(['generate', '--out', dir])
    expect(w.code, w.stderr).toBe(0)
    expect(w.stdout).toMatch(`1 written, ${SHIPPED_FILES.length - 1} unchanged, 1 stale removed`)
    expect(existsSync(join(dir, 'old.ts'))).toBe(false)
    expect(readFileSync(join(dir, 'mine.ts'), 'utf8')).toBe('export const handwritten = 1;\n')
  }, 70_000)

  it('a spec kept elsewhere with its own service word', async () => {
    const spec = acmeSpec(tmp.dir)
    const dir = join(tmp.dir, 'acme')
    const r = await oec(['generate', '--spec', spec, '--service', 'acme', '--out', dir])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(join(dir, 'typed-data.ts'), 'utf8')).toMatch(/name: 'Acme',/)
    expect(readFileSync(join(dir, 'errors.ts'), 'utf8')).toMatch(/^export type KnownErrorCode =\n( {2}\| '\w+'\n)* {2}\| 'acme_only';$/m)
    // Without the word the loader says which one to pass, in one line, exit 2.
    const bad = await oec(['generate', '--spec', spec, '--out', join(tmp.dir, 'acme2')])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^oec: .*no x-service-error-codes extension.*pass --service acme\)\n$/)
    expect(existsSync(join(tmp.dir, 'acme2'))).toBe(false)
  }, 70_000)

  it('an unsupported construct: exit 2, one line naming the pointer, nothing written', () => {
    const r = unsupported
    const dir = badOut
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^oec: .*bad\.yaml:\d+: unsupported JSON Schema construct "if" .* at #\/components\/schemas\/Side\/if\n$/)
    expect(r.stdout).toBe('')
    expect(existsSync(dir)).toBe(false)
  })

  it('a failed write leaves the previous output whole and no temporary files', async () => {
    const dir = join(tmp.dir, 'atomic')
    mkdirSync(dir)
    writeFileSync(join(dir, 'types.ts'), 'previous\n')
    mkdirSync(join(dir, 'limits.ts')) // a directory where a file must go: the write fails
    const r = await oec(['generate', '--out', dir])
    expect(r.code).toBe(2)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(readFileSync(join(dir, 'types.ts'), 'utf8')).toBe('previous\n')
    expect(readdirSync(dir).sort()).toEqual(['limits.ts', 'types.ts'])
  }, 70_000)

  it('usage errors: missing --out, missing spec', async () => {
    const noOut = await oec(['generate'])
    expect(noOut.code).toBe(2)
    expect(noOut.stderr).toMatch(/required option '--out <dir>' not specified/)
    const noSpec = await oec(['generate', '--spec', join(tmp.dir, 'nope.yaml'), '--out', join(tmp.dir, 'x')])
    expect(noSpec.code).toBe(2)
    expect(noSpec.stderr).toBe(`oec: cannot read spec ${join(tmp.dir, 'nope.yaml')}: no such file\n`)
  }, 70_000)
})

describe('oec generate on a spec without some layers', () => {
  it('a plain OpenAPI document: types.ts, contract.ts and index.ts, and index exports only those', async () => {
    const spec = join(tmp.dir, 'plain.yaml')
    writeFileSync(
      spec,
      'openapi: 3.0.3\ninfo: {title: Plain, version: "2"}\npaths:\n  /things:\n    get:\n      operationId: listThings\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: { type: array, items: { type: string } }\n',
    )
    const dir = join(tmp.dir, 'plain-out')
    const r = await oec(['generate', '--spec', spec, '--out', dir])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe(`oec generate: ${dir}: 3 written, 0 unchanged\n`)
    expect(readdirSync(dir).sort()).toEqual(['contract.ts', 'index.ts', 'types.ts'])
    expect(readFileSync(join(dir, 'index.ts'), 'utf8').split('\n').slice(1)).toEqual([
      "export * from './types.js';",
      "export * from './contract.js';",
      '',
    ])
    expect(readFileSync(join(dir, 'types.ts'), 'utf8')).toMatch(
      /^export interface ListThingsResponses \{\n(.*\n)*? {2}200: string\[\];\n\}/m,
    )
  }, 70_000)

  it('--check treats a layer file the spec no longer produces as stale; writing removes it', async () => {
    // The shipped spec with its rules catalog beside it, but without x-rate-limits.
    const specDir = join(tmp.dir, 'no-limits')
    mkdirSync(specDir)
    const doc = parseDocument(readFileSync(SPEC, 'utf8'))
    doc.delete('x-rate-limits')
    const spec = join(specDir, 'openapi.yaml')
    writeFileSync(spec, doc.toString())
    writeFileSync(join(specDir, 'rules.yaml'), readFileSync(join(SPEC, '..', 'rules.yaml')))
    const dir = join(tmp.dir, 'layer-gone')
    writeGenerated(dir, await generateFiles())
    const r = await oec(['generate', '--spec', spec, '--out', dir, '--check'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/is out of date \(.*limits\.ts is no longer generated\); run oec generate without --check\n$/)
    expect(r.stderr).not.toMatch(/(errors|typed-data|rules)\.ts is no longer generated/)
    expect(r.stdout).toContain(`--- ${join(dir, 'limits.ts')}\ton disk`)
    expect(existsSync(join(dir, 'limits.ts'))).toBe(true)
    const w = await oec(['generate', '--spec', spec, '--out', dir])
    expect(w.code, w.stderr).toBe(0)
    expect(w.stdout).toMatch(/, 1 stale removed\n$/)
    expect(readdirSync(dir).sort()).toEqual(SHIPPED_FILES.filter((f) => f !== 'limits.ts'))
    expect(readFileSync(join(dir, 'index.ts'), 'utf8')).not.toContain('limits')
    const again = await oec(['generate', '--spec', spec, '--out', dir, '--check'])
    expect(again.code, again.stderr).toBe(0)
  }, 70_000)

  it('--domain-name on a spec without x-eip712: exit 2, one line, nothing written', async () => {
    const spec = join(tmp.dir, 'plain-domain.yaml')
    writeFileSync(spec, 'openapi: 3.1.0\ninfo: {title: Plain, version: "1"}\npaths: {}\n')
    const dir = join(tmp.dir, 'plain-domain-out')
    const r = await oec(['generate', '--spec', spec, '--out', dir, '--domain-name', 'Other'])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(`oec: --domain-name: ${spec} has no x-eip712 layer, so there is no signing domain to rename\n`)
    expect(existsSync(dir)).toBe(false)
  })
})
