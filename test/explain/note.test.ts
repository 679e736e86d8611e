/** The one-line notes the runners append to their failure messages. */
import { describe, expect, it } from 'vitest'
import { shippedContract } from '../../src/contract/load.ts'
import { explainNote, refusedRequestNote } from '../../src/explain/index.ts'
import { account, MISTAKES, placeOrder } from './independent.ts'

const contract = shippedContract()

describe('explain notes', () => {
  it('explainNote: the causes of a failing request, nothing for a valid one or unreadable input', async () => {
    expect(explainNote(contract, await placeOrder([MISTAKES[0]!]))).toBe('explain: chain_id: you signed chainId 1; the service signs 999')
    expect(explainNote(contract, await placeOrder())).toBeNull()
    expect(explainNote(contract, '{not json')).toBeNull()
  })

  it('refusedRequestNote: a request that verifies puts the blame on the server', async () => {
    expect(refusedRequestNote(contract, await placeOrder())).toBe(
      `explain: the request verifies under the contract's domain (signer ${account.address}), so the server hashes another domain or message`,
    )
    expect(refusedRequestNote(contract, await placeOrder([MISTAKES[0]!]))).toBe(
      'explain: chain_id: you signed chainId 1; the service signs 999',
    )
    // Nothing found: no note rather than an `unknown` that says nothing.
    expect(refusedRequestNote(contract, (await placeOrder()).replace('BTC-20261225-100000-C', 'ETH-20261225-4000-C'))).toBeNull()
  })
})
