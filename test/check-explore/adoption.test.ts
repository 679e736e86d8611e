/**
 * After an allowed (assumed) difference the sequence goes on: the parties it touched are adopted
 * (the target's choice stands for both sides) and judged on the target's answers alone from then
 * on, so a stated fault further down the same sequence is still found, and a party the
 * difference did not touch is still compared answer for answer.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { InProcessClient } from '../../src/check/explore/in-process.ts'
import type { Pair } from '../../src/check/explore/pair.ts'
import { explorePair } from '../helpers/explore-pair.ts'
import { ExploreSession } from '../../src/check/explore/session.ts'
import type { OrderSpec, Step } from '../../src/check/explore/steps.ts'
import { missingSymbolFor } from '../../src/check/target/world.ts'
import { walletDeriver } from '../../src/check/target/wallets.ts'
import { shippedContract } from '../../src/contract/index.ts'
import { SimulatedClock, startServer, type RunningServer, type ServerDeps } from '../../src/server/index.ts'

const _spec = shippedContract()
const servers: RunningServer[] = []
let pair: Pair

async function serve(deps: Partial<ServerDeps> = {}, instruments?: readonly string[]): Promise<RunningServer> {
  const config = { log: false, ...(instruments ? { instruments: [...instruments] } : {}) }
  const server = await startServer({ config, deps: { clock: new SimulatedClock(Date.UTC(2026, 0, 5, 12)), ...deps } })
  servers.push(server)
  return server
}

beforeAll(async () => {
  const oracle = await serve()
  const instruments = oracle.config.instruments
  // The target makes one other allowed choice (it lists one more instrument than the reference,
  // so an order there rests where the reference refuses it) and has one stated fault (it never
  // remembers a nonce).
  const target = await serve({ nonces: { has: () => false, consume: () => {} } }, [...instruments, missingSymbolFor(instruments)])
  pair = explorePair(new InProcessClient(target), oracle)
})
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})

const order = (symbol: OrderSpec['symbol']): OrderSpec => ({
  symbol,
  side: 'Buy',
  size: '1',
  price: '1',
  tif: 'gtc',
  route: 'book_only',
  clientId: 'new',
})
const place = (wallet: number, symbol: OrderSpec['symbol'], nonce: 'fresh' | 'reuse'): Step => ({
  op: 'order',
  wallet,
  signer: 'self',
  order: order(symbol),
  nonce,
  sig: 'none',
})

it('an allowed difference adopts its party; a stated fault of that party further on is still found', async () => {
  const s = new ExploreSession(pair, walletDeriver(7, 'adoption'))
  const first = await s.run(place(0, 'unlisted', 'fresh'))
  expect(first).not.toBe('rolled')
  const allowed = first as Exclude<typeof first, 'rolled'>
  expect(allowed.length).toBeGreaterThan(0)
  expect(allowed.every((d) => d.level === 'assumed')).toBe(true)

  // Wallet 0's later answers are the target's alone: its listing (the target's resting order the
  // reference refused), a cancel of that order and an ordinary order show nothing...
  expect(await s.run({ op: 'read', what: 'orders', wallet: 0, symbol: 0 })).toEqual([])
  expect(await s.run({ op: 'cancel', wallet: 0, signer: 'self', by: 'oid', ref: 0, nonce: 'fresh' })).toEqual([])
  expect(await s.run(place(0, 0, 'fresh'))).toEqual([])
  // ...but the nonce it took, taken a second time, breaks a stated rule on the target by itself.
  const again = await s.run(place(0, 0, 'reuse'))
  expect(again).not.toBe('rolled')
  const stated = (again as Exclude<typeof again, 'rolled'>).filter((d) => d.level === 'stated')
  expect(stated.map((d) => d.rule)).toContain('NONCE-2')
})

it('a party the allowed difference did not touch is still compared answer for answer', async () => {
  const s = new ExploreSession(pair, walletDeriver(8, 'adoption'))
  await s.run(place(0, 'unlisted', 'fresh'))
  await s.run(place(1, 0, 'fresh'))
  const reuse = await s.run(place(1, 0, 'reuse'))
  expect(reuse).not.toBe('rolled')
  const found = reuse as Exclude<typeof reuse, 'rolled'>
  // The comparison (the reference refuses the reused nonce, the target takes it) beside the invariant.
  // The answers' own words first: the order status and the error code.
  const compared = found.filter((d) => d.rule === 'NONCE-2' && !d.invariant).map((d) => d.what)
  expect(compared).toHaveLength(1)
  expect(compared[0]).toMatch(/^target: 200 accepted \(ACKED\); reference: 409 nonce \([a-z_]+\)$/)
  expect(found.some((d) => d.invariant)).toBe(true)
})
