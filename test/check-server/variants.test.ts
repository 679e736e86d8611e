/**
 * Every assumption-variant server passes the whole slow suite with no failure: where the seed
 * is silent, another reasonable choice may earn warnings, never a failure. Beside broken.test.ts,
 * where every broken server is still caught.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { runServerChecks } from '../../src/check/server/index.ts'
import { reference, type Target } from '../fixtures/broken-servers.ts'
import { VARIANT_SERVERS } from '../fixtures/variant-servers.ts'

const open: Target[] = []
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()))
})

describe('assumption-variant servers pass', () => {
  it('has at least 15 variants with distinct names', () => {
    expect(VARIANT_SERVERS.length).toBeGreaterThanOrEqual(15)
    expect(new Set(VARIANT_SERVERS.map((v) => v.name)).size).toBe(VARIANT_SERVERS.length)
  })

  for (const v of VARIANT_SERVERS) {
    it(`${v.name} (${v.how}): 0 failures`, async () => {
      const t = await v.start()
      open.push(t)
      expect(await v.effect(t), 'the variant choice is in effect').toBe(true)
      const { summary } = await runServerChecks({
        target: t.url,
        clock: t.clock,
        symbols: t.symbols,
        slow: true,
        ...(t.tierWallets ? { tierWallets: t.tierWallets } : {}),
      })
      const failed = summary.results.filter((r) => r.outcome === 'fail')
      expect(failed.map((r) => `${r.id}: ${r.message}`)).toEqual([])
      expect(summary.results.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(250)
      const warned = summary.results.filter((r) => r.outcome === 'warn').length
      console.log(`variant "${v.name}": ${summary.results.length} cases, ${warned} warnings`)
      await t.close()
      open.splice(open.indexOf(t), 1)
    }, 120_000)
  }
})

describe('each variant differs from the reference server', () => {
  it('no variant effect shows on the reference server (each probe can fail)', async () => {
    const t = await reference()
    open.push(t)
    const shown = []
    for (const v of VARIANT_SERVERS) if (await v.effect(t)) shown.push(v.name)
    expect(shown).toEqual([])
    await t.close()
    open.splice(open.indexOf(t), 1)
  }, 60_000)
})
