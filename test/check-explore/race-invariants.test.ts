/**
 * The invariants the mixed races judge by, on answers alone: each holds for every order of
 * arrival a correct server may choose, and fails only on answers no order can explain.
 */
import { expect, it } from 'vitest'
import { agentListing, bothCancelled, orderAfterRevoke } from '../../src/check/explore/races.ts'
import type { Observed, Outcome } from '../../src/check/explore/observe.ts'

const answer = (outcome: Outcome, status = outcome === 'accepted' ? 200 : 401): Observed => ({ status, outcome, headers: {} })
const done = answer('accepted')
const refused = answer('rejected', 200)

it('two cancels of one order: at most one done', () => {
  expect(bothCancelled('7', [done, refused])).toEqual([])
  expect(bothCancelled('7', [refused, done])).toEqual([])
  expect(bothCancelled('7', [refused, refused])).toEqual([])
  const [d] = bothCancelled('7', [done, done])
  expect([d?.rule, d?.level, d?.invariant]).toEqual(['EP-2', 'stated', true])
})

it('approve against revoke: the listing after is what one order of the done ones leaves', () => {
  for (const before of [true, false]) {
    // Both done: either order is possible, so either listing.
    expect(agentListing('0xw', before, true, true, true)).toEqual([])
    expect(agentListing('0xw', before, true, true, false)).toEqual([])
    expect(agentListing('0xw', before, true, false, true)).toEqual([])
    expect(agentListing('0xw', before, false, true, false)).toEqual([])
    expect(agentListing('0xw', before, false, false, before)).toEqual([])
  }
  expect(agentListing('0xw', false, true, false, false).map((d) => d.rule)).toEqual(['AGENT-4'])
  expect(agentListing('0xw', true, false, true, true).map((d) => d.rule)).toEqual(['AGENT-4'])
  expect(agentListing('0xw', true, false, false, false).map((d) => d.rule)).toEqual(['AGENT-4'])
})

it("an agent's order sent after its revoke was answered as done never takes effect", () => {
  expect(orderAfterRevoke('0xw', '0xa', done, answer('auth'))).toEqual([])
  // A revoke refused (say, rate-limited) leaves the agent approved: its order may go through.
  expect(orderAfterRevoke('0xw', '0xa', answer('rate', 429), done)).toEqual([])
  const [d] = orderAfterRevoke('0xw', '0xa', done, done)
  expect([d?.rule, d?.level, d?.invariant]).toEqual(['AGENT-5', 'stated', true])
})
