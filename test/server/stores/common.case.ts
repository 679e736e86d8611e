/**
 * One case suite for every implementation of the server's stores (the nonce and agent stores auth
 * depends on, and the archive of finished orders behind GET /orders), run by one test file per
 * implementation: memory.test.ts (the in-memory stores) and lmdb.test.ts (`--data`). A store that
 * answers differently from its peer fails the same case. Addresses are compared
 * case-insensitively.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import type { OrderArchive } from '../../../src/server/archive.ts'
import { MatchingEngine, type EngineObserver } from '../../../src/server/matching-engine.ts'
import type { AgentStore, NonceStore } from '../../../src/server/stores.ts'

export interface Stores {
  readonly nonces: NonceStore
  readonly agents: AgentStore
  readonly archive: OrderArchive
  /** The journal the archive reads back (`--data`), if any. */
  readonly observer?: EngineObserver
  close(): Promise<void>
}

/** Opens a fresh set of stores keeping `retain` finished orders. */
export type OpenStores = (retain: number) => Promise<Stores>

const W = '0xAbCdEf0000000000000000000000000000000001'
const OTHER = '0x00000000000000000000000000000000000000B2'
const AGENT = '0x1111111111111111111111111111111111111111'
const AGENT_MIXED = '0xAAAAaaaa00000000000000000000000000000001'
const SYMBOL = 'BTC-20261225-100000-C'

export function storeCases(name: string, openStores: OpenStores): void {
  const opened: Stores[] = []
  const open = async (retain = 10_000) => {
    const s = await openStores(retain)
    opened.push(s)
    return s
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()))
  })

  describe(`${name}: nonce store`, () => {
    it('one namespace per wallet, whatever the case of the address', async () => {
      const { nonces: s } = await open()
      expect(s.has(W, 1n)).toBe(false)
      s.consume(W, 1n)
      expect(s.has(W, 1n)).toBe(true)
      expect(s.has(W.toLowerCase(), 1n)).toBe(true)
      expect(s.has(W.toUpperCase().replace('0X', '0x'), 1n)).toBe(true)
      expect(s.has(W, 2n)).toBe(false)
      expect(s.has(OTHER, 1n)).toBe(false)
    })

    it('a second nonce of the same wallet joins the first (the set is kept, not replaced)', async () => {
      const { nonces: s } = await open()
      s.consume(W.toLowerCase(), 5n)
      s.consume(W, 6n)
      expect(s.has(W, 5n)).toBe(true)
      expect(s.has(W, 6n)).toBe(true)
      expect(s.has(W, 7n)).toBe(false)
    })

    it('answers as a Set<bigint> would, for any order of consumption over the whole uint64 range', async () => {
      const { nonces: s } = await open()
      const nonce = fc.oneof(
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.bigInt({ min: 0n, max: 40n }),
        fc.constantFrom(0n, 2n ** 64n - 1n, 2n ** 53n + 1n),
      )
      // A wallet of its own per run: one store serves every run.
      let run = 0
      fc.assert(
        fc.property(fc.array(nonce, { maxLength: 200 }), fc.array(nonce, { maxLength: 50 }), (consumed, probes) => {
          const wallet = `0x${(++run).toString(16).padStart(40, '0')}`
          const model = new Set<bigint>()
          for (const n of consumed) {
            expect(s.has(wallet, n)).toBe(model.has(n))
            s.consume(wallet, n)
            model.add(n)
          }
          for (const n of [...consumed, ...probes]) expect(s.has(wallet, n)).toBe(model.has(n))
          expect(s.has(OTHER, consumed[0] ?? 0n)).toBe(false)
        }),
        { seed: 40, numRuns: 50 },
      )
    })
  })

  describe(`${name}: agent store`, () => {
    it('approve, list, owners and isApproved ignore case; owners keep the spelling used when approving', async () => {
      const { agents: s } = await open()
      s.approve(W, AGENT_MIXED, 1000)
      expect(s.isApproved(W.toLowerCase(), AGENT_MIXED.toUpperCase().replace('0X', '0x'))).toBe(true)
      expect(s.isApproved(OTHER, AGENT_MIXED)).toBe(false)
      expect(s.list(W.toLowerCase())).toEqual([{ agent: AGENT_MIXED, approvedAtMs: 1000 }])
      expect(s.list(OTHER)).toEqual([])
      expect(s.owners(AGENT_MIXED.toLowerCase())).toEqual([W])
      expect(s.owners(OTHER)).toEqual([])
    })

    it('several agents for one owner and several owners for one agent accumulate', async () => {
      const { agents: s } = await open()
      s.approve(W, AGENT, 1)
      s.approve(W.toLowerCase(), AGENT_MIXED, 2)
      s.approve(OTHER, AGENT, 3)
      expect(s.list(W).map((r) => r.agent)).toEqual([AGENT, AGENT_MIXED])
      expect(s.owners(AGENT)).toEqual([W, OTHER])
    })

    it('revoke: true only when the agent was approved for that owner; both indexes forget it', async () => {
      const { agents: s } = await open()
      s.approve(W, AGENT, 1)
      s.approve(OTHER, AGENT, 2)
      expect(s.revoke(OTHER, AGENT_MIXED)).toBe(false)
      expect(s.revoke(W.toLowerCase(), AGENT.toUpperCase().replace('0X', '0x'))).toBe(true)
      expect(s.isApproved(W, AGENT)).toBe(false)
      expect(s.owners(AGENT)).toEqual([OTHER])
      expect(s.revoke(W, AGENT)).toBe(false)
    })

    it('knows: owners and agents of approvals and of successful revocations, in any case, and nothing else', async () => {
      const { agents: s } = await open()
      expect(s.knows(W)).toBe(false)
      s.approve(W, AGENT, 1)
      expect(s.knows(W.toLowerCase())).toBe(true)
      expect(s.knows(AGENT)).toBe(true)
      expect(s.knows(OTHER)).toBe(false)
      // A failed revocation teaches nothing.
      const { agents: fresh } = await open()
      expect(fresh.revoke(W, AGENT)).toBe(false)
      expect(fresh.knows(W)).toBe(false)
      expect(fresh.knows(AGENT)).toBe(false)
    })
  })

  describe(`${name}: archive of finished orders`, () => {
    const engineOn = (s: Stores) => new MatchingEngine([SYMBOL], () => {}, s.archive, s.observer)
    const caps = { maxOpenOrders: 100, maxPositions: -1 }
    const place = (x: MatchingEngine, clientId: string, tif: string) => {
      const out = x.place({ wallet: W, symbol: SYMBOL, side: 'Buy', size: '1', price: '1', tif, route: 'book_only', clientId }, caps, 0)
      if (out.kind === 'limit') throw new Error(out.message)
      return out.order
    }

    it('keeps the newest `retain` finished orders, forgets older ones, keeps open ones, and says so', async () => {
      const s = await open(2)
      const x = engineOn(s)
      const resting = place(x, 'open', 'gtc')
      const finished = [0, 1, 2, 3].map((i) => place(x, `ioc${i}`, 'ioc'))
      expect(finished.every((o) => o.status !== 'OPEN')).toBe(true)
      expect(x.list(W).map((o) => o.id)).toEqual([resting.id, finished[2]!.id, finished[3]!.id])
      expect(s.archive.get(finished[1]!.id)).toBeUndefined()
      expect(s.archive.get(finished[3]!.id)?.input.clientId).toBe('ioc3')
      expect(s.archive.horizon()).toEqual({ complete: false, retain: 2, forgottenThrough: finished[1]!.id })
    })

    it('forgets nothing while under `retain`: the horizon is complete', async () => {
      const s = await open(10)
      const x = engineOn(s)
      const done = place(x, 'ioc', 'ioc')
      expect(s.archive.list(W.toLowerCase()).map((o) => o.id)).toEqual([done.id])
      expect(s.archive.horizon()).toEqual({ complete: true, retain: 10, forgottenThrough: null })
    })
  })
}
