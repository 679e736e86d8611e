/** Verification edge cases: v forms, high-s, malformed input. Verification never throws. */
import fc from 'fast-check'
import { recoverTypedDataAddress, type TypedDataDefinition } from 'viem'
import { describe, expect, it } from 'vitest'
import { addressOf, type Hex, type OptionsMessage } from '../../src/signing/index.ts'
import { recoverPerpSigner, signOptions, signPerpAction, typedDataFor, verifyOptions } from '../helpers/shipped.ts'
import { kindMessageArb } from './arbitraries.ts'
import { forEachBackend } from './backends.ts'
import { propertyRuns } from '../helpers/mutation.ts'

const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318' as Hex
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const hex64 = (n: bigint) => n.toString(16).padStart(64, '0')
const order: OptionsMessage = {
  wallet: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
  symbol: 'ETH-20261231-4000-P',
  side: 'Sell',
  size: '2.5',
  price: '31.25',
  tif: 'ioc',
  route: 'rfq_only',
  clientId: 'c-1',
  nonce: 9007199254740993n,
}

function withV(sig: Hex, v: number): string {
  return `${sig.slice(0, 130)}${v.toString(16).padStart(2, '0')}`
}

/** The malleable twin: s' = n - s, recovery bit flipped. */
function highS(sig: Hex): Hex {
  const s = BigInt(`0x${sig.slice(66, 130)}`)
  const v = parseInt(sig.slice(130), 16)
  return `${sig.slice(0, 66)}${hex64(N - s)}${(v === 27 ? 28 : 27).toString(16)}` as Hex
}

forEachBackend((backend) => {
  describe(`verifyOptions (${backend})`, () => {
    it('accepts v as 27/28 and as 0/1', async () => {
      const { signature, digest } = await signOptions('PlaceOrder', order, KEY)
      const v = parseInt(signature.slice(130), 16)
      const want = { ok: true, signer: addressOf(KEY), digest }
      expect(verifyOptions('PlaceOrder', order, signature)).toEqual(want)
      expect(verifyOptions('PlaceOrder', order, withV(signature, v - 27))).toEqual(want)
    })

    it('rejects any other v with bad_v', async () => {
      const { signature } = await signOptions('PlaceOrder', order, KEY)
      for (const v of [2, 3, 26, 29, 35, 255]) {
        const r = verifyOptions('PlaceOrder', order, withV(signature, v))
        expect(r).toMatchObject({ ok: false, reason: 'bad_v' })
      }
    })

    it('rejects the high-s twin by default and recovers the same signer when allowed (as viem does)', async () => {
      const { signature } = await signOptions('PlaceOrder', order, KEY)
      const twin = highS(signature)
      expect(verifyOptions('PlaceOrder', order, twin)).toMatchObject({ ok: false, reason: 'high_s' })
      const allowed = verifyOptions('PlaceOrder', order, twin, { allowHighS: true })
      expect(allowed.ok && allowed.signer).toBe(addressOf(KEY))
      const viem = await recoverTypedDataAddress({
        ...(typedDataFor('PlaceOrder', order) as unknown as TypedDataDefinition),
        signature: twin,
      })
      expect(viem).toBe(addressOf(KEY))
    })

    it('puts the high-s boundary exactly at n/2: s = floor(n/2) is low, floor(n/2) + 1 is high', async () => {
      const { signature } = await signOptions('PlaceOrder', order, KEY)
      const withS = (s: bigint) => `${signature.slice(0, 66)}${hex64(s)}${signature.slice(130)}`
      const half = N >> 1n
      // The boundary value is a valid scalar: it recovers some signer, it is not refused as high-s.
      const atHalf = verifyOptions('PlaceOrder', order, withS(half))
      expect(atHalf.ok || atHalf.reason).not.toBe('high_s')
      expect(verifyOptions('PlaceOrder', order, withS(half + 1n))).toMatchObject({ ok: false, reason: 'high_s' })
      expect(verifyOptions('PlaceOrder', order, withS(N - 1n))).toMatchObject({ ok: false, reason: 'high_s' })
      expect(verifyOptions('PlaceOrder', order, withS(half + 1n), { allowHighS: true })).not.toMatchObject({ reason: 'high_s' })
    })

    it('reports malformed signatures as typed results, never throwing', async () => {
      const { signature } = await signOptions('PlaceOrder', order, KEY)
      const cases: unknown[] = [
        '',
        '0x',
        signature.slice(2),
        `${signature}00`,
        signature.slice(0, 131),
        `${signature.slice(0, 20)}zz${signature.slice(22)}`,
        42,
        null,
        undefined,
        {},
      ]
      for (const bad of cases) {
        const r = verifyOptions('PlaceOrder', order, bad as string)
        expect(r).toMatchObject({ ok: false, reason: 'malformed_signature' })
        if (!r.ok) expect(r.message).not.toContain('\n')
      }
    })

    it('r or s zero or not below n: unrecoverable', () => {
      for (const [r, s] of [
        [0n, 1n],
        [1n, 0n],
        [N, 1n],
        [1n, N],
        [(1n << 256n) - 1n, 1n],
      ] as const) {
        expect(verifyOptions('PlaceOrder', order, `0x${hex64(r)}${hex64(s)}1b`, { allowHighS: true })).toMatchObject({
          ok: false,
          reason: 'unrecoverable',
        })
      }
    })

    it('a tampered message or another domain recovers some other address', async () => {
      const { signature } = await signOptions('PlaceOrder', order, KEY)
      for (const r of [
        verifyOptions('PlaceOrder', { ...order, price: '31.250' }, signature),
        verifyOptions('PlaceOrder', { ...order, route: undefined } as unknown as OptionsMessage, signature),
        verifyOptions('PlaceOrder', order, signature, { domain: { chainId: 1 } }),
      ]) {
        expect(r.ok).toBe(true)
        expect(r.ok && r.signer).not.toBe(addressOf(KEY))
      }
    })

    it('an invalid message is a typed failure, not an exception', () => {
      expect(verifyOptions('PlaceOrder', { ...order, price: 31.25 } as unknown as OptionsMessage, '0x')).toMatchObject({ ok: false })
      expect(verifyOptions('Nope' as never, order, '0x')).toMatchObject({ ok: false })
    })

    it('random signature bytes never throw', () => {
      fc.assert(
        fc.property(
          kindMessageArb,
          fc.uint8Array({ minLength: 65, maxLength: 65 }),
          fc.boolean(),
          ({ kind, message }, bytes, allowHighS) => {
            const r = verifyOptions(kind, message, `0x${Buffer.from(bytes).toString('hex')}`, { allowHighS })
            expect(typeof r.ok).toBe('boolean')
            if (!r.ok) expect(['bad_v', 'high_s', 'unrecoverable']).toContain(r.reason)
          },
        ),
        { numRuns: propertyRuns(backend === 'native' ? 500 : 100), seed: 20261123 },
      )
    })
  })

  describe(`recoverPerpSigner (${backend})`, () => {
    const input = { action: { type: 'cancel', cancels: [{ a: 3, o: 77 }] }, nonce: 1700000000000n, isMainnet: true }
    it('recovers the signer, rejects the wrong source, domain and malformed parts', async () => {
      const sig = await signPerpAction(input, KEY)
      expect(recoverPerpSigner(input, sig)).toMatchObject({ ok: true, signer: addressOf(KEY) })
      const testnet = recoverPerpSigner({ ...input, isMainnet: false }, sig)
      expect(testnet.ok && testnet.signer).not.toBe(addressOf(KEY))
      const opts999 = recoverPerpSigner(input, sig, { domain: { chainId: 999 } })
      expect(opts999.ok && opts999.signer).not.toBe(addressOf(KEY))
      expect(recoverPerpSigner(input, { ...sig, r: 'zz' })).toMatchObject({ ok: false, reason: 'malformed_signature' })
      expect(recoverPerpSigner(input, { ...sig, v: 30 })).toMatchObject({ ok: false, reason: 'bad_v' })
      expect(recoverPerpSigner(input, { ...sig, r: `0x${'1'.repeat(65)}` })).toMatchObject({ ok: false, reason: 'malformed_signature' })
      const s = BigInt(sig.s)
      expect(recoverPerpSigner(input, { r: sig.r, s: `0x${hex64(N - s)}`, v: sig.v === 27 ? 28 : 27 })).toMatchObject({
        ok: false,
        reason: 'high_s',
      })
      expect(recoverPerpSigner(input, null as never)).toMatchObject({ ok: false, reason: 'malformed_signature' })
    })
  })
})
