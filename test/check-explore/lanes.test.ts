/**
 * A live shard's lanes (src/check/explore/lanes.ts): one sequence sends at a time, a sleeper lets
 * another run, and the oracle's clock moves only while no sequence holds the turn.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Lanes } from '../../src/check/explore/lanes.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** Lanes whose advances are logged, with whether a lane held the turn when each came. */
function logged() {
  const log: string[] = []
  let holding = 0
  const lanes = new Lanes(() => log.push(`advance (${holding} holding)`))
  const hold = async (name: string) => {
    await lanes.turn()
    holding++
    log.push(`${name} turn`)
  }
  const release = (name: string) => {
    holding--
    log.push(`${name} release`)
    lanes.release()
  }
  const sleep = async (name: string, ms: number) => {
    holding--
    log.push(`${name} sleeps`)
    await lanes.sleep(Date.now() + ms)
    holding++
    log.push(`${name} wakes`)
  }
  return { lanes, log, hold, release, sleep }
}

describe('Lanes', () => {
  it('gives the turn to one lane at a time, in the order asked', async () => {
    const { log, hold, release } = logged()
    const a = hold('a')
    const b = hold('b')
    await a
    await vi.advanceTimersByTimeAsync(10)
    expect(log).toEqual(['a turn'])
    release('a')
    await b
    expect(log).toEqual(['a turn', 'a release', 'b turn'])
  })

  it('another lane runs while one sleeps; the clock moves once the sleeper is due and nobody holds the turn', async () => {
    const { log, hold, release, sleep } = logged()
    await hold('a')
    const b = hold('b')
    const aSlept = sleep('a', 1000)
    await b
    // b holds the turn past a's wake: the clock must not move under b's sequence.
    await vi.advanceTimersByTimeAsync(1500)
    expect(log).toEqual(['a turn', 'a sleeps', 'b turn'])
    release('b')
    await aSlept
    expect(log).toEqual(['a turn', 'a sleeps', 'b turn', 'b release', 'advance (0 holding)', 'a wakes'])
  })

  it('a lone sleeper wakes at its time, after one advance', async () => {
    const { log, hold, release, sleep } = logged()
    await hold('a')
    const slept = sleep('a', 2000)
    await vi.advanceTimersByTimeAsync(1999)
    expect(log).toEqual(['a turn', 'a sleeps'])
    await vi.advanceTimersByTimeAsync(1)
    await slept
    expect(log).toEqual(['a turn', 'a sleeps', 'advance (0 holding)', 'a wakes'])
    release('a')
  })

  it('a sleeper not yet due sleeps on through an earlier one’s advance, then wakes at the next', async () => {
    const { log, hold, release, sleep } = logged()
    await hold('a')
    const aSlept = sleep('a', 1000)
    await hold('b')
    const bSlept = sleep('b', 3000)
    await vi.advanceTimersByTimeAsync(1000)
    await aSlept
    release('a')
    await vi.advanceTimersByTimeAsync(1000)
    expect(log.filter((l) => l.startsWith('advance'))).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1000)
    await bSlept
    release('b')
    expect(log).toEqual([
      'a turn',
      'a sleeps',
      'b turn',
      'b sleeps',
      'advance (0 holding)',
      'a wakes',
      'a release',
      'advance (0 holding)',
      'b wakes',
      'b release',
    ])
  })

  it('a resumed sleeper goes before the lanes waiting to start a sequence', async () => {
    const { log, hold, release, sleep } = logged()
    await hold('a')
    const aSlept = sleep('a', 500)
    await hold('b')
    const c = hold('c')
    await vi.advanceTimersByTimeAsync(600)
    release('b')
    await aSlept
    release('a')
    await c
    expect(log.slice(-5)).toEqual(['b release', 'advance (0 holding)', 'a wakes', 'a release', 'c turn'])
  })
})
