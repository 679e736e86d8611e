/**
 * The memos of the EIP-712 encoder change speed, never results: a domain with a field absent is
 * not the domain with that field empty, and the string-hash memo can be resized or turned off.
 */
import { hashDomain } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { compileStruct, domainSeparator, domainTypeOf, hashStruct, setStringHashCache } from '../../src/signing/eip712.ts'
import { toHex } from '../../src/signing/hex.ts'
import { optionsDomain, separatorFor } from '../helpers/shipped.ts'

const viemSeparator = (domain: Record<string, unknown>) => hashDomain({ domain, types: { EIP712Domain: domainTypeOf(domain) } } as never)

describe('domain separators', () => {
  it('absent and empty fields are different domains, whatever was computed before', () => {
    const domains: Record<string, unknown>[] = [
      { version: '1', chainId: 1n },
      { name: '', version: '1', chainId: 1n },
      { name: 'a', chainId: 1n },
      { name: 'a', version: '', chainId: 1n },
      { name: 'a', version: '1' },
      { name: 'a', version: '1', chainId: 0n },
      { name: 'a', version: '1', chainId: 1n, verifyingContract: '0x1111111111111111111111111111111111111111' },
      { name: 'ab', version: '1', chainId: 1n },
      { name: 'a', version: 'b1', chainId: 1n },
    ]
    for (const round of [1, 2]) {
      for (const d of domains)
        expect(toHex(domainSeparator(d)), `${JSON.stringify(d, (_k, v) => String(v))} round ${round}`).toBe(viemSeparator(d))
    }
    // The verifying contract's letter case does not matter.
    const lower = { name: 'a', verifyingContract: '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd' }
    const mixed = { name: 'a', verifyingContract: '0xABCDEFabcdefabcdefabcdefabcdefabcdefabcd' }
    expect(domainSeparator(mixed as never)).toEqual(domainSeparator(lower as never))
  })
})

describe('separators of domain overrides', () => {
  it('a frozen override keeps its own separator per domain key; an unfrozen one is read each call', () => {
    const one = Object.freeze({ chainId: 1 })
    const two = Object.freeze({ chainId: 2 })
    for (const round of [1, 2]) {
      expect(toHex(separatorFor('options', one)), `round ${round}`).toBe(viemSeparator({ ...optionsDomain(), chainId: 1n }))
      expect(toHex(separatorFor('options', two)), `round ${round}`).toBe(viemSeparator({ ...optionsDomain(), chainId: 2n }))
    }
    // Mutable overrides are never memoised by identity: a change between calls is seen.
    const mutable: { chainId: number } = { chainId: 1 }
    expect(toHex(separatorFor('options', mutable))).toBe(viemSeparator({ ...optionsDomain(), chainId: 1n }))
    mutable.chainId = 3
    expect(toHex(separatorFor('options', mutable))).toBe(viemSeparator({ ...optionsDomain(), chainId: 3n }))
  })
})

describe('string-hash memo', () => {
  const struct = compileStruct('S', [
    { name: 'a', type: 'string' },
    { name: 'b', type: 'string' },
  ])
  const long = 'x'.repeat(200)
  const hashes = () => [
    toHex(hashStruct(struct, { a: 'one', b: 'two' })),
    toHex(hashStruct(struct, { a: long, b: `${long}y` })),
    toHex(hashStruct(struct, { a: 'two', b: 'one' })),
  ]
  const reference = hashes()
  afterAll(() => setStringHashCache(8192))

  it('setStringHashCache returns the previous size, floors it and treats negatives as off', () => {
    const before = setStringHashCache(2.9)
    expect(before).toBe(8192)
    expect(setStringHashCache(-5)).toBe(2)
    expect(setStringHashCache(1)).toBe(0)
    expect(setStringHashCache(8192)).toBe(1)
  })

  it('hashes are the same with the memo off, tiny (evicting) or large', () => {
    for (const size of [0, 1, 2, 8192]) {
      setStringHashCache(size)
      for (let i = 0; i < 3; i++) expect(hashes(), `size ${size}`).toEqual(reference)
    }
  })
})
