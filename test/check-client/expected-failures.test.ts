import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  applyExpectedFailures,
  loadExpectedFailures,
  parseExpectedFailures,
  writeExpectedFailures,
} from '../../src/check/expected-failures.ts'
import { runClientCheck } from '../../src/check/client/index.ts'
import { exitCodeFor, type CaseResult } from '../../src/report/index.ts'
import { runOec } from '../helpers/cli.ts'

const tmp = mkdtempSync(join(tmpdir(), 'oec-xfail-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const r = (id: string, outcome: CaseResult['outcome'], message?: string): CaseResult => ({
  id,
  title: id,
  rules: ['PO-4'],
  level: 'stated',
  outcome,
  durationMs: 0,
  ...(message ? { message } : {}),
})

describe('expected-failure lists', () => {
  it('parses ids, prefixes, wildcards and reasons; ignores blanks and comments', () => {
    const list = parseExpectedFailures('# header\n\nnonce/3   # lost precision\nstring-format\n  perp-*/1  \n', 'f.txt')
    expect(list.entries).toEqual([
      { pattern: 'nonce/3', reason: 'lost precision', line: 3 },
      { pattern: 'string-format', line: 4 },
      { pattern: 'perp-*/1', line: 5 },
    ])
    expect(list.header).toEqual(['# header'])
  })

  it('listed and failing → xfail; unlisted failing stays a failure (nonce/3 does not cover nonce/30); listed and passing → stale failure', () => {
    const list = parseExpectedFailures('nonce/3 # known\nstring-format\n', 'known.txt')
    const { results, stale } = applyExpectedFailures(
      [r('nonce/3', 'fail', 'digest differs'), r('nonce/30', 'fail'), r('string-format/1', 'pass'), r('cancel/1', 'fail')],
      list,
    )
    expect(results.map((x) => x.outcome)).toEqual(['xfail', 'fail', 'fail', 'fail'])
    expect(results[0]!.message).toMatch(/expected failure \(known.txt:1: known\): digest differs/)
    expect(stale).toEqual(['string-format/1'])
    expect(results[2]!.message).toMatch(/known.txt:2 "string-format"\) but now passes/)
  })

  it('a listed warning stays a warning; an entry is stale only when every case it covers passes', () => {
    const list = parseExpectedFailures('perp-agent # options only\nstring-format\n', 'partial.txt')
    const { results, stale } = applyExpectedFailures(
      [
        r('perp-agent/1', 'fail'),
        r('perp-agent/2', 'warn'),
        r('perp-agent/3', 'pass'),
        r('string-format/1', 'pass'),
        r('string-format/2', 'pass'),
      ],
      list,
    )
    expect(results.map((x) => x.outcome)).toEqual(['xfail', 'warn', 'pass', 'fail', 'fail'])
    expect(stale).toEqual(['string-format/1', 'string-format/2'])
    expect(exitCodeFor(applyExpectedFailures([r('perp-agent/2', 'warn')], list).results)).toBe(0)
  })

  it('--fix keeps an entry that covers only warnings, and is a fixed point', () => {
    const path = join(tmp, 'warn.txt')
    writeFileSync(path, '# partial\nperp-agent  # options only\n')
    const run = [r('perp-agent/1', 'warn'), r('nonce/1', 'fail', 'digest differs')]
    writeExpectedFailures(path, run)
    const once = readFileSync(path, 'utf8')
    expect(once).toBe('# partial\nperp-agent  # options only\nnonce/1  # digest differs\n')
    writeExpectedFailures(path, run)
    expect(readFileSync(path, 'utf8')).toBe(once)
  })

  it('--fix rewrites the list: keeps reasons of entries still failing, drops fixed ones, adds new failures', () => {
    const path = join(tmp, 'fix.txt')
    writeFileSync(path, '# my gaps\nnonce/3  # lost precision\ncancel/9  # fixed since\n')
    writeExpectedFailures(path, [r('nonce/3', 'fail'), r('cancel/9', 'pass'), r('perp-agent/2', 'fail', 'sign: digest 0x1 expected 0x2')])
    expect(readFileSync(path, 'utf8')).toBe('# my gaps\nnonce/3  # lost precision\nperp-agent/2  # sign: digest 0x1 expected 0x2\n')
    expect(loadExpectedFailures(path).entries.map((e) => e.pattern)).toEqual(['nonce/3', 'perp-agent/2'])
  })

  it('works end to end: an unlisted failure fails the run, a listed one does not, a stale entry does, --fix rewrites', async () => {
    // The always-route testee fails exactly the route-omitted cases: place-order-valid/4 here.
    const testee = ['node', '--import', 'tsx', 'test/check-client/testees/always-route.mts']
    const only = ['place-order-valid/1', 'place-order-valid/4']
    const plain = await runClientCheck({ command: testee, only, timeoutMs: 5000 })
    expect(plain.summary.results.map((x) => `${x.id}:${x.outcome}`)).toEqual(['place-order-valid/1:pass', 'place-order-valid/4:fail'])
    expect(exitCodeFor(plain.summary.results)).toBe(1) // unlisted failure: the run fails
    const listed = applyExpectedFailures(plain.raw, parseExpectedFailures('place-order-valid/4 # always signs route\n', 'x.txt'))
    expect(listed.results.map((x) => x.outcome)).toEqual(['pass', 'xfail'])
    expect(exitCodeFor(listed.results)).toBe(0) // listed failure: the run passes

    const path = join(tmp, 'known.txt')
    writeFileSync(path, 'place-order-valid/1  # stale: this case passes\nplace-order-valid/4  # always signs route\n')
    const stale = await runOec(
      ['check', 'client', '--reporter', 'json', '--only', only.join(','), '--expected-failures', path, '--', ...testee],
      { timeoutMs: 90_000 },
    )
    expect(stale.code, stale.stderr).toBe(1)
    const doc = JSON.parse(stale.stdout)
    expect(doc.results.find((x: CaseResult) => x.id === 'place-order-valid/1').message).toMatch(/now passes/)
    expect(doc.results.find((x: CaseResult) => x.id === 'place-order-valid/4').outcome).toBe('xfail')

    const fixed = await runOec(
      ['check', 'client', '--reporter', 'json', '--only', only.join(','), '--expected-failures', path, '--fix', '--', ...testee],
      { timeoutMs: 90_000 },
    )
    expect(fixed.code, fixed.stderr).toBe(0)
    expect(readFileSync(path, 'utf8')).toBe(
      '# Expected failures: one case id (or id prefix) per line, "# reason" optional.\nplace-order-valid/4  # always signs route\n',
    )
  }, 150_000)
})
