/**
 * A live book read as a step left it (state.ts `explainedLive`): what another client may have done
 * during the step is no verdict; a level the target already showed at the step's sync and the
 * reference no longer holds (a filled maker's level kept) still is.
 */
import { describe, expect, it } from 'vitest'
import { explainedLive } from '../../src/check/explore/state.ts'

type L = [price: string, size: string][]
const levels = (l: L) => l.map(([price, size]) => ({ price, size }))
const env = (bids: L, asks: L) => ({ jsonrpc: '2.0', result: { bids: levels(bids), asks: levels(asks) } })
const sync = (bids: L, asks: L) => ({ bids: levels(bids), asks: levels(asks) })

describe('explainedLive', () => {
  it('an ask another client rested since the sync is no verdict', () => {
    expect(explainedLive(env([], [['1', '2']]), env([], []), sync([], []))).toBe(true)
    // Only as much as arrived: a surplus beyond it is not explained.
    expect(explainedLive(env([], [['1', '3']]), env([], []), sync([], [['1', '1']]))).toBe(false)
  })

  it('a level the target showed at the sync and the reference has since taken is a verdict (filled level kept)', () => {
    expect(explainedLive(env([['5', '1']], []), env([], []), sync([['5', '1']], []))).toBe(false)
  })

  it('less at a price than the reference (another client took from ours) is no verdict, with or without a sync', () => {
    expect(explainedLive(env([['5', '1']], []), env([['5', '2']], []), undefined)).toBe(true)
    expect(explainedLive(env([['5', '1']], []), env([], []), undefined)).toBe(false)
  })

  it('a book that is not a list of levels is never explained', () => {
    expect(explainedLive({ jsonrpc: '2.0', result: { bids: 'x', asks: [] } } as never, env([], []), undefined)).toBe(false)
  })
})
