/**
 * `oec check server --reporter junit` writes XML that a JUnit parser (junit2json, over xml2js)
 * reads: one testcase per case, the family as classname, failures with their rule ids. The
 * target is a reference server that allows nonce reuse, so the report has a failure to carry.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse, type TestCase, type TestSuite } from 'junit2json'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_INSTRUMENTS, startServer } from '../../src/server/index.ts'
import { runMain } from '../helpers/main.ts'

describe('JUnit output of oec check server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oec-junit-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('is read by a JUnit XML parser: every case a testcase, the broken rule a failure', async () => {
    const server = await startServer({ port: 0, deps: { nonces: { has: () => false, consume: () => {} } } })
    const out = join(dir, 'oec.xml')
    try {
      const symbols = DEFAULT_INSTRUMENTS.flatMap((s) => ['--symbol', s])
      const r = await runMain([
        'check',
        'server',
        '--target',
        server.url,
        ...symbols,
        '--only',
        'ops.health,nonce.reuse-after-success',
        '--reporter',
        'junit',
        '--out',
        out,
      ])
      expect(r.code, r.stderr).toBe(1)
    } finally {
      await server.close()
    }
    const report = await parse(readFileSync(out, 'utf8'))
    if (report === undefined || report === null) throw new Error('junit2json read no document')
    const suites: TestSuite[] = 'testsuite' in report ? (report.testsuite ?? []) : [report as TestSuite]
    const cases: TestCase[] = suites.flatMap((s) => s.testcase ?? [])
    const byName = new Map(cases.map((c) => [c.name ?? '', c]))
    const health = [...byName].find(([name]) => name.includes('ops.health'))?.[1]
    const reuse = [...byName].find(([name]) => name.includes('nonce.reuse-after-success'))?.[1]
    expect(health?.failure ?? []).toEqual([])
    expect(reuse?.failure?.length).toBeGreaterThan(0)
    expect(reuse?.classname).toBe('nonce')
    expect(JSON.stringify(reuse?.failure)).toMatch(/NONCE-\d+/)
  })

  it('the parser refuses what is not XML, so the test above can fail', async () => {
    await expect(parse('<testsuites><testsuite>')).rejects.toThrow()
  })
})
