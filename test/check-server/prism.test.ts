/**
 * `oec check server --target` against a server nobody here wrote: Stoplight Prism mocking the
 * shipped spec (static examples, so its answers do not depend on timing). Prism checks no
 * signature and keeps no state, so many cases fail; what must hold is that running the checks
 * side by side (`--workers 8`) gives every case the same verdict as one at a time.
 *
 * `--skip robust`: Prism 5.14 crashes (an invalid character in its `sl-violations` header) on
 * the robustness check's body with a non-UTF-8 key, a Prism bug, not a verdict.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
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

interface Report {
  results: { id: string; outcome: string }[]
}

cliIt(
  'against Prism, --workers 8 gives every case the verdict --workers 1 gives',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oec-prism-'))
    const run = async (workers: number): Promise<Report> => {
      const out = join(dir, `w${workers}.json`)
      // A mock answers examples, not orders: the preflight's accepted-order step means nothing there.
      const args = ['check', 'server', '--target', url, '--symbol', 'BTC-20261225-100000-C', '--skip', 'robust', '--no-preflight']
      const r = await runOec([...args, '--workers', String(workers), '--reporter', 'json', '--out', out], { timeoutMs: 120_000 })
      expect(r.code, `${r.stderr}\nprism: ${log.slice(-500)}`).toBe(1)
      return JSON.parse(readFileSync(out, 'utf8')) as Report
    }
    const one = await run(1)
    const eight = await run(8)
    const verdicts = (r: Report) => r.results.map((x) => `${x.id} ${x.outcome}`)
    expect(one.results.length).toBeGreaterThan(600)
    expect(verdicts(eight)).toEqual(verdicts(one))
    // Prism accepts any signature: the runner must say so, in both runs alike.
    const failed = one.results.filter((x) => x.outcome === 'fail').map((x) => x.id)
    expect(failed.some((id) => id.startsWith('auth.tampered'))).toBe(true)
    expect(one.results.some((x) => x.outcome === 'pass')).toBe(true)
    expect(prism?.exitCode, log.slice(-500)).toBe(null)
  },
  240_000,
)
