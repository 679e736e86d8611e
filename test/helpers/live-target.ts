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
  return startFixture('serve-variant.ts', name)
}

/** A mixed-race fault server (test/fixtures/serve-race-fault.ts, by name, or `reference`) in its own process. */
export function startRaceFault(name: string): Promise<LiveTarget> {
  return startFixture('serve-race-fault.ts', name)
}

/** A time fault (test/fixtures/time-faults.ts) or "reference", on the real clock with a window of `windowSeconds`, in its own process. */
export function startTimeFault(name: string, windowSeconds: number): Promise<LiveTarget> {
  return startFixture('serve-time-fault.ts', name, String(windowSeconds))
}

/** A seeded fault of test/fixtures/party-faults.ts (by name) in its own process. */
export function startPartyFault(name: string): Promise<LiveTarget> {
  return startFixture('serve-party-fault.ts', name)
}

/** A test/fixtures script (test/fixtures/serve-own-process.ts) that serves one named server and prints where. */
function startFixture(script: string, ...args: string[]): Promise<LiveTarget> {
  const child = spawn(process.execPath, ['--import', 'tsx', `test/fixtures/${script}`, ...args], { cwd: ROOT })
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
