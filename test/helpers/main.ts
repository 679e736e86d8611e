/**
 * The CLI entry (`main`) run in process: the same parsing, commands and exit codes as the
 * binary, without a process start per case (each start loads tsx and costs seconds on a busy box).
 */
import { PassThrough } from 'node:stream'
import { main } from '../../src/cli/main.ts'
import type { RunResult } from './cli.ts'

export async function runMain(args: readonly string[], input = ''): Promise<RunResult> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (d) => (out += d))
  stderr.on('data', (d) => (err += d))
  const stdin = new PassThrough()
  stdin.end(input)
  const code = await main(args, { stdout, stderr, stdin })
  return { code, stdout: out, stderr: err }
}
