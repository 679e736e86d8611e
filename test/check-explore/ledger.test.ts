/** The explorer's ledger, pure: nonce picks, settling, client ids, order references, approvals and tier caps. */
import { describe, expect, it } from 'vitest'
import { Ledger } from '../../src/check/explore/ledger.ts'

const A = '0xAbC0000000000000000000000000000000000001'
const T = '0xDeF0000000000000000000000000000000000002'

describe('explore ledger', () => {
  it('fresh nonces count up from 1000; lower ones count down below the first', () => {
    const l = new Ledger({ openCap: 5 })
    expect([l.nonce(A, 'fresh'), l.nonce(A, 'fresh'), l.nonce(A, 'lower'), l.nonce(A, 'lower')]).toEqual([1000n, 1001n, 999n, 998n])
    // A gap skips 1000 ahead of the next fresh one.
    expect(l.nonce(A, 'gap')).toBe(2002n)
    expect(l.nonce(A, 'fresh')).toBe(2003n)
  })

  it('reuse is the last consumed nonce, retry the last refused one; before either they draw fresh', () => {
    const l = new Ledger({ openCap: 5 })
    expect(l.nonce(A, 'reuse')).toBe(1000n)
    expect(l.nonce(A, 'retry')).toBe(1001n)
    l.settle(A, 1000n, true)
    l.settle(A, 1001n, false)
    expect(l.nonce(A, 'reuse')).toBe(1000n)
    expect(l.nonce(A, 'retry')).toBe(1001n)
    // Each account has its own.
    expect(l.nonce(T, 'reuse')).toBe(1000n)
  })

  it('edge nonces, but a tier wallet (used before) draws fresh from the time instead', () => {
    const l = new Ledger({ openCap: 5, tierAddress: T.toLowerCase(), tierCap: 2, now: () => 1_700_000_000_000 })
    expect(l.nonce(A, 'p53')).toBe(2n ** 53n + 1n)
    expect(l.nonce(A, 'max')).toBe(2n ** 64n - 1n)
    expect(l.nonce(T, 'max')).toBe(1_700_000_000_000_000n)
    expect(l.nonce(T, 'fresh')).toBe(1_700_000_000_000_001n)
  })

  it('the open-order cap is the tier wallet tier’s (none when negative), the default for others', () => {
    expect(new Ledger({ openCap: 5, tierAddress: T, tierCap: 2 }).openCap(T.toLowerCase())).toBe(2)
    expect(new Ledger({ openCap: 5, tierAddress: T, tierCap: -1 }).openCap(T)).toBe(Number.POSITIVE_INFINITY)
    expect(new Ledger({ openCap: 5, tierAddress: T, tierCap: 2 }).openCap(A)).toBe(5)
    expect(new Ledger({ openCap: 5 }).isTierWallet(T)).toBe(false)
  })

  it('client ids: new ones are serials, repeat is the wallet’s last, empty is empty', () => {
    const l = new Ledger({ openCap: 5 })
    expect(l.clientId(0, 'repeat')).toBe('x1')
    expect(l.clientId(0, 'new')).toBe('x2')
    l.lastClientId[0] = 'x2'
    expect(l.clientId(0, 'repeat')).toBe('x2')
    expect(l.clientId(1, 'repeat')).toBe('x3')
    expect(l.clientId(0, 'empty')).toBe('')
    expect(l.serial()).toBe(4)
  })

  it('an order reference is by position modulo the orders placed; none before any or for unknown', () => {
    const l = new Ledger({ openCap: 5 })
    expect(l.ref(0)).toBeUndefined()
    l.placed.push({ wallet: 0, clientId: 'a' }, { wallet: 1, clientId: 'b' })
    expect(l.ref(3)?.clientId).toBe('b')
    expect(l.ref('unknown')).toBeUndefined()
    expect(l.ref('big')).toBeUndefined()
  })

  it('approvals: the wallets that approved an agent and did not revoke, in order', () => {
    const l = new Ledger({ openCap: 5 })
    l.approve(0, 2, true)
    l.approve(0, 1, true)
    l.approve(1, 0, true)
    l.approve(0, 2, false)
    expect(l.owners(0)).toEqual([1])
    expect(l.owners(1)).toEqual([0])
    expect(l.owners(5)).toEqual([])
  })
})
