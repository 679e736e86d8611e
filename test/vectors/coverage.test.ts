import { describe, expect, it } from 'vitest'
import { buildCoverage, coverageExitCode, formatCoverageText, loadRules, loadServerCatalog, parseRules } from '../../src/coverage/index.ts'
import { serverCheckCatalog } from '../../src/check/server/catalog.ts'
import { shippedContract } from '../../src/contract/index.ts'
import { runOec } from '../helpers/cli.ts'

describe('spec/rules.yaml', () => {
  const rules = loadRules()
  it('has unique, well-formed ids with a section, a level and a text', () => {
    expect(rules.length).toBeGreaterThan(100)
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length)
    for (const r of rules) {
      expect(r.id).toMatch(/^[A-Z]+-[0-9]+$/)
      expect(['stated', 'assumed']).toContain(r.level)
      expect(r.section.length).toBeGreaterThan(3)
      expect(r.text.length).toBeGreaterThan(10)
    }
  })
  it('states the seed rules and marks the design decisions as assumed', () => {
    const level = (id: string) => rules.find((r) => r.id === id)?.level
    expect(level('PO-4')).toBe('stated') // size/price identical characters
    expect(level('DOM-3')).toBe('stated') // chainId 999
    expect(level('NONCE-5')).toBe('stated') // retry after failure
    expect(level('SIG-10')).toBe('assumed') // high-s refused
    expect(level('AUTH-6')).toBe('assumed') // 403 unauthorized
    expect(level('ROUTE-4')).toBe('assumed') // Deprecation/Sunset header names
  })
  it('refuses a malformed catalog with one line naming the rule', () => {
    expect(() => parseRules('rules:\n  - {id: X-1, section: s, level: maybe, text: t}\n')).toThrow(/X-1.*level/)
    expect(() =>
      parseRules('rules:\n  - {id: A-1, section: s, level: stated, text: t}\n  - {id: A-1, section: s, level: stated, text: t}\n'),
    ).toThrow(/duplicate/)
  })
})

describe('oec coverage', () => {
  it('exits 0 with no uncovered stated rule when the server catalog covers the server-only rules', async () => {
    const r = await runOec(['coverage', '--format', 'json'], { timeoutMs: 60_000 })
    const doc = JSON.parse(r.stdout) as { ok: boolean; uncoveredStated: string[]; serverCatalog: string; unknownRefs: unknown[] }
    expect(doc.unknownRefs).toEqual([])
    expect(doc.serverCatalog).toBe('loaded')
    // Every stated rule has a check: the vectors, the server catalog and lint cover them all.
    expect(doc.uncoveredStated).toEqual([])
    expect(doc.ok).toBe(true)
    expect(r.code).toBe(0)
  }, 90_000)

  it('counts checks from vectors, server catalog and lint, and fails on a stated gap', async () => {
    const all = loadRules().map((r) => r.id)
    const covering = await buildCoverage({
      serverCatalog: async () => [{ source: 'server', id: 'all', title: 'everything', rules: all, level: 'stated' }],
    })
    expect(covering.uncoveredStated).toEqual([])
    expect(coverageExitCode(covering)).toBe(0)
    const without = await buildCoverage({ serverCatalog: async () => undefined })
    expect(without.serverCatalog).toBe('absent')
    expect(without.uncoveredStated.map((r) => r.id)).toContain('RL-5') // only a server can send a 429
    expect(coverageExitCode(without)).toBe(1)
    const text = formatCoverageText(without)
    expect(text).toMatch(/UNCOVERED RL-5 \(stated\)/)
    expect(text).toMatch(/server runner catalog not found/)
    const typo = await buildCoverage({
      serverCatalog: async () => [{ source: 'server', id: 'x', title: 'x', rules: [...all, 'NOPE-9'], level: 'stated' }],
    })
    expect(typo.unknownRefs).toEqual([{ id: 'NOPE-9', by: 'x' }])
    expect(coverageExitCode(typo)).toBe(1)
    // Vector cases count per rule.
    expect(covering.rows.find((r) => r.rule.id === 'PO-4')!.count.vectors).toBeGreaterThan(20)
  }, 60_000)

  it('counts a rule as covered only by a check that runs in the default live configuration, else says what it takes', async () => {
    const report = await buildCoverage()
    const status = (id: string) => report.rows.find((r) => r.rule.id === id)!.status
    // Only cap.positions names CAP-2, and it skips unless the target lists cap + 1 symbols.
    const cap = shippedContract().rateLimits.tiers.default!.maxPositions
    expect(status('CAP-2')).toBe(`covered with ${cap + 1} listed symbols (or a --config wallet of a tier with a smaller positions cap)`)
    expect(status('CAP-1')).toBe('covered with --slow')
    expect(status('CAP-4')).toMatch(/^covered with a --config wallet of a tier with max positions -1 and \d+ listed symbols$/)
    expect(status('RL-6')).toBe('covered')
    expect(formatCoverageText(report)).toMatch(/rules are covered only by checks that skip in the default live run .*CAP-2/)
    // A default-live check next to a slow one makes the rule plainly covered.
    const mixed = await buildCoverage({
      serverCatalog: async () => [
        { source: 'server', id: 'slow', title: 'slow', rules: ['CAP-2'], level: 'stated', when: 'with --slow' },
        { source: 'server', id: 'live', title: 'live', rules: ['CAP-2'], level: 'stated' },
      ],
    })
    expect(mixed.rows.find((r) => r.rule.id === 'CAP-2')!.status).toBe('covered')
  }, 60_000)

  it('reads the server checks from the registry itself (a plain import: a broken check module fails loudly)', async () => {
    const loaded = await loadServerCatalog()
    expect(loaded?.map((c) => c.id)).toEqual(serverCheckCatalog().map((c) => c.id))
    const report = await buildCoverage()
    expect(report.serverCatalog).toBe('loaded')
    expect(report.sources.server).toBe(serverCheckCatalog().length)
  }, 60_000)
})
