/**
 * Differential tests: digests, signatures and recovered signers equal viem's and ethers'
 * (an independent EIP-712 implementation) over thousands of random messages of every kind,
 * under random domains, on both crypto backends.
 */
import { TypedDataEncoder, Wallet } from 'ethers'
import fc from 'fast-check'
import { hashTypedData, recoverTypedDataAddress, type TypedDataDefinition } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { addressOf, exactDomain, parseBody, type Hex } from '../../src/signing/index.ts'
import { buildRequest, digestOf, messageFromBody, optionsDomain, signOptions, typedDataFor, verifyOptions } from '../helpers/shipped.ts'
import { domainArb, keyArb, kindMessageArb } from './arbitraries.ts'
import { forEachBackend } from './backends.ts'
import { propertyRuns } from '../helpers/mutation.ts'

const viemTyped = (t: ReturnType<typeof typedDataFor>) => t as unknown as TypedDataDefinition
const ethersDomain = (d: ReturnType<typeof typedDataFor>['domain']) => ({ ...d }) as Record<string, unknown>

forEachBackend((backend) => {
  const heavy = backend === 'native'
  describe(`differential vs viem and ethers (${backend})`, () => {
    it('digests equal viem hashTypedData and ethers TypedDataEncoder.hash', () => {
      fc.assert(
        fc.property(kindMessageArb, domainArb, ({ kind, message }, domain) => {
          const ours = digestOf(kind, message, domain)
          const typed = typedDataFor(kind, message, domain)
          expect(ours).toBe(hashTypedData(viemTyped(typed)))
          expect(ours).toBe(TypedDataEncoder.hash(ethersDomain(typed.domain) as never, typed.types, typed.message))
        }),
        { numRuns: propertyRuns(heavy ? 1000 : 300), seed: 20261123 },
      )
    })

    it('exact domains (any subset of fields, verifyingContract omitted) hash like viem and ethers', () => {
      fc.assert(
        fc.property(kindMessageArb, domainArb, ({ kind, message }, d) => {
          const domain = exactDomain(d ?? {})
          const typed = typedDataFor(kind, message, domain)
          expect(Object.keys(typed.domain).sort()).toEqual(Object.keys(d ?? {}).sort())
          const ours = digestOf(kind, message, domain)
          expect(ours).toBe(hashTypedData(viemTyped(typed)))
          expect(ours).toBe(TypedDataEncoder.hash(ethersDomain(typed.domain) as never, typed.types, typed.message))
        }),
        { numRuns: propertyRuns(heavy ? 300 : 100), seed: 20261123 },
      )
    })

    it('signatures equal viem and ethers; verify recovers the key address like viem', async () => {
      await fc.assert(
        fc.asyncProperty(kindMessageArb, domainArb, keyArb, async ({ kind, message }, domain, key) => {
          const { digest, signature } = await signOptions(kind, message, key, domain)
          const typed = typedDataFor(kind, message, domain)
          const account = privateKeyToAccount(key)
          expect(signature).toBe(await account.signTypedData(viemTyped(typed)))
          expect(signature).toBe(await new Wallet(key).signTypedData(ethersDomain(typed.domain) as never, typed.types, typed.message))
          const v = verifyOptions(kind, message, signature, { ...(domain ? { domain } : {}) })
          expect(v).toEqual({ ok: true, signer: account.address, digest })
          expect(await recoverTypedDataAddress({ ...viemTyped(typed), signature })).toBe(account.address)
          expect(addressOf(key)).toBe(account.address)
        }),
        { numRuns: propertyRuns(heavy ? 100 : 30), seed: 20261123 },
      )
    })

    it('a viem LocalAccount signer gives the same signature as the raw key', async () => {
      await fc.assert(
        fc.asyncProperty(kindMessageArb, keyArb, async ({ kind, message }, key) => {
          const a = await signOptions(kind, message, key)
          const b = await signOptions(kind, message, privateKeyToAccount(key))
          expect(b).toEqual(a)
        }),
        { numRuns: propertyRuns(20), seed: 20261123 },
      )
    })

    it('built bodies re-parse losslessly to exactly the signed fields and verify', async () => {
      await fc.assert(
        fc.asyncProperty(kindMessageArb, keyArb, async ({ kind, message }, key) => {
          const r = await buildRequest(kind, message, key)
          const parsed = parseBody(r.body)
          if (!parsed.ok) throw new Error(parsed.message)
          expect(messageFromBody(kind, parsed)).toEqual(message)
          // The nonce text is written digit for digit from the bigint.
          expect(parsed.numbers.get('/nonce')).toBe(String(message.nonce))
          expect((parsed.value as Record<string, unknown>).signature).toBe(r.signature)
          const v = verifyOptions(kind, messageFromBody(kind, parsed), r.signature)
          expect(v.ok && v.signer).toBe(addressOf(key))
        }),
        { numRuns: propertyRuns(heavy ? 200 : 50), seed: 20261123 },
      )
    })
  })
})

describe('defaults come from the spec', () => {
  it('options domain is Service/1/999/zero address and matches a hand-written viem domain', () => {
    expect(optionsDomain()).toEqual({
      name: 'Service',
      version: '1',
      chainId: 999n,
      verifyingContract: '0x0000000000000000000000000000000000000000',
    })
    const message = { wallet: '0x0000000000000000000000000000000000000001' as Hex, orderId: '1', nonce: 1n }
    const viemDigest = hashTypedData({
      domain: { name: 'Service', version: '1', chainId: 999, verifyingContract: '0x0000000000000000000000000000000000000000' },
      types: {
        CancelOrder: [
          { name: 'wallet', type: 'address' },
          { name: 'orderId', type: 'string' },
          { name: 'nonce', type: 'uint64' },
        ],
      },
      primaryType: 'CancelOrder',
      message,
    })
    expect(digestOf('CancelOrder', message)).toBe(viemDigest)
  })
})
