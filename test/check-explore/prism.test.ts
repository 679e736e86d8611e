/**
 * The explorer against a server nobody here wrote: Stoplight Prism mocking the shipped spec
 * (stateless, no signature checks). Its divergences are reported as cases and the run ends
 * cleanly: exit 1 with a JSON report, Prism still up.
 */
import { expect, it } from 'vitest'
import { runOec } from '../helpers/cli.ts'
import { underMutation } from '../helpers/mutation.ts'
import { prismForFile } from '../helpers/prism.ts'

const cliIt = underMutation ? it.skip : it

const prism = prismForFile()

cliIt(
  'Prism mocking the shipped spec is explored: divergences reported, the run ends cleanly',
  async () => {
    const r = await runOec(
      ['check', 'server', '--target', prism.url(), '--symbol', 'BTC-20261225-100000-C', '--explore', '30', '--reporter', 'json'],
      {
        timeoutMs: 200_000,
      },
    )
    expect(r.code, `${r.stderr}\nprism: ${prism.log().slice(-500)}`).toBe(1)
    const report = JSON.parse(r.stdout) as { results: { id: string; outcome: string; rules: string[] }[] }
    const found = report.results.filter((x) => x.id.startsWith('explore/'))
    expect(found.length).toBeGreaterThan(0)
    // Prism takes any signature: a stated auth rule is among what the explorer reports.
    expect(found.some((x) => x.outcome === 'fail')).toBe(true)
    expect(r.stderr).toMatch(/divergence/)
    expect(prism.exitCode(), prism.log().slice(-500)).toBe(null)
  },
  240_000,
)
