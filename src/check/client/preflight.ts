/**
 * Preflight of `oec check client`: the testee starts and answers one request before the run.
 * A command with a typo, a program that exits at once or one that never answers would
 * otherwise fail every case for one reason; it is one line instead (exit 2).
 */
import { PREFLIGHT_SKIP, PreflightError } from '../preflight-error.ts'
import { runRequests, type PendingRequest, type TesteeOptions } from './testee.ts'

/** Sends `first` to a fresh testee; resolves when it answers (any answer line with the id), else throws PreflightError. */
export async function preflightTestee(first: PendingRequest, opts: Omit<TesteeOptions, 'maxRestarts' | 'window'>): Promise<void> {
  const answer = (await runRequests([first], { ...opts, maxRestarts: 0 })).get(first.id)
  if (!answer || answer.ok) return
  const command = opts.command.join(' ')
  const fix = /cannot start|ENOENT|EACCES/.test(answer.problem)
    ? 'check the program after -- (a path, on PATH, executable)'
    : /no answer within|stopped answering/.test(answer.problem)
      ? 'it must answer one JSON line per request on stdout (see oec sign --jsonl); a slow start takes --startup-timeout MS'
      : 'it must speak the JSON-lines protocol of oec sign --jsonl'
  throw new PreflightError(`the testee \`${command}\` did not answer a first request (${answer.problem}): ${fix}${PREFLIGHT_SKIP}`)
}
