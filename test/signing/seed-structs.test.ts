/**
 * The struct shapes come from the seed, not from our code: each signed message type is written
 * here from the seed's table (field order as listed), and viem and ethers encode it on their
 * own. Our digest must equal both. A wrong struct in our spec or signer (a field out of order,
 * the route-less variant under another primary type, a uint256 nonce) fails here, where the
 * differential tests that borrow our typed data cannot see it.
 */
import { TypedDataEncoder } from 'ethers'
import { hashTypedData } from 'viem'
import { describe, expect, it } from 'vitest'
import type { OptionsKind } from '../../src/signing/index.ts'
import { digestOf } from '../helpers/shipped.ts'

// The seed's "Signed message types (field order as listed)" table, transcribed.
const SEED: Record<string, { kind: OptionsKind; primaryType: string; fields: [string, string][] }> = {
  'PlaceOrder (with route)': {
    kind: 'PlaceOrder',
    primaryType: 'PlaceOrder',
    fields: [
      ['wallet', 'address'],
      ['symbol', 'string'],
      ['side', 'string'],
      ['size', 'string'],
      ['price', 'string'],
      ['tif', 'string'],
      ['route', 'string'],
      ['clientId', 'string'],
      ['nonce', 'uint64'],
    ],
  },
  'PlaceOrder (route omitted)': {
    kind: 'PlaceOrder',
    primaryType: 'PlaceOrder',
    fields: [
      ['wallet', 'address'],
      ['symbol', 'string'],
      ['side', 'string'],
      ['size', 'string'],
      ['price', 'string'],
      ['tif', 'string'],
      ['clientId', 'string'],
      ['nonce', 'uint64'],
    ],
  },
  CancelOrder: {
    kind: 'CancelOrder',
    primaryType: 'CancelOrder',
    fields: [
      ['wallet', 'address'],
      ['orderId', 'string'],
      ['nonce', 'uint64'],
    ],
  },
  CancelOrderByClientId: {
    kind: 'CancelOrderByClientId',
    primaryType: 'CancelOrderByClientId',
    fields: [
      ['wallet', 'address'],
      ['clientId', 'string'],
      ['nonce', 'uint64'],
    ],
  },
  ApproveAgent: {
    kind: 'ApproveAgent',
    primaryType: 'ApproveAgent',
    fields: [
      ['agent', 'address'],
      ['nonce', 'uint64'],
    ],
  },
  RevokeAgent: {
    kind: 'RevokeAgent',
    primaryType: 'RevokeAgent',
    fields: [
      ['agent', 'address'],
      ['nonce', 'uint64'],
    ],
  },
}
// The seed's options signing domain: name Service, version 1, chainId 999, the zero address.
const DOMAIN = { name: 'Service', version: '1', chainId: 999n, verifyingContract: '0x0000000000000000000000000000000000000000' } as const

const VALUES: Record<string, string | bigint> = {
  wallet: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
  agent: '0x0000000000000000000000000000000000001234',
  symbol: 'BTC-20261225-100000-C',
  side: 'Buy',
  size: '100.0',
  price: '2.5',
  tif: 'gtc',
  route: 'book_only',
  clientId: 'cl-1',
  orderId: '42',
  nonce: 18446744073709551615n,
}

describe("our digests equal viem's and ethers' over the seed's own structs", () => {
  for (const [name, seed] of Object.entries(SEED)) {
    it(name, () => {
      const message = Object.fromEntries(seed.fields.map(([f]) => [f, VALUES[f]!]))
      const types = { [seed.primaryType]: seed.fields.map(([n, type]) => ({ name: n, type })) }
      const viem = hashTypedData({ domain: DOMAIN, types, primaryType: seed.primaryType, message })
      const ethers = TypedDataEncoder.hash({ ...DOMAIN, chainId: Number(DOMAIN.chainId) }, types, message)
      expect(viem).toBe(ethers)
      expect(digestOf(seed.kind, message)).toBe(viem)
    })
  }
  it('the route-omitted struct is a different digest from the route struct (the variant matters)', () => {
    const withRoute = Object.fromEntries(SEED['PlaceOrder (with route)']!.fields.map(([f]) => [f, VALUES[f]!]))
    const { route: _dropped, ...withoutRoute } = withRoute
    expect(digestOf('PlaceOrder', withRoute)).not.toBe(digestOf('PlaceOrder', withoutRoute))
  })
})
