/**
 * `oec check server --target` against a server nobody here wrote: Stoplight Prism mocking the
 * shipped spec (static examples, so its answers do not depend on timing). Prism checks no
 * signature and keeps no state, so many cases fail; what must hold is that running the checks
 * side by side (`--workers 8`) gives every case the same verdict as one at a time.
 *
 * `--skip robust`: Prism 5.14 crashes (an invalid character in its `sl-violations` header) on
 * the robustness check's body with a non-UTF-8 key, a Prism bug, not a verdict.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { runOec } from '../helpers/cli.ts'
import { underMutation } from '../helpers/mutation.ts'
import { prismForFile } from '../helpers/prism.ts'

const cliIt = underMutation ? it.skip : it

const prism = prismForFile()

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
      const args = ['check', 'server', '--target', prism.url(), '--symbol', 'BTC-20261225-100000-C', '--skip', 'robust', '--no-preflight']
      const r = await runOec([...args, '--workers', String(workers), '--reporter', 'json', '--out', out], { timeoutMs: 120_000 })
      expect(r.code, `${r.stderr}\nprism: ${prism.log().slice(-500)}`).toBe(1)
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
    expect(prism.exitCode(), prism.log().slice(-500)).toBe(null)
  },
  240_000,
)
