/**
 * Stoplight Prism mocking the shipped spec on a free loopback port: a server nobody here wrote,
 * shared by the runner's and the explorer's foreign-server tests.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll } from 'vitest'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { DEFAULT_SPEC_PATH } from '../../src/contract/load.ts'
import { ROOT } from './cli.ts'
import { underMutation } from './mutation.ts'
import { unusedPort } from './ports.ts'

const require = createRequire(import.meta.url)
const PRISM = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js')

export interface PrismMock {
  readonly url: string
  readonly process: ChildProcess
  /** What Prism printed so far (for failure messages). */
  log(): string
}

/** Starts Prism and waits until its /health answers (60 s at most). */
export async function startPrism(): Promise<PrismMock> {
  const port = await unusedPort()
  const url = `http://127.0.0.1:${port}`
  let log = ''
  const prism = spawn(process.execPath, [PRISM, 'mock', DEFAULT_SPEC_PATH, '-p', String(port), '-v', 'error'], { cwd: ROOT })
  prism.stdout!.on('data', (d) => (log += d))
  prism.stderr!.on('data', (d) => (log += d))
  const deadline = Date.now() + 60_000
  for (;;) {
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline || prism.exitCode !== null) {
      prism.kill()
      throw new Error(`prism did not start: ${log.slice(-500)}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return { url, process: prism, log: () => log }
}

/** Prism for one test file: started before its tests (not under mutation testing), stopped after. */
export function prismForFile(): { url(): string; log(): string; exitCode(): number | null | undefined } {
  let prism: PrismMock | undefined
  beforeAll(async () => {
    if (underMutation) return
    prism = await startPrism()
  }, 90_000)
  afterAll(() => {
    prism?.process.kill()
  })
  return { url: () => prism?.url ?? '', log: () => prism?.log() ?? '', exitCode: () => prism?.process.exitCode }
}
