/**
 * `oec generate`: write, --check (clean, drift, missing, stale), refusals. The headline cases run
 * the real binary; the rest run the same CLI entry (`main`) in process, because every binary
 * start loads all command modules, which costs seconds on a busy 2-core box.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { generateFiles, writeGenerated } from '../../src/generate/index.ts'
import { runOec, type RunResult } from '../helpers/cli.ts'
import { acmeSpec, editedSpec, tempDir } from './helpers.ts'

const binary = (args: string[]) => runOec(args, { timeoutMs: 60_000 })
async function oec(args: string[]): Promise<RunResult> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (d) => (out += d))
  stderr.on('data', (d) => (err += d))
  const code = await main(args, { stdout, stderr, stdin: new PassThrough() })
  return { code, stdout: out, stderr: err }
}

const tmp = tempDir('cli')
const out = join(tmp.dir, 'out')
let first: RunResult
let drift: RunResult
let unsupported: RunResult
const badOut = join(tmp.dir, 'bad-out')
const driftOut = join(tmp.dir, 'drift-out')

beforeAll(async () => {
  const edited = editedSpec(tmp.dir, 'edited.yaml', [['          enum: [ACKED, REJECTED]', '          enum: [ACKED, REJECTED, PENDING]']])
  const bad = editedSpec(tmp.dir, 'bad.yaml', [['    Side:\n      type: string\n', '    Side:\n      type: string\n      not: { const: Hold }\n']])
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
  it('writes the five files (the bytes generateFiles gives in process)', async () => {
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toBe(`oec generate: ${out}: 5 written, 0 unchanged\n`)
    const expected = await generateFiles()
    for (const f of expected) expect(readFileSync(join(out, f.name), 'utf8')).toBe(f.text)
    expect(readdirSync(out).sort()).toEqual(['errors.ts', 'index.ts', 'limits.ts', 'typed-data.ts', 'types.ts'])
  })

  it('--check passes on fresh output (exit 0, nothing written)', async () => {
    const r = await oec(['generate', '--out', out, '--check'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/5 files in .* match the spec/)
  }, 70_000)

  it('--check fails after a spec edit: exit 1 and a unified diff naming the file', () => {
    const r = drift
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`--- ${join(driftOut, 'types.ts')}\ton disk`)
    expect(r.stdout).toContain(`+++ ${join(driftOut, 'types.ts')}\tgenerated from the spec`)
    expect(r.stdout).toMatch(/^-  status: 'ACKED' \| 'REJECTED';$/m)
    expect(r.stdout).toMatch(/^\+  status: 'ACKED' \| 'REJECTED' \| 'PENDING';$/m)
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
    expect(w.stdout).toMatch(/1 written, 4 unchanged, 1 stale removed/)
    expect(existsSync(join(dir, 'old.ts'))).toBe(false)
    expect(readFileSync(join(dir, 'mine.ts'), 'utf8')).toBe('export const handwritten = 1;\n')
  }, 70_000)

  it('a spec kept elsewhere with its own service word', async () => {
    const spec = acmeSpec(tmp.dir)
    const dir = join(tmp.dir, 'acme')
    const r = await oec(['generate', '--spec', spec, '--service', 'acme', '--out', dir])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(join(dir, 'typed-data.ts'), 'utf8')).toMatch(/name: 'Acme',/)
    expect(readFileSync(join(dir, 'errors.ts'), 'utf8')).toMatch(/^export type KnownErrorCode =\n(  \| '\w+'\n)*  \| 'acme_only';$/m)
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
    expect(r.stderr).toMatch(/^oec: .*bad\.yaml:\d+: unsupported JSON Schema construct "not" .* at #\/components\/schemas\/Side\/not\n$/)
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
