/** Signature encodings and key/hex validation, directly: every branch with its exact result or message. */
import { describe, expect, it } from 'vitest'
import { hexBytes, isHex, privateKeyBytes, toHex, typeOf } from '../../src/signing/hex.ts'
import { addressOf, checkPrivateKey } from '../../src/signing/keys.ts'
import {
  checksum,
  HALF_N,
  highSTwin,
  isHighS,
  joinSignature,
  malformedSignatureReason,
  recoverDigest,
  recoverSignature,
  SECP256K1_N,
  signDigest,
  splitSignature,
  withVForm,
} from '../../src/signing/signature.ts'
import { SigningInputError } from '../../src/signing/types.ts'
import { forEachBackend } from './backends.ts'

const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'
const ADDRESS = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23'
const R = `0x${'12'.repeat(32)}`
const S = `0x${'34'.repeat(32)}`
const hex64 = (n: bigint) => n.toString(16).padStart(64, '0')

describe('hex helpers', () => {
  it('isHex: 0x, even length, hex digits only, optional exact byte length', () => {
    expect(isHex('0x')).toBe(true)
    expect(isHex('0xaBcD')).toBe(true)
    expect(isHex('0xabc')).toBe(false)
    expect(isHex('abcd')).toBe(false)
    expect(isHex('0xzz')).toBe(false)
    expect(isHex('0xab\n')).toBe(false)
    expect(isHex(12)).toBe(false)
    expect(isHex('0xabcd', 2)).toBe(true)
    expect(isHex('0xabcd', 1)).toBe(false)
    expect(isHex('0xabcd', 3)).toBe(false)
  })

  it('toHex honours a view into a larger buffer; hexBytes is its inverse', () => {
    const big = Uint8Array.from([1, 2, 3, 4, 5])
    expect(toHex(big.subarray(1, 3))).toBe('0x0203')
    expect(toHex(new Uint8Array())).toBe('0x')
    expect([...hexBytes('0x0aff')]).toEqual([10, 255])
  })

  it('typeOf names null and arrays apart from objects', () => {
    expect(typeOf(null)).toBe('null')
    expect(typeOf([])).toBe('array')
    expect(typeOf({})).toBe('object')
    expect(typeOf(1n)).toBe('bigint')
  })

  it('privateKeyBytes: one line per fault, naming the field, never echoing the key', () => {
    const fault = (key: unknown) => {
      try {
        privateKeyBytes(key, () => true)
      } catch (err) {
        expect(err).toBeInstanceOf(SigningInputError)
        expect((err as SigningInputError).field).toBe('privateKey')
        return (err as Error).message
      }
      return 'no error'
    }
    expect(fault(42)).toBe('privateKey must be a 0x-prefixed hex string of 32 bytes, got number')
    expect(fault(null)).toBe('privateKey must be a 0x-prefixed hex string of 32 bytes, got null')
    expect(fault(KEY.slice(2))).toBe('privateKey is not 0x-prefixed hex')
    expect(fault(`${KEY.slice(0, 65)}g`)).toBe('privateKey is not 0x-prefixed hex')
    expect(fault(KEY.slice(0, 64))).toBe('privateKey must be 32 bytes (64 hex digits), got 31 bytes')
    expect(fault('0x00')).toBe('privateKey must be 32 bytes (64 hex digits), got 1 byte')
    expect(fault(KEY.slice(0, 65))).toBe('privateKey must be 32 bytes (64 hex digits), got 63 hex digits')
    expect(fault(`${KEY}00`)).toBe('privateKey must be 32 bytes (64 hex digits), got 33 bytes')
    expect(fault(KEY)).toBe('no error')
    expect(() => privateKeyBytes(KEY, () => false)).toThrow('privateKey is not a valid secp256k1 key (zero or not below the curve order)')
    expect([...privateKeyBytes(KEY, () => true)].slice(0, 2)).toEqual([0x4c, 0x08])
  })
})

describe('signature encodings', () => {
  it('split and join are inverse; join pads r, s and v', () => {
    expect(splitSignature(`${R}${S.slice(2)}1c`)).toEqual({ r: R, s: S, v: 28 })
    expect(joinSignature(R, S, 28)).toBe(`${R}${S.slice(2)}1c`)
    expect(joinSignature(1n, 2n, 0)).toBe(`0x${hex64(1n)}${hex64(2n)}00`)
    expect(joinSignature('0xab', 'cd', 1)).toBe(`0x${'ab'.padStart(64, '0')}${'cd'.padStart(64, '0')}01`)
  })

  it('withVForm converts both ways and leaves the right form alone', () => {
    const eth27 = joinSignature(R, S, 27)
    const eth28 = joinSignature(R, S, 28)
    const raw0 = joinSignature(R, S, 0)
    const raw1 = joinSignature(R, S, 1)
    expect(withVForm(eth27, 'raw')).toBe(raw0)
    expect(withVForm(eth28, 'raw')).toBe(raw1)
    expect(withVForm(raw0, 'raw')).toBe(raw0)
    expect(withVForm(raw1, 'eth')).toBe(eth28)
    expect(withVForm(raw0, 'eth')).toBe(eth27)
    expect(withVForm(eth28, 'eth')).toBe(eth28)
  })

  it('highSTwin: s → n − s, recovery id flipped in the form it came in', () => {
    const s = 5n
    const twin = (v: number) => splitSignature(highSTwin(joinSignature(R, s, v)))
    expect(twin(27)).toEqual({ r: R, s: `0x${hex64(SECP256K1_N - s)}`, v: 28 })
    expect(twin(28).v).toBe(27)
    expect(twin(0).v).toBe(1)
    expect(twin(1).v).toBe(0)
  })

  it('isHighS is strict above floor(n/2)', () => {
    expect(HALF_N).toBe(SECP256K1_N / 2n)
    expect(isHighS(HALF_N)).toBe(false)
    expect(isHighS(HALF_N + 1n)).toBe(true)
    expect(isHighS(1n)).toBe(false)
  })

  it('malformedSignatureReason names what is wrong', () => {
    const ok = joinSignature(R, S, 27)
    expect(malformedSignatureReason(ok)).toBeNull()
    expect(malformedSignatureReason(ok.toUpperCase().replace('0X', '0x'))).toBeNull()
    expect(malformedSignatureReason(7)).toBe('number')
    expect(malformedSignatureReason(null)).toBe('null')
    expect(malformedSignatureReason([ok])).toBe('array')
    expect(malformedSignatureReason(ok.slice(2))).toBe('no 0x prefix')
    expect(malformedSignatureReason(`${ok.slice(0, -1)}g`)).toBe('non-hex characters')
    expect(malformedSignatureReason(`${ok}0`)).toBe('131 hex digits')
    expect(malformedSignatureReason('0x')).toBe('0 hex digits')
  })

  it('checksum is EIP-55 and stable across many distinct addresses (its memo is bounded)', () => {
    expect(checksum(ADDRESS.slice(2).toLowerCase())).toBe(ADDRESS)
    expect(checksum('fb6916095ca1df60bb79ce92ce3ea74c37c5d359')).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359')
    for (let i = 0; i < 4200; i++) checksum(i.toString(16).padStart(40, '0'))
    expect(checksum(ADDRESS.slice(2).toLowerCase())).toBe(ADDRESS)
    expect(checksum('dbf03b407c01e7cd3cbea99509d93f8dddc8c6fb')).toBe('0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB')
  })
})

forEachBackend((backend) => {
  describe(`sign and recover a digest (${backend})`, () => {
    const digest = Buffer.alloc(32, 7)

    it('keys: address and validation', () => {
      expect(addressOf(KEY)).toBe(ADDRESS)
      expect(() => checkPrivateKey(KEY)).not.toThrow()
      expect(() => checkPrivateKey(`0x${'00'.repeat(32)}`)).toThrow(SigningInputError)
      expect(() => checkPrivateKey(`0x${hex64(SECP256K1_N)}`)).toThrow('not a valid secp256k1 key')
      expect(() => addressOf(`0x${'00'.repeat(32)}`)).toThrow('not a valid secp256k1 key')
    })

    it('signDigest gives r ‖ s ‖ v with v 27/28, low s, recovering to the key', () => {
      const sig = signDigest(digest, KEY)
      expect(sig.signature).toMatch(/^0x[0-9a-f]{128}1[bc]$/)
      expect(sig.signature).toBe(`${sig.r}${sig.s.slice(2)}${sig.v.toString(16)}`)
      expect(isHighS(BigInt(sig.s))).toBe(false)
      expect(splitSignature(sig.signature).v).toBe(sig.v)
      expect(recoverSignature(digest, sig.signature, false)).toEqual({ ok: true, signer: ADDRESS, digest: toHex(digest) })
      expect(() => signDigest(digest, 'nope')).toThrow(SigningInputError)
    })

    it('recoverDigest: v forms, bad v, bounds of r and s, high s, uppercase hex', () => {
      const sig = signDigest(digest, KEY)
      const { r, s, v } = splitSignature(sig.signature)
      const d = toHex(digest)
      expect(recoverDigest(digest, r.slice(2), s.slice(2), v - 27, false)).toMatchObject({ ok: true, signer: ADDRESS })
      expect(recoverDigest(digest, r.slice(2).toUpperCase(), s.slice(2).toUpperCase(), v, false)).toMatchObject({
        ok: true,
        signer: ADDRESS,
      })
      // The other recovery id recovers some other key (or none), never the signer.
      const other = recoverDigest(digest, r.slice(2), s.slice(2), v === 27 ? 28 : 27, false)
      expect(other.ok && other.signer === ADDRESS).toBe(false)
      for (const bad of [2, 26, 29, 255]) {
        expect(recoverDigest(digest, r.slice(2), s.slice(2), bad, false)).toEqual({
          ok: false,
          digest: d,
          reason: 'bad_v',
          message: `signature v must be 27 or 28 (or 0/1), got ${bad}`,
        })
      }
      const unrecoverable = {
        ok: false,
        digest: d,
        reason: 'unrecoverable',
        message: 'signature r or s is zero or not below the curve order',
      }
      expect(recoverDigest(digest, hex64(0n), s.slice(2), v, false)).toEqual(unrecoverable)
      expect(recoverDigest(digest, r.slice(2), hex64(0n), v, false)).toEqual(unrecoverable)
      expect(recoverDigest(digest, hex64(SECP256K1_N), s.slice(2), v, true)).toEqual(unrecoverable)
      expect(recoverDigest(digest, r.slice(2), hex64(SECP256K1_N), v, true)).toEqual(unrecoverable)
      // Just below n passes the bound check (whatever the curve then says).
      const near = recoverDigest(digest, hex64(SECP256K1_N - 1n), hex64(1n), v, true)
      expect(near.ok ? 'ok' : near.message).not.toBe(unrecoverable.message)
      const twin = splitSignature(highSTwin(sig.signature))
      expect(recoverDigest(digest, twin.r.slice(2), twin.s.slice(2), twin.v, false)).toEqual({
        ok: false,
        digest: d,
        reason: 'high_s',
        message: 'signature s is in the upper half of the curve order (malleable high-s form)',
      })
      expect(recoverDigest(digest, twin.r.slice(2), twin.s.slice(2), twin.v, true)).toEqual({ ok: true, signer: ADDRESS, digest: d })
    })

    it('an r that is no curve point is unrecoverable, with the backend reason in one line', () => {
      // x = 5 is not the x coordinate of any secp256k1 point (5^3 + 7 = 132 is a non-residue mod p).
      const r = recoverDigest(digest, hex64(5n), hex64(1n), 27, false)
      expect(r).toMatchObject({ ok: false, digest: toHex(digest), reason: 'unrecoverable' })
      if (!r.ok) expect(r.message).toMatch(/^no public key recovers from this signature \(.+\)$/)
    })

    it('recoverSignature: a malformed string is a typed failure naming why', () => {
      expect(recoverSignature(digest, '0x12', false)).toEqual({
        ok: false,
        digest: toHex(digest),
        reason: 'malformed_signature',
        message: 'signature must be 0x + 130 hex digits (r ‖ s ‖ v), got 2 hex digits',
      })
      const sig = signDigest(digest, KEY).signature
      expect(recoverSignature(digest, withVForm(sig, 'raw'), false)).toMatchObject({ ok: true, signer: ADDRESS })
    })
  })
})
