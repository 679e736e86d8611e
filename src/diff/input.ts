/**
 * Where `oec diff` reads a spec from: a file path, or `git:<ref>:<path>` read with
 * `git show <ref>:<path>` in the current directory (so CI can diff against `origin/main`).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { loadCoreYaml } from '../contract/js-yaml.ts'
import { InputError } from '../errors.ts'
import { contractFromSource, type Contract, type LoadOptions } from '../contract/load.ts'
import { isObject } from '../contract/model.ts'
import { lineLocator, parseSpecText, readSpecFile, type SpecSource } from '../contract/source.ts'
import { indexChunks, parseFromChunks, type ChunkCache } from './chunks.ts'

/** A YAML alias (`*name`) could expand exponentially when walked: such files take the guarded parser. */
const ALIAS = /(^|[\s[{,:-])\*[A-Za-z0-9_-]+\s*($|[,\]}\n])/m

/**
 * Parses a spec for diffing. `oec diff` meets specs of thousands of operations, where the
 * `yaml` package behind src/spec takes tens of seconds (its duplicate-key check is quadratic in
 * the size of a mapping such as `paths`); js-yaml (YAML 1.2 core schema, duplicate keys refused)
 * parses the same document in linear time. src/spec's parser still gives the one-line error
 * with a line number for a broken file, and the line numbers of github annotations, built
 * only when a finding needs one.
 */
export function diffSource(text: string, file: string, chunks?: ChunkCache): SpecSource {
  let doc: unknown
  if (/^\s*\{/.test(text)) {
    // JSON (a subset of YAML) parses faster still; duplicate keys keep the last value, as in JSON.parse.
    try {
      doc = JSON.parse(text)
    } catch {
      doc = undefined
    }
  }
  if (doc === undefined) {
    if (ALIAS.test(text)) return parseSpecText(text, file)
    if (chunks) doc = parseFromChunks(text, chunks)
    if (doc === undefined) {
      try {
        doc = loadCoreYaml(text, file)
      } catch {
        return parseSpecText(text, file)
      }
      if (chunks && chunks.size === 0 && isObject(doc)) indexChunks(text, doc, chunks)
    }
  }
  if (!isObject(doc)) return parseSpecText(text, file)
  let located: ((pointer: string) => number) | undefined
  return { file, text, doc, lineOf: (pointer: string) => (located ??= lineLocator(text))(pointer) }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    readSpecFile(path) // throws src/spec's one-line InputError (no such file, is a directory, ...)
    throw new InputError(`cannot read spec ${path}`)
  }
}

/**
 * What `oec diff` needs of a document: the parsed source, its version, and the toolkit layers it
 * carries. Each layer is optional, so any OpenAPI 3.0/3.1 document diffs. (A loaded `Spec` from
 * src/spec fits this shape; when src/spec gains optional layers, `diffSpecFromSource` can give
 * way to its loader.)
 */
/** What `oec diff` compares: a contract whose layers are all optional. */
export type DiffSpec = Contract

/** A document that carries layer `K`: what a layer's comparer is handed. */
export type WithLayer<K extends 'catalog' | 'typedData' | 'rateLimits'> = Contract<K>

/** The one `x-<word>-error-codes` list's word, when the document has exactly one. */
function serviceWordOf(doc: Record<string, unknown>): string | undefined {
  const found = Object.keys(doc).filter((k) => /^x-.+-error-codes$/.test(k) && Array.isArray(doc[k]))
  return found.length === 1 ? found[0]!.slice(2, -'-error-codes'.length) : undefined
}

/** Any OpenAPI 3.0/3.1 document as a contract; without `--service`, the catalog it has is read. */
export function diffSpecFromSource(source: SpecSource, options: LoadOptions = {}): DiffSpec {
  const service = options.service ?? serviceWordOf(source.doc)
  return contractFromSource(source, { ...options, service, rules: false })
}

export interface SpecArg {
  readonly spec: DiffSpec
  /** The file path for annotations: the path itself, or the path inside the git ref. */
  readonly path: string
}

export function parseGitArg(arg: string): { ref: string; path: string } | undefined {
  if (!arg.startsWith('git:')) return undefined
  const rest = arg.slice(4)
  const colon = rest.indexOf(':') // a ref name cannot contain ':'
  if (colon <= 0 || colon === rest.length - 1)
    throw new InputError(`${arg}: expected git:<ref>:<path>, e.g. git:origin/main:spec/openapi.yaml`)
  return { ref: rest.slice(0, colon), path: rest.slice(colon + 1) }
}

export function readGitFile(ref: string, path: string, cwd: string = process.cwd()): string {
  try {
    return execFileSync('git', ['show', `${ref}:${path}`], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 512 * 1024 * 1024,
    })
  } catch (err) {
    const e = err as { stderr?: string; code?: string }
    const why =
      e.code === 'ENOENT'
        ? 'git is not installed'
        : String(e.stderr ?? '')
            .trim()
            .split('\n')[0]
            ?.replace(/^fatal: /, '') || 'git show failed'
    throw new InputError(`cannot read git:${ref}:${path}: ${why}`)
  }
}

export function readSpecArg(arg: string, options: LoadOptions = {}, cwd?: string, chunks?: ChunkCache): SpecArg {
  const git = parseGitArg(arg)
  if (git)
    return {
      spec: diffSpecFromSource(diffSource(readGitFile(git.ref, git.path, cwd), arg, chunks), options),
      path: git.path.replace(/^\.\//, ''),
    }
  return { spec: diffSpecFromSource(diffSource(readText(arg), arg, chunks), options), path: arg }
}

/** Both sides of a diff, read with one chunk cache: what the two texts share is parsed once. */
export function readSpecPair(baseArg: string, headArg: string, options: LoadOptions = {}, cwd?: string): [SpecArg, SpecArg] {
  const chunks: ChunkCache = new Map()
  return [readSpecArg(baseArg, options, cwd, chunks), readSpecArg(headArg, options, cwd, chunks)]
}
