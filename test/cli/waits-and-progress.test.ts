/**
 * A long `oec check server` run says where it is: the progress line counts the cases and the
 * checks done out of the checks selected, with an estimate of the time left; a `--slow` run
 * against a live target announces each wait for a rate-limit window instead of going silent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_SPEC_PATH } from '../../src/contract/load.ts'
import { main } from '../../src/cli/main.ts'
import { terminalProgress } from '../../src/cli/terminal-progress.ts'
import { createReporter } from '../../src/report/index.ts'
import { startServer } from '../../src/server/index.ts'
import { runMain } from '../helpers/main.ts'

vi.setConfig({ testTimeout: 180_000 })

const tmp = mkdtempSync(join(tmpdir(), 'oec-waits-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('check server progress: cases, checks done of the total, time left', () => {
  it('a run prints the checks done out of those selected and an estimate (non-TTY form: every 50 cases)', async () => {
    const r = await runMain(['check', 'server', '--only', 'vectors,auth'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('  ... '))
    expect(lines.length, r.stdout.slice(0, 2000)).toBeGreaterThan(2)
    const totals = new Set<number>()
    for (const l of lines) {
      const m = /^ {2}\.\.\. (\d+) cases \((\d+)\/(\d+) checks\), 0 failed so far(, ~\d+ s left)?$/.exec(l)
      expect(m, l).not.toBeNull()
      expect(Number(m![2])).toBeLessThanOrEqual(Number(m![3]))
      totals.add(Number(m![3]))
    }
    // One total, known from the start: the checks that --only selected (more than one family).
    expect(totals.size).toBe(1)
    expect([...totals][0]).toBeGreaterThan(2)
    // Before the last check there is time left to estimate.
    expect(lines[0]).toMatch(/, ~\d+ s left$/)
  })

  it('TTY form: the in-place line shows cases, checks done of the total and the time left', () => {
    const out = new PassThrough()
    let text = ''
    out.on('data', (d) => (text += d))
    const reporter = createReporter('pretty', out, { color: true })
    reporter.onResult({ id: 'a/1', title: 't', rules: [], level: 'stated', outcome: 'pass', durationMs: 0 })
    reporter.onProgress?.(1, 40, 'checks')
    expect(text.split('\r\x1b[2K').at(-1)).toMatch(/^ {2}1 cases \(1\/40 checks\) {2}1 passed {2}0 failed {2}0 warnings, ~\d+ s left$/)
  })
})

/** Runs `oec ARGS` in process with stderr (and stdout) looking like a terminal or not. */
async function runWith(args: string[], tty: { stdout: boolean; stderr: boolean }) {
  const streams = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough() }
  const text = { stdout: '', stderr: '' }
  streams.stdout.on('data', (d) => (text.stdout += d))
  streams.stderr.on('data', (d) => (text.stderr += d))
  Object.assign(streams.stdout, { isTTY: tty.stdout })
  Object.assign(streams.stderr, { isTTY: tty.stderr })
  streams.stdin.end('')
  const code = await main(args, streams)
  return { code, ...text }
}

describe('check server progress on stderr when the report goes elsewhere', () => {
  it("a json report: a terminal's stderr keeps a progress line in place and clears it at the end; stdout is the report alone", async () => {
    const r = await runWith(['check', 'server', '--only', 'auth', '--reporter', 'json'], { stdout: false, stderr: true })
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).counts.fail).toBe(0)
    const frames = r.stderr.split('\r\x1b[2K')
    expect(frames.some((f) => /^ {2}\d+ cases \(\d+\/(\d+) checks\) {2}\d+ passed {2}0 failed {2}0 warnings, ~\d+ s left$/.test(f))).toBe(
      true,
    )
    // Cleared at the end: the terminal is left as it was.
    expect(frames.at(-1)).toBe('')
  })

  it('stderr that is not a terminal (a CI log, a script) gets no progress line', async () => {
    const r = await runWith(['check', 'server', '--only', 'auth', '--reporter', 'json'], { stdout: false, stderr: false })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
  })

  it('a note (a rate-limit wait) goes above the line, which is drawn again under it', () => {
    const err = new PassThrough()
    let text = ''
    err.on('data', (d) => (text += d))
    Object.assign(err, { isTTY: true })
    const p = terminalProgress(err)!
    p.onProgress(1, 4, 'checks')
    p.note('oec check server: waiting for the rate-limit window until 12:00:00, 38 s\n')
    p.end()
    const line = expect.stringMatching(/^ {2}0 cases \(1\/4 checks\) {2}0 passed {2}0 failed {2}0 warnings, ~\d+ s left$/)
    expect(text.split('\r\x1b[2K')).toEqual([
      '',
      line,
      'oec check server: waiting for the rate-limit window until 12:00:00, 38 s\n',
      line,
      '',
    ])
  })
})

describe('a --slow run against a live target announces its waits for a rate-limit window', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('rl.reset waits for a fresh window: one line on stderr says until when and how long', async () => {
    // Six-second windows, and the clock (of this process: the checker's and the server's) just past
    // a window's start, so the check's wait for a fresh window is several seconds, not 60.
    const specPath = join(tmp, 'short-window.yaml')
    const shipped = readFileSync(DEFAULT_SPEC_PATH, 'utf8')
    expect(shipped).toContain('  windowSeconds: 60\n')
    writeFileSync(specPath, shipped.replace('  windowSeconds: 60\n', '  windowSeconds: 6\n'))
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
    vi.setSystemTime(Math.ceil(Date.now() / 6000) * 6000 + 100)
    const server = await startServer({ spec: specPath })
    try {
      const r = await runMain([
        'check',
        'server',
        '--spec',
        specPath,
        '--target',
        server.url,
        '--symbol',
        'BTC-20261225-100000-C',
        '--slow',
        '--only',
        'rl.reset',
        '--reporter',
        'json',
      ])
      expect(JSON.parse(r.stdout).results.map((x: { id: string }) => x.id)).toContain('rl.reset')
      expect(r.stderr).toMatch(/^oec check server: waiting for the rate-limit window until \d\d:\d\d:\d\d, [1-9]\d* s$/m)
    } finally {
      await server.close()
    }
  })
})
