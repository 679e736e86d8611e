/**
 * Mixed races: the owner's cancel and another wallet's taking order sent to the target at once.
 * Which wins is the target's call; a cancel answered as done for an order that filled in full is
 * a lost update whatever the order of arrival, and the explorer says so on the target's answers
 * alone. A correct server gives no finding, whichever request it took first, from this race, from
 * every mixed race (two cancels, approve against revoke, an agent's order against its revoke) and
 * from replays of their requests.
 */
import { afterAll, expect, it } from 'vitest'
import type { Pair } from '../../src/check/explore/pair.ts'
import { explorePair } from '../helpers/explore-pair.ts'
import { ExploreSession } from '../../src/check/explore/session.ts'
import type { Step } from '../../src/check/explore/steps.ts'
import { HttpClient } from '../../src/check/target/http.ts'
import { walletDeriver } from '../../src/check/target/wallets.ts'
import { shippedContract } from '../../src/contract/index.ts'
import { SimulatedClock, startServer, type RunningServer } from '../../src/server/index.ts'
import { reference, type Target } from '../fixtures/broken-servers.ts'
import { cancelLostToFill } from './faults.ts'

const _spec = shippedContract()
const closing: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of closing) await c()
})

async function pairWith(target: Target): Promise<Pair> {
  closing.push(() => target.close())
  const oracle: RunningServer = await startServer({ config: { log: false }, deps: { clock: new SimulatedClock(Date.UTC(2026, 0, 5, 12)) } })
  closing.push(() => oracle.close())
  const http = new HttpClient(target.url)
  closing.push(async () => http.close())
  return explorePair(http, oracle)
}

const resting: Step = {
  op: 'order',
  wallet: 0,
  signer: 'self',
  order: { symbol: 0, side: 'Buy', size: '2', price: '5', tif: 'gtc', route: 'book_only', clientId: 'new' },
  nonce: 'fresh',
  sig: 'none',
}
const race: Step = { op: 'race', ref: 0, taker: 1 }

it('a cancel answered CANCELED for an order that filled in full meanwhile fails EP-2 on the target alone', async () => {
  const s = new ExploreSession(await pairWith(await cancelLostToFill()), walletDeriver(11, 'race'))
  expect(await s.run(resting)).toEqual([])
  const v = await s.run(race)
  expect(v).not.toBe('rolled')
  const found = v as Exclude<typeof v, 'rolled'>
  expect(found.map((d) => [d.rule, d.level, d.invariant])).toContainEqual(['EP-2', 'stated', true])
  expect(found.find((d) => d.rule === 'EP-2')!.what).toMatch(/answered 200 as done, and the order filled in full \(FILLED, 2 of 2\)/)
})

it('a correct server: no finding from the race, in either order of arrival', async () => {
  for (const seed of [1, 2, 3]) {
    const s = new ExploreSession(await pairWith(await reference()), walletDeriver(seed, 'race-ok'))
    expect(await s.run(resting)).toEqual([])
    const v = await s.run(race)
    expect(v === 'rolled' ? [] : v).toEqual([])
  }
})

it('a correct server: no finding from any mixed race, whichever wallet and agent, and a replay of each', async () => {
  for (const race of ['cancel-cancel', 'approve-revoke', 'order-revoke'] as const)
    for (const [wallet, agent] of [
      [0, 0],
      [1, 1],
    ] as const) {
      const s = new ExploreSession(await pairWith(await reference()), walletDeriver(wallet * 2 + agent, `mixed-${race}`))
      // Twice: the second meets the state the first left (an order cancelled, an agent revoked or approved).
      for (const step of [
        { op: 'mixed', race, wallet, agent },
        { op: 'mixed', race, wallet, agent },
        ...[0, 1, 2, 3].map((at) => ({ op: 'replay', at })),
      ] as Step[]) {
        const v = await s.run(step)
        expect(v === 'rolled' ? [] : v, `${race} w${wallet} a${agent}: ${JSON.stringify(step)}`).toEqual([])
      }
      // The race ran: it sent its requests to both sides.
      expect(s.trace.filter((t) => t.step.op === 'mixed').flatMap((t) => t.target).length).toBeGreaterThanOrEqual(3)
    }
})
