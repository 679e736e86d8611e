/** Servers in processes of their own, for the tests that must not share a process with the target. */
import { spawn, type ChildProcess } from 'node:child_process'
import { ROOT } from './cli.ts'

export interface LiveTarget {
  readonly url: string
  readonly symbols: readonly string[]
  stop(): void
}

/** An assumption-variant server (by name) in its own process. */
export function startVariant(name: string): Promise<LiveTarget> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/serve-variant.ts', name], { cwd: ROOT })
  return ready(child, /listening on (http:\/\/\S+) symbols (\S+)/, (m) => ({ url: m[1]!, symbols: m[2]!.split(',') }))
}

/** A seeded fault of test/fixtures/party-faults.ts (by name) in its own process. */
export function startPartyFault(name: string): Promise<LiveTarget> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/serve-party-fault.ts', name], { cwd: ROOT })
  return ready(child, /listening on (http:\/\/\S+) symbols (\S+)/, (m) => ({ url: m[1]!, symbols: m[2]!.split(',') }))
}

function ready(child: ChildProcess, line: RegExp, read: (m: RegExpExecArray) => { url: string; symbols: string[] }): Promise<LiveTarget> {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stderr!.on('data', (d) => (err += d))
    child.stdout!.on('data', (d) => {
      out += d
      const m = line.exec(out)
      if (m) resolve({ ...read(m), stop: () => child.kill('SIGTERM') })
    })
    child.on('close', (code) => reject(new Error(`the server exited ${code}: ${err}`)))
  })
}
