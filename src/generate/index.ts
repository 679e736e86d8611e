/**
 * `oec generate` without the CLI: load the spec, run the ts-morph emitters (generators/), then
 * either compare with a directory (drift check) or write into it atomically.
 * The emitters are imported lazily: ts-morph loads the TypeScript compiler, which nothing else
 * that imports this library should pay for.
 */
import { createTwoFilesPatch } from 'diff'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { HEADER_PREFIX } from '../../generators/header.ts'
import { InputError } from '../errors.ts'
import { contractFromSource, DEFAULT_SPEC_PATH, layerKey, type Contract } from '../contract/load.ts'
import { forEachReference, refKind } from '../contract/refs.ts'
import { readSpecFile } from '../contract/source.ts'

export interface GenerateOptions {
  /** The spec file (default: the shipped spec). */
  readonly spec?: string | undefined
  /** Word of the catalog key `x-<service>-error-codes` (default `service`). */
  readonly service?: string | undefined
  /** Replaces the name of the `options` signing domain in typed-data.ts. */
  readonly domainName?: string | undefined
}

export interface GeneratedFile {
  /** File name inside the output directory. */
  readonly name: string
  readonly text: string
}

/** The marker of a file this command wrote: only such files count as stale extras. */
export const GENERATED_HEADER_PREFIX = HEADER_PREFIX

/**
 * External `$ref`s are refused before the loader resolves anything, so the message names the
 * pointer (the loader's own check does not know where it was). Only references count: a `$ref`
 * key in example data (GitHub's spec has URLs there) is data.
 */
function refuseExternalRefs(spec: { doc: Record<string, unknown>; file: string; lineOf(p: string): number }): void {
  forEachReference(spec.doc, ({ pointer, ref }) => {
    if (refKind(ref) === 'local') return
    throw new InputError(
      `${spec.file}:${spec.lineOf(`${pointer}/$ref`)}: unsupported external $ref "${ref}" at #${pointer}/$ref (bundle the spec into one file first)`,
    )
  })
}

/** Reads and checks the spec the way every generator run does. Any layer may be absent. */
export function loadGeneratorSpec(path: string = DEFAULT_SPEC_PATH, service?: string): Contract {
  const source = readSpecFile(path)
  refuseExternalRefs(source)
  return contractFromSource(source, service !== undefined ? { service } : {})
}

/** Generates every file in memory. Same spec and options ⇒ same bytes. */
export async function generateFiles(options: GenerateOptions = {}): Promise<GeneratedFile[]> {
  const spec = loadGeneratorSpec(options.spec ?? DEFAULT_SPEC_PATH, options.service)
  return generateFromSpec(spec, options)
}

/** Generates the files of the layers `spec` has: types.ts and index.ts always. */
export async function generateFromSpec(spec: Contract, options: Pick<GenerateOptions, 'domainName'> = {}): Promise<GeneratedFile[]> {
  if (options.domainName !== undefined && spec.typedData === undefined) {
    throw new InputError(`--domain-name: ${spec.file} has no ${layerKey('typedData')} layer, so there is no signing domain to rename`)
  }
  const { emitAll } = await import('../../generators/index.ts')
  return emitAll(spec, options.domainName !== undefined ? { domainName: options.domainName } : {})
}

/** A file's text with CRLF read as LF: a checkout with autocrlf is not drift. */
function readIfFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').replace(/\r\n/g, '\n')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'EISDIR') throw new InputError(`${path} is a directory, where oec generate writes a file`)
    throw new InputError(`cannot read ${path}: ${code ?? 'unreadable'}`)
  }
}

/** `.ts` files in `dir` that carry the generated header but are not part of `files`. */
function staleFiles(dir: string, files: readonly GeneratedFile[]): string[] {
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    return []
  }
  const names = new Set(files.map((f) => f.name))
  return entries
    .filter((e) => e.endsWith('.ts') && !names.has(e))
    .filter((e) => {
      const text = readIfFile(join(dir, e))
      return text?.startsWith(GENERATED_HEADER_PREFIX)
    })
    .sort()
}

export interface GenerateDrift {
  readonly ok: boolean
  readonly changed: readonly string[]
  readonly missing: readonly string[]
  /** Generated files (by header) the spec no longer produces. */
  readonly extra: readonly string[]
  /** Unified diff, on disk → generated, one section per file that differs. */
  readonly patch: string
}

/** Compares freshly generated files with `dir`, without writing anything. */
export function checkGenerated(dir: string, files: readonly GeneratedFile[]): GenerateDrift {
  if (existsAsFile(dir)) throw new InputError(`--out ${dir} is a file, not a directory`)
  const changed: string[] = []
  const missing: string[] = []
  const patches: string[] = []
  for (const f of files) {
    const path = join(dir, f.name)
    const onDisk = readIfFile(path)
    if (onDisk === f.text) continue
    if (onDisk === undefined) missing.push(f.name)
    else changed.push(f.name)
    patches.push(
      createTwoFilesPatch(
        onDisk === undefined ? '/dev/null' : path,
        path,
        onDisk ?? '',
        f.text,
        onDisk === undefined ? 'missing' : 'on disk',
        'generated from the spec',
      ),
    )
  }
  const extra = staleFiles(dir, files)
  for (const e of extra) {
    const path = join(dir, e)
    patches.push(createTwoFilesPatch(path, '/dev/null', readIfFile(path) ?? '', '', 'on disk', 'not generated from the spec'))
  }
  return { ok: changed.length + missing.length + extra.length === 0, changed, missing, extra, patch: patches.join('') }
}

function existsAsFile(path: string): boolean {
  try {
    return !statSync(path).isDirectory()
  } catch {
    return false
  }
}

export interface GenerateWriteReport {
  readonly written: readonly string[]
  readonly unchanged: readonly string[]
  readonly removed: readonly string[]
}

/**
 * Writes `files` into `dir`: every changed file goes to a temporary name first and is renamed
 * only once all of them are on disk, so a failure never leaves half-written output. Stale
 * generated files (by header) are removed; other files in `dir` are left alone.
 */
export function writeGenerated(dir: string, files: readonly GeneratedFile[]): GenerateWriteReport {
  if (existsAsFile(dir)) throw new InputError(`--out ${dir} is a file, not a directory`)
  try {
    mkdirSync(dir, { recursive: true })
  } catch (err) {
    throw new InputError(`cannot create ${dir}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`)
  }
  const pending: { name: string; tmp: string; path: string }[] = []
  const unchanged: string[] = []
  try {
    for (const f of files) {
      const path = join(dir, f.name)
      if (readIfFile(path) === f.text) {
        unchanged.push(f.name)
        continue
      }
      const tmp = join(dir, `.${f.name}.${process.pid}.oec-tmp`)
      pending.push({ name: f.name, tmp, path })
      writeFileSync(tmp, f.text)
    }
  } catch (err) {
    for (const p of pending) rmSync(p.tmp, { force: true })
    if (err instanceof InputError) throw err
    throw new InputError(`cannot write into ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
  }
  // Every new file is complete on disk before the first rename.
  for (const p of pending) renameSync(p.tmp, p.path)
  const removed = staleFiles(dir, files)
  for (const e of removed) rmSync(join(dir, e), { force: true })
  return { written: pending.map((p) => p.name), unchanged, removed }
}
