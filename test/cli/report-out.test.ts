/**
 * `--out FILE` appears only whole: a path that cannot take the report is refused before the run
 * with one line and exit 2, and a run that stops leaves an earlier report at that path as it was.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { reportOut } from '../../src/cli/report-out.ts'
import { runOec } from '../helpers/cli.ts'
import { underMutation } from '../helpers/mutation.ts'
import { unusedPort } from '../helpers/ports.ts'

const cliIt = underMutation ? it.skip : it.concurrent
const dir = mkdtempSync(join(tmpdir(), 'oec-report-out-'))

describe('--out', () => {
  cliIt('a missing folder or a folder as the path: one line, exit 2, before any check runs', async () => {
    for (const [path, why] of [
      [join(dir, 'no-such-folder', 'r.json'), /cannot write the report to .*r\.json \(ENOENT\)/],
      [dir, /cannot write the report to .*: it is a directory/],
    ] as const) {
      const r = await runOec(['check', 'server', '--only', 'err.head', '--out', path])
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).toMatch(why)
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/)
    }
  })

  cliIt('an unreachable target leaves the earlier report untouched and no temporary file', async () => {
    const sub = mkdtempSync(join(dir, 'keep-'))
    const path = join(sub, 'report.json')
    writeFileSync(path, 'earlier report\n')
    const r = await runOec([
      'check',
      'server',
      '--target',
      `http://127.0.0.1:${await unusedPort()}`,
      '--symbol',
      'BTC-20261225-100000-C',
      '--reporter',
      'json',
      '--out',
      path,
    ])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/cannot reach/)
    expect(readFileSync(path, 'utf8')).toBe('earlier report\n')
    expect(readdirSync(sub)).toEqual(['report.json'])
  })

  cliIt('a finished run replaces the file with the whole report', async () => {
    const path = join(mkdtempSync(join(dir, 'done-')), 'report.json')
    writeFileSync(path, 'earlier report\n')
    const r = await runOec(['check', 'server', '--only', 'err.head', '--reporter', 'json', '--out', path])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(readFileSync(path, 'utf8')).suite).toBe('oec check server')
  })

  it('in process: nothing reaches the path until commit; stdout is passed through', () => {
    const path = join(mkdtempSync(join(dir, 'unit-')), 'r.txt')
    const out = reportOut(path, process.stdout)
    out.stream.write('half ')
    expect(() => readFileSync(path)).toThrow(/ENOENT/)
    out.stream.write('and whole')
    out.commit()
    expect(readFileSync(path, 'utf8')).toBe('half and whole')
    expect(reportOut(undefined, process.stdout).stream).toBe(process.stdout)
  })
})
