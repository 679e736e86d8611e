import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const OEC = fileURLToPath(new URL('../../bin/oec.js', import.meta.url))

export interface RunResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs the real `oec` binary as a user would, optionally feeding stdin. */
export function runOec(args: readonly string[], options: { input?: string; cwd?: string; timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [OEC, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, OEC_DEBUG: '' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(options.input ?? '')
  })
}

export interface Served {
  readonly child: ChildProcess
  readonly url: string
  stderr(): string
  readonly exit: Promise<number | null>
}

/** Starts `oec serve ARGS` as a process; `ready` resolves once it prints its URL. Kill `child` when done. */
export function startServe(args: readonly string[]): { child: ChildProcess; ready: Promise<Served> } {
  const child = spawn(process.execPath, [OEC, 'serve', ...args], { cwd: ROOT, env: { ...process.env, OEC_DEBUG: '' } })
  const ready = new Promise<Served>((resolve, reject) => {
    let out = ''
    let err = ''
    const exit = new Promise<number | null>((res) => child.on('close', (code) => res(code)))
    child.stderr.on('data', (d) => (err += d))
    child.stdout.on('data', (d) => {
      out += d
      const m = /oec serve: listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve({ child, url: m[1]!, stderr: () => err, exit })
    })
    void exit.then((code) => reject(new Error(`oec serve exited ${code}: ${err}`)))
  })
  return { child, ready }
}
