/**
 * `npm pack` in the repository prints the tarball's name, not a notice line per packed file
 * (over a thousand): the project's .npmrc sets the log level to warnings.
 */
import { spawnSync } from 'node:child_process'
import { expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.ts'

it('npm pack --dry-run prints at most a few lines', () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })
  expect(r.status, r.stderr).toBe(0)
  const lines = `${r.stdout}${r.stderr}`.trim().split('\n')
  expect(lines.length, lines.slice(0, 5).join('\n')).toBeLessThanOrEqual(3)
  expect(r.stdout).toMatch(/^order-entry-conformance-[\d.]+\.tgz$/m)
})
