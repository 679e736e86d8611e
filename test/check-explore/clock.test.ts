/**
 * The time reach's pure core (src/check/explore/clock.ts): a live target's clock from its `Date`
 * headers, Reset / Retry-After held against an answer's own `Date` within TIME_TOLERANCE_S, and
 * what a wait crosses (TimeWatch).
 */
import { describe, expect, it, vi } from 'vitest'
import { TargetClock, TIME_TOLERANCE_S, TimeWatch, timeDivergences } from '../../src/check/explore/clock.ts'
import type { Observed } from '../../src/check/explore/observe.ts'
import type { HttpExchange } from '../../src/check/target/http.ts'

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

describe('TimeWatch', () => {
  const W = '0xabc'
  const at = (ms: number) => new Date(ms).toUTCString()
  const heard = (ms: number, reset: number, remaining: number): Observed => ({
    status: 200,
    outcome: 'accepted',
    headers: { date: at(ms), 'x-ratelimit-reset': String(reset), 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': String(remaining) },
  })
  const exchange = (o: Observed): HttpExchange => ({
    request: { method: 'POST', url: 'http://t/x', headers: {} },
    response: { status: o.status, headers: o.headers, body: '' },
    durationMs: 1,
  })

  it('a wait after a burst sleeps past the window the burst charged, and the first answer after it is judged fresh', async () => {
    vi.useFakeTimers()
    vi.setSystemTime(AT)
    try {
      const wakes: number[] = []
      const watch = new TimeWatch({
        clock: new TargetClock(),
        windowSeconds: 60,
        sleep: async (wake) => {
          wakes.push(wake)
          vi.setSystemTime(wake)
        },
      })
      expect(watch.answer(heard(AT, minuteEnd, 599), W, 1)).toEqual([])
      expect(await watch.wait()).toBe(true)
      expect(wakes[0]).toBe(minuteEnd * 1000 + 1050)
      // A burst in the next window charges the wallet 4 times, its answers judged by invariants.
      const next = minuteEnd + 60
      watch.step('burst')
      watch.recorded(
        'burst',
        [598, 597, 596, 595].map((left) => exchange(heard(Date.now(), next, left))),
      )
      expect(await watch.wait()).toBe(true)
      expect(wakes[1]).toBeGreaterThanOrEqual(next * 1000 + 1000)
      // Past that window too: the first answer of the wallet shows a fresh window.
      expect(watch.answer(heard(Date.now(), next + 60, 599), W, 1)).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })

  it('a window that did not reset is RL-1 for the first answer after the wait', async () => {
    vi.useFakeTimers()
    vi.setSystemTime(AT)
    try {
      const watch = new TimeWatch({ clock: new TargetClock(), windowSeconds: 60, sleep: async (wake) => void vi.setSystemTime(wake) })
      watch.answer(heard(AT, minuteEnd, 590), W, 1)
      await watch.wait()
      const d = watch.answer(heard(Date.now(), minuteEnd + 60, 589), W, 1)
      expect(d.map((x) => x.rule)).toEqual(['RL-1'])
    } finally {
      vi.useRealTimers()
    }
  })
})
