/**
 * Where a report goes: stdout, or with `--out FILE` a file that appears only whole. The report is
 * kept in memory and written beside the destination, then renamed over it, so a run that stops
 * (an unreachable target, a bad option found late, Ctrl-C) leaves no empty or half-written file
 * and an earlier report at that path as it was.
 */
import { accessSync, constants, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { Writable } from 'node:stream'
import { InputError } from '../errors.ts'
import { countOutcomes, exitCodeFor, type RunSummary } from '../report/model.ts'

export interface ReportOut {
  readonly stream: NodeJS.WritableStream
  /** Puts the file in place (a no-op for stdout); a path that cannot be written is an input error. */
  commit(): void
}

export function reportOut(path: string | undefined, stdout: NodeJS.WritableStream): ReportOut {
  if (path === undefined) return { stream: stdout, commit() {} }
  // Refused before the run, not after it: the folder must exist and take files, the path must not be a folder.
  try {
    accessSync(dirname(path), constants.W_OK)
  } catch (err) {
    throw new InputError(`cannot write the report to ${path} (${(err as NodeJS.ErrnoException).code ?? 'not writable'})`)
  }
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new InputError(`cannot write the report to ${path}: it is a directory`)
  const chunks: Buffer[] = []
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
      callback()
    },
  })
  return {
    stream,
    commit() {
      const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
      try {
        writeFileSync(temp, Buffer.concat(chunks))
        renameSync(temp, path)
      } catch (err) {
        rmSync(temp, { force: true })
        const why = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err))
        throw new InputError(`cannot write the report to ${path} (${why})`)
      }
    },
  }
}

/**
 * What a run with `--out FILE` prints (on stderr, stdout being free for nothing): the verdict and
 * counts in one line, then where the report went, so a CI log shows the outcome without the file.
 */
export function wroteLines(summary: RunSummary, path: string): string {
  const c = countOutcomes(summary.results)
  const verdict = exitCodeFor(summary.results) === 0 ? 'PASSED' : 'FAILED'
  return (
    `${summary.suite} against ${summary.target}: ${verdict}: ${summary.results.length} cases in ${(summary.durationMs / 1000).toFixed(1)} s: ` +
    `${c.pass} passed, ${c.fail} failed, ${c.warn} warnings, ${c.xfail} expected failures, ${c.skip} skipped\nwrote ${path}\n`
  )
}
