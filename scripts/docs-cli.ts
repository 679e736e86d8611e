/**
 * `oec ARGS` run in process: the same parsing, commands and exit codes as the binary, without a
 * process start. The docs scripts read every figure they check from it; the tests use it too
 * (test/helpers/main.ts).
 */
import { PassThrough } from 'node:stream'
import { main } from '../src/cli/main.ts'

export interface OecOutput {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export async function oecOutput(args: readonly string[], input = ''): Promise<OecOutput> {
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

/** The JSON `oec ARGS` prints; a failing command is an error naming it. */
export async function oecJson<T>(args: readonly string[]): Promise<T> {
  const r = await oecOutput(args)
  if (r.code !== 0 && r.code !== 1) throw new Error(`oec ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`)
  return JSON.parse(r.stdout) as T
}
