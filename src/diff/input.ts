/**
 * Where `oec diff` reads a spec from: a file path, or `git:<ref>:<path>` read with
 * `git show <ref>:<path>` in the current directory (so CI can diff against `origin/main`).
 */
import { execFileSync } from 'node:child_process'
import { InputError } from '../errors.ts'
import { specFromSource, type LoadOptions, type Spec } from '../spec/load.ts'
import { parseSpecText, readSpecFile } from '../spec/source.ts'

export interface SpecArg {
  readonly spec: Spec
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
  if (git) return { spec: specFromSource(parseSpecText(readGitFile(git.ref, git.path, cwd), arg), options), path: git.path.replace(/^\.\//, '') }
  return { spec: specFromSource(readSpecFile(arg), options), path: arg }
}
