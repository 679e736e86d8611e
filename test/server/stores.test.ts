/** The nonce and agent stores auth depends on, directly: keys are addresses compared case-insensitively. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAgentStore, createNonceStore } from '../../src/server/stores.ts'

const W = '0xAbCdEf0000000000000000000000000000000001'
const OTHER = '0x00000000000000000000000000000000000000B2'

describe('nonce store', () => {
  it('one namespace per wallet, whatever the case of the address', () => {
    const s = createNonceStore()
    expect(s.has(W, 1n)).toBe(false)
    s.consume(W, 1n)
    expect(s.has(W, 1n)).toBe(true)
    expect(s.has(W.toLowerCase(), 1n)).toBe(true)
    expect(s.has(W.toUpperCase().replace('0X', '0x'), 1n)).toBe(true)
    expect(s.has(W, 2n)).toBe(false)
    expect(s.has(OTHER, 1n)).toBe(false)
  })

  it('a second nonce of the same wallet joins the first (the set is kept, not replaced)', () => {
    const s = createNonceStore()
    s.consume(W.toLowerCase(), 5n)
    s.consume(W, 6n)
    expect(s.has(W, 5n)).toBe(true)
    expect(s.has(W, 6n)).toBe(true)
    expect(s.has(W, 7n)).toBe(false)
  })
})

describe('nonce store, compact sets', () => {
  it('answers as a Set<bigint> would, for any order of consumption over the whole uint64 range', () => {
    const nonce = fc.oneof(
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      fc.bigInt({ min: 0n, max: 40n }),
      fc.constantFrom(0n, 2n ** 64n - 1n, 2n ** 53n + 1n),
    )
    fc.assert(
      fc.property(fc.array(nonce, { maxLength: 200 }), fc.array(nonce, { maxLength: 50 }), (consumed, probes) => {
        const s = createNonceStore()
        const model = new Set<bigint>()
        for (const n of consumed) {
          expect(s.has(W, n)).toBe(model.has(n))
          s.consume(W, n)
          model.add(n)
        }
        for (const n of [...consumed, ...probes]) expect(s.has(W, n)).toBe(model.has(n))
        expect(s.has(OTHER, consumed[0] ?? 0n)).toBe(false)
      }),
    )
  })
})

describe('agent store', () => {
  const AGENT = '0x1111111111111111111111111111111111111111'
  const AGENT_MIXED = '0xAAAAaaaa00000000000000000000000000000001'

  it('approve, list, owners and isApproved ignore case; owners keep the spelling used when approving', () => {
    const s = createAgentStore()
    s.approve(W, AGENT_MIXED, 1000)
    expect(s.isApproved(W.toLowerCase(), AGENT_MIXED.toUpperCase().replace('0X', '0x'))).toBe(true)
    expect(s.isApproved(OTHER, AGENT_MIXED)).toBe(false)
    expect(s.list(W.toLowerCase())).toEqual([{ agent: AGENT_MIXED, approvedAtMs: 1000 }])
    expect(s.list(OTHER)).toEqual([])
    expect(s.owners(AGENT_MIXED.toLowerCase())).toEqual([W])
    expect(s.owners(OTHER)).toEqual([])
  })

  it('several agents for one owner and several owners for one agent accumulate', () => {
    const s = createAgentStore()
    s.approve(W, AGENT, 1)
    s.approve(W.toLowerCase(), AGENT_MIXED, 2)
    s.approve(OTHER, AGENT, 3)
    expect(s.list(W).map((r) => r.agent)).toEqual([AGENT, AGENT_MIXED])
    expect(s.owners(AGENT)).toEqual([W, OTHER])
  })

  it('revoke: true only when the agent was approved for that owner; both indexes forget it', () => {
    const s = createAgentStore()
    s.approve(W, AGENT, 1)
    s.approve(OTHER, AGENT, 2)
    expect(s.revoke(OTHER, AGENT_MIXED)).toBe(false)
    expect(s.revoke(W.toLowerCase(), AGENT.toUpperCase().replace('0X', '0x'))).toBe(true)
    expect(s.isApproved(W, AGENT)).toBe(false)
    expect(s.owners(AGENT)).toEqual([OTHER])
    expect(s.revoke(W, AGENT)).toBe(false)
  })

  it('knows: owners and agents of approvals and of successful revocations, in any case, and nothing else', () => {
    const s = createAgentStore()
    expect(s.knows(W)).toBe(false)
    s.approve(W, AGENT, 1)
    expect(s.knows(W.toLowerCase())).toBe(true)
    expect(s.knows(AGENT)).toBe(true)
    expect(s.knows(OTHER)).toBe(false)
    // A failed revocation teaches nothing.
    const fresh = createAgentStore()
    expect(fresh.revoke(W, AGENT)).toBe(false)
    expect(fresh.knows(W)).toBe(false)
    expect(fresh.knows(AGENT)).toBe(false)
  })
})
