/**
 * The time reach's pure core (src/check/explore/clock.ts): a live target's clock from its `Date`
 * headers, and Reset / Retry-After held against an answer's own `Date` within TIME_TOLERANCE_S.
 */
import { describe, expect, it } from 'vitest'
import { TargetClock, TIME_TOLERANCE_S, timeDivergences } from '../../src/check/explore/clock.ts'
import type { Observed } from '../../src/check/explore/observe.ts'

const AT = Date.UTC(2026, 10, 28, 14, 0, 30) // 30 s into a minute
const date = new Date(AT).toUTCString()
const answer = (status: number, headers: Record<string, string>): Observed => ({
  status,
  outcome: status === 429 ? 'rate' : 'accepted',
  headers: { date, ...headers },
})
const minuteEnd = AT / 1000 + 30

describe('timeDivergences', () => {
  it('a correct answer: Reset at the window end, Retry-After the seconds until it', () => {
    expect(timeDivergences(answer(200, { 'x-ratelimit-reset': String(minuteEnd) }), 60)).toEqual([])
    expect(timeDivergences(answer(429, { 'x-ratelimit-reset': String(minuteEnd), 'retry-after': '30' }), 60)).toEqual([])
    // Within the tolerance either way.
    const edge = String(30 + TIME_TOLERANCE_S)
    expect(timeDivergences(answer(429, { 'x-ratelimit-reset': String(minuteEnd), 'retry-after': edge }), 60)).toEqual([])
  })

  it('Retry-After 60 half-way through the window: RL-8, stated', () => {
    const d = timeDivergences(answer(429, { 'x-ratelimit-reset': String(minuteEnd), 'retry-after': '60' }), 60)
    expect(d.map((x) => [x.rule, x.level])).toEqual([['RL-8', 'stated']])
  })

  it('a Reset in the past or past one window ahead: RL-9; off the epoch boundary: RL-11, a warning', () => {
    expect(timeDivergences(answer(200, { 'x-ratelimit-reset': String(minuteEnd - 60) }), 60).map((x) => x.rule)).toEqual(['RL-9'])
    expect(timeDivergences(answer(200, { 'x-ratelimit-reset': String(minuteEnd + 60) }), 60).map((x) => x.rule)).toEqual(['RL-9'])
    const off = timeDivergences(answer(200, { 'x-ratelimit-reset': String(minuteEnd - 7) }), 60)
    expect(off.map((x) => [x.rule, x.level])).toEqual([['RL-11', 'assumed']])
  })

  it('no Date header: nothing to hold the values against, nothing judged', () => {
    expect(timeDivergences({ status: 429, outcome: 'rate', headers: { 'x-ratelimit-reset': '1', 'retry-after': '60' } }, 60)).toEqual([])
  })
})

describe('TargetClock', () => {
  it('takes the largest Date minus arrival: never ahead of the target, and none before a Date', () => {
    const c = new TargetClock()
    expect(c.now(0)).toBeUndefined()
    c.observe(date, 5_000)
    c.observe(new Date(AT - 3_000).toUTCString(), 5_000) // an older Date arriving as late says less
    expect(c.now(6_000)).toBe(AT + 1_000)
    c.observe('not a date', 5_000)
    expect(c.now(6_000)).toBe(AT + 1_000)
  })
})
