/** The pure parts: decimals, symbol grammar, windows, config. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/errors.ts'
import { add, cmp, formatDec, parseDec, sub } from '../../src/server/decimal.ts'
import { createRateLimiter, defaultConfig, loadServerConfig, SimulatedClock } from '../../src/server/index.ts'
import { isCalendarDate } from '../../src/server/symbols.ts'
import { contract } from '../helpers/shipped.ts'

describe('decimal', () => {
  it('compares and adds exactly (differential against scaled bigints)', () => {
    const dec = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 12 })).map(([c, sc]) => {
      const digits = c.toString().padStart(sc + 1, '0')
      return sc ? `${digits.slice(0, -sc)}.${digits.slice(-sc)}` : digits
    })
    fc.assert(
      fc.property(dec, dec, (a, b) => {
        const scale = (t: string) => BigInt(t.replace('.', '') + '0'.repeat(20 - (t.split('.')[1]?.length ?? 0)))
        expect(cmp(parseDec(a), parseDec(b))).toBe(Math.sign(Number(scale(a) - scale(b))))
        expect(scale(formatDec(add(parseDec(a), parseDec(b))))).toBe(scale(a) + scale(b))
      }),
    )
  })
  it('formats canonically', () => {
    expect(formatDec(parseDec('100.0'))).toBe('100')
    expect(formatDec(sub(parseDec('1'), parseDec('1.25')))).toBe('-0.25')
    expect(formatDec(parseDec('0.000'))).toBe('0')
  })
})

describe('symbol dates', () => {
  it('knows leap years and month lengths', () => {
    expect(isCalendarDate('20240229')).toBe(true)
    expect(isCalendarDate('20260229')).toBe(false)
    expect(isCalendarDate('21000229')).toBe(false)
    expect(isCalendarDate('20000229')).toBe(true)
    expect(isCalendarDate('20261131')).toBe(false)
    expect(isCalendarDate('20261300')).toBe(false)
  })
})

describe('rate limiter', () => {
  it('fixed windows aligned to the epoch minute; all-or-nothing charges', () => {
    const rl = createRateLimiter(60)
    const clock = new SimulatedClock(120_000 + 59_000)
    const limits = { orders: 2, cancels: 5, api: 3 }
    expect(rl.charge('w', { api: 1, orders: 2 }, limits, clock.now()).ok).toBe(true)
    const refused = rl.charge('w', { api: 1, orders: 1 }, limits, clock.now())
    expect(refused).toEqual({ ok: false, category: 'orders', limit: 2, reset: 180 })
    expect(rl.status('w', 'api', 3, clock.now())).toEqual({ limit: 3, remaining: 2, reset: 180 })
    clock.advance(1000)
    expect(rl.status('w', 'orders', 2, clock.now())).toEqual({ limit: 2, remaining: 2, reset: 240 })
  })
})

describe('config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oec-server-'))
  const file = (name: string, text: string) => {
    const p = join(dir, name)
    writeFileSync(p, text)
    return p
  }
  it('defaults come from the spec', () => {
    const c = defaultConfig(contract)
    expect(c.chainId).toBe(999)
    expect(c.perpChainId).toBe(1337)
    expect(c.maxBatch).toBe(50)
    expect(c.tiers.default?.ordersPerMinute).toBe(60)
    expect(c.tiers.market_maker?.maxPositions).toBe(-1)
  })
  it('a file overrides keys; a bad key, value, tier or symbol is one line naming it', () => {
    const ok = loadServerConfig(
      file(
        'ok.json',
        '{"routeRequired":true,"symbols":["ABC-20270101-5-P"],"tiers":{"vip":{"ordersPerMinute":1,"cancelsPerMinute":1,"apiRequestsPerMinute":1,"maxOpenOrders":1,"maxPositions":-1}},"walletTiers":{"0x00000000000000000000000000000000000000AA":"vip"}}',
      ),
      contract,
    )
    expect(ok.routeRequired).toBe(true)
    expect(ok.walletTiers['0x00000000000000000000000000000000000000aa']).toBe('vip')
    expect(() => loadServerConfig(file('k.json', '{"chainID":1}'), contract)).toThrow(/unknown key "chainID"/)
    expect(() =>
      loadServerConfig(file('t.json', '{"walletTiers":{"0x00000000000000000000000000000000000000AA":"gold"}}'), contract),
    ).toThrow(/unknown tier "gold"/)
    expect(() => loadServerConfig(file('s.json', '{"symbols":["BTC-20260230-1-C"]}'), contract)).toThrow(/calendar date/)
    expect(() => loadServerConfig(file('v.json', '{"maxBatch":0}'), contract)).toThrow(InputError)
    expect(() => loadServerConfig(file('j.json', '{'), contract)).toThrow(/not JSON/)
    expect(() => loadServerConfig(join(dir, 'missing.json'), contract)).toThrow(/no such file/)
  })
})
