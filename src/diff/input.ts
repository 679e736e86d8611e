/**
 * Where `oec diff` reads a spec from: a file path, or `git:<ref>:<path>` read with
 * `git show <ref>:<path>` in the current directory (so CI can diff against `origin/main`).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { InputError } from '../errors.ts'
import { contractFromSource, LAYER_NAMES, requireLayers, type LoadOptions, type FullContract } from '../contract/load.ts'

const specFromSource = (source: SpecSource, options: LoadOptions): FullContract => requireLayers(contractFromSource(source, { rules: false, ...options }), LAYER_NAMES, 'oec diff')
import { isObject } from '../contract/model.ts'
import { parseSpecText, readSpecFile, type SpecSource } from '../contract/source.ts'

interface JsYaml {
  load(text: string, options: { schema: unknown; filename?: string }): unknown
  readonly CORE_SCHEMA: unknown
}
const jsyaml = createRequire(import.meta.url)('js-yaml') as JsYaml

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
export function diffSource(text: string, file: string): SpecSource {
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
    try {
      doc = jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA, filename: file })
    } catch {
      return parseSpecText(text, file)
    }
  }
  if (!isObject(doc)) return parseSpecText(text, file)
  let located: SpecSource | undefined
  return { file, text, doc, lineOf: (pointer: string) => (located ??= parseSpecText(text, file)).lineOf(pointer) }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    readSpecFile(path) // throws src/spec's one-line InputError (no such file, is a directory, ...)
    throw new InputError(`cannot read spec ${path}`)
  }
}

export interface SpecArg {
  readonly spec: FullContract
  /** The file path for annotations: the path itself, or the path inside the git ref. */
  readonly path: string
}

export function parseGitArg(arg: string): { ref: string; path: string } | undefined {
  if (!arg.startsWith('git:')) return undefined
  const rest = arg.slice(4)
  const colon = rest.indexOf(':') // a ref name cannot contain ':'
  if (colon <= 0 || colon === rest.length - 1) throw new InputError(`${arg}: expected git:<ref>:<path>, e.g. git:origin/main:spec/openapi.yaml`)
  return { ref: rest.slice(0, colon), path: rest.slice(colon + 1) }
}

export function readGitFile(ref: string, path: string, cwd: string = process.cwd()): string {
  try {
    return execFileSync('git', ['show', `${ref}:${path}`], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 512 * 1024 * 1024 })
  } catch (err) {
    const e = err as { stderr?: string; code?: string }
    const why = e.code === 'ENOENT' ? 'git is not installed' : (String(e.stderr ?? '').trim().split('\n')[0]?.replace(/^fatal: /, '') || 'git show failed')
    throw new InputError(`cannot read git:${ref}:${path}: ${why}`)
  }
}

export function readSpecArg(arg: string, options: LoadOptions = {}, cwd?: string): SpecArg {
  const git = parseGitArg(arg)
  if (git) return { spec: specFromSource(diffSource(readGitFile(git.ref, git.path, cwd), arg), options), path: git.path.replace(/^\.\//, '') }
  return { spec: specFromSource(diffSource(readText(arg), arg), options), path: arg }
}
