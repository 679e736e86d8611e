/**
 * The explorer against a server nobody here wrote: Stoplight Prism mocking the shipped spec
 * (stateless, no signature checks). Its divergences are reported as cases and the run ends
 * cleanly: exit 1 with a JSON report, Prism still up.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEFAULT_SPEC_PATH } from '../../src/contract/load.ts'
import { ROOT, runOec } from '../helpers/cli.ts'
import { underMutation } from '../helpers/mutation.ts'
import { unusedPort } from '../helpers/ports.ts'

const require = createRequire(import.meta.url)
const PRISM = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js')
const cliIt = underMutation ? it.skip : it

let prism: ChildProcess | undefined
let url = ''
let log = ''

beforeAll(async () => {
  if (underMutation) return
  const port = await unusedPort()
  url = `http://127.0.0.1:${port}`
  prism = spawn(process.execPath, [PRISM, 'mock', DEFAULT_SPEC_PATH, '-p', String(port), '-v', 'error'], { cwd: ROOT })
  prism.stdout!.on('data', (d) => (log += d))
  prism.stderr!.on('data', (d) => (log += d))
  const deadline = Date.now() + 60_000
  for (;;) {
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline || prism.exitCode !== null) throw new Error(`prism did not start: ${log.slice(-500)}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}, 90_000)

afterAll(() => {
  prism?.kill()
})

cliIt(
  'Prism mocking the shipped spec is explored: divergences reported, the run ends cleanly',
  async () => {
    const r = await runOec(
      ['check', 'server', '--target', url, '--symbol', 'BTC-20261225-100000-C', '--explore', '30', '--reporter', 'json'],
      {
        timeoutMs: 200_000,
      },
    )
    expect(r.code, `${r.stderr}\nprism: ${log.slice(-500)}`).toBe(1)
    const report = JSON.parse(r.stdout) as { results: { id: string; outcome: string; rules: string[] }[] }
    const found = report.results.filter((x) => x.id.startsWith('explore/'))
    expect(found.length).toBeGreaterThan(0)
    // Prism takes any signature: a stated auth rule is among what the explorer reports.
    expect(found.some((x) => x.outcome === 'fail')).toBe(true)
    expect(r.stderr).toMatch(/divergence/)
    expect(prism?.exitCode, log.slice(-500)).toBe(null)
  },
  240_000,
)
