/** fast-check generators for signing tests: messages of every kind, domains, keys, nonces. */
import fc from 'fast-check'
import { getAddress } from 'viem'
import type { DomainOverrides, Hex, OptionsKind, OptionsMessage } from '../../src/signing/index.ts'

export const UINT64_MAX = (1n << 64n) - 1n
export const BOUNDARY_NONCES = [0n, 1n, (1n << 53n) - 1n, 1n << 53n, (1n << 53n) + 1n, 1n << 63n, UINT64_MAX - 1n, UINT64_MAX]

export const nonceArb = fc.oneof(fc.constantFrom(...BOUNDARY_NONCES), fc.bigInt({ min: 0n, max: UINT64_MAX }))

/** Any Unicode text (empty included), plus ASCII-heavy decimals so size/price look real sometimes. */
export const textArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constant(''),
  fc.stringMatching(/^(0|[1-9][0-9]{0,8})(\.[0-9]{1,8})?$/),
)

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}` as Hex

/** Lowercase or EIP-55 checksummed (viem refuses mixed case with a wrong checksum). */
export const addressArb = fc
  .tuple(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.boolean())
  .map(([b, checksummed]) => (checksummed ? getAddress(hex(b)) : hex(b)))

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
export const keyArb = fc.bigInt({ min: 1n, max: N - 1n }).map((k) => `0x${k.toString(16).padStart(64, '0')}` as Hex)

export const kindArb = fc.constantFrom<OptionsKind>('PlaceOrder', 'CancelOrder', 'CancelOrderByClientId', 'ApproveAgent', 'RevokeAgent')

export function messageArb(kind: OptionsKind): fc.Arbitrary<OptionsMessage> {
  switch (kind) {
    case 'PlaceOrder':
      return fc
        .record({
          wallet: addressArb,
          symbol: textArb,
          side: textArb,
          size: textArb,
          price: textArb,
          tif: textArb,
          route: fc.option(textArb, { nil: undefined }),
          clientId: textArb,
          nonce: nonceArb,
        })
        .map((m) => {
          const { route, ...rest } = m
          return route === undefined ? rest : { ...rest, route }
        })
    case 'CancelOrder':
      return fc.record({ wallet: addressArb, orderId: textArb, nonce: nonceArb })
    case 'CancelOrderByClientId':
      return fc.record({ wallet: addressArb, clientId: textArb, nonce: nonceArb })
    case 'ApproveAgent':
    case 'RevokeAgent':
      return fc.record({ agent: addressArb, nonce: nonceArb })
  }
}

export const kindMessageArb = kindArb.chain((kind) => messageArb(kind).map((message) => ({ kind, message })))

/** Undefined (spec default), or overrides of any subset of the four fields. */
export const domainArb: fc.Arbitrary<DomainOverrides | undefined> = fc.option(
  fc.record(
    {
      name: textArb,
      version: textArb,
      chainId: fc.oneof(fc.constantFrom(1n, 999n, 1337n), fc.bigInt({ min: 0n, max: (1n << 256n) - 1n })),
      verifyingContract: addressArb,
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
)
