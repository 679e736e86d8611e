/**
 * Every refusal of the signing core with its exact one-line message and field: typed-data field
 * checks, domains, bodies, perp inputs. A message names what is wrong, so a client can fix it.
 */
import { describe, expect, it } from 'vitest'
import { checkField, compileStruct, hashStruct } from '../../src/signing/eip712.ts'
import { parseBody, perpActionHash, SigningInputError, type Hex, type OptionsMessage } from '../../src/signing/index.ts'
import { digestOf, messageFromBody, signPerpAction } from '../helpers/shipped.ts'

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as Hex
const WALLET = '0x1111111111111111111111111111111111111111'

/** The message and field of the SigningInputError `fn` throws. */
function refusal(fn: () => unknown): [string, string | null] {
  try {
    fn()
  } catch (err) {
    if (!(err instanceof SigningInputError)) throw err
    return [err.message, err.field]
  }
  return ['no error', null]
}

describe('typed-data fields', () => {
  const struct = compileStruct('T', [
    { name: 'a', type: 'address' },
    { name: 's', type: 'string' },
    { name: 'price', type: 'string' },
    { name: 'size', type: 'string' },
    { name: 'h', type: 'bytes32' },
    { name: 'b', type: 'bool' },
    { name: 'n8', type: 'uint8' },
    { name: 'n', type: 'uint256' },
  ])
  const field = (name: string) => struct.fields.find((f) => f.name === name)!
  const check = (name: string, value: unknown) => refusal(() => checkField(struct, field(name), value))

  it('addresses: 0x + 40 hex digits, any case', () => {
    expect(check('a', WALLET.toUpperCase().replace('0X', '0x'))).toEqual(['no error', null])
    expect(check('a', WALLET.slice(0, 41))).toEqual([`T.a must be an address (0x + 40 hex digits), got "${WALLET.slice(0, 40)}…"`, 'a'])
    expect(check('a', `${WALLET}1`)).toEqual([`T.a must be an address (0x + 40 hex digits), got "${`${WALLET}1`.slice(0, 40)}…"`, 'a'])
    expect(check('a', '0x12')).toEqual(['T.a must be an address (0x + 40 hex digits), got "0x12"', 'a'])
    expect(check('a', `1x${WALLET.slice(2)}`)[1]).toBe('a')
    expect(check('a', 12)).toEqual(['T.a must be an address (0x + 40 hex digits), got number 12', 'a'])
    expect(check('a', null)).toEqual(['T.a must be an address (0x + 40 hex digits), got null', 'a'])
  })

  it('strings; size and price say to sign the exact decimal text', () => {
    expect(check('s', '')).toEqual(['no error', null])
    expect(check('s', 1n)).toEqual(['T.s must be a string, got bigint 1', 's'])
    expect(check('price', 100.5)).toEqual(['T.price must be a string (sign the exact decimal text), got number 100.5', 'price'])
    expect(check('size', true)).toEqual(['T.size must be a string (sign the exact decimal text), got boolean true', 'size'])
    expect(check('s', ['x'])).toEqual(['T.s must be a string, got array', 's'])
  })

  it('bytes32, bool', () => {
    expect(check('h', `0x${'ab'.repeat(32)}`)).toEqual(['no error', null])
    expect(check('h', `0x${'ab'.repeat(31)}`)).toEqual([
      `T.h must be 32 bytes of hex (0x + 64 hex digits), got "0x${'ab'.repeat(19)}…"`,
      'h',
    ])
    expect(check('h', `0x${'ab'.repeat(32)}0`)[0]).toMatch(/^T\.h must be 32 bytes/)
    expect(check('h', 5)).toEqual(['T.h must be 32 bytes of hex (0x + 64 hex digits), got number 5', 'h'])
    expect(check('b', false)).toEqual(['no error', null])
    expect(check('b', 'true')).toEqual(['T.b must be a boolean, got "true"', 'b'])
  })

  it('unsigned integers: bigints or safe integers within the width', () => {
    expect(check('n8', 255n)).toEqual(['no error', null])
    expect(check('n8', 0)).toEqual(['no error', null])
    expect(check('n8', 256n)).toEqual(['T.n8 must be in 0..255 (uint8), got 256', 'n8'])
    expect(check('n8', -1)).toEqual(['T.n8 must be in 0..255 (uint8), got -1', 'n8'])
    expect(check('n8', 1.5)).toEqual(['T.n8 must be an integer (uint8), got number 1.5', 'n8'])
    expect(check('n8', 2 ** 53)).toEqual(['T.n8 must be an integer (uint8), got number 9007199254740992', 'n8'])
    expect(check('n8', '1')).toEqual(['T.n8 must be an integer (uint8), got "1"', 'n8'])
    expect(check('n', (1n << 256n) - 1n)).toEqual(['no error', null])
    expect(check('n', 1n << 256n)[0]).toMatch(/^T\.n must be in 0\.\.\d+ \(uint256\), got \d+$/)
  })

  it('unsupported types, unknown and missing fields', () => {
    for (const t of ['uint7', 'uint0', 'uint264', 'int8', 'bytes', 'Struct', 'uint8[]']) {
      expect(refusal(() => compileStruct('U', [{ name: 'x', type: t }]))).toEqual([
        `EIP-712 type ${t} is not supported by the signing encoder`,
        null,
      ])
    }
    expect(refusal(() => compileStruct('U', [{ name: 'x', type: 'uint16' }]))).toEqual(['no error', null])
    const small = compileStruct('S', [
      { name: 'a', type: 'string' },
      { name: 'b', type: 'string' },
    ])
    expect(refusal(() => hashStruct(small, { a: 'x', b: 'y', c: 'z' }))).toEqual(['S has no field c (fields: a, b)', 'c'])
    expect(refusal(() => hashStruct(small, { a: 'x', b: 'y', c: undefined }))).toEqual(['no error', null])
    expect(refusal(() => hashStruct(small, { a: 'x' }))).toEqual(['S.b is missing', 'b'])
    // Without validation an extra field is ignored and types are not checked.
    expect(hashStruct(small, { a: 'x', b: 'y', c: 'z' }, false)).toEqual(hashStruct(small, { a: 'x', b: 'y' }))
  })
})

describe('domains and kinds', () => {
  const message: OptionsMessage = { agent: WALLET, nonce: 1n }
  const digest = (domain: object) => refusal(() => digestOf('ApproveAgent', message, domain as never))

  it('each override field is checked with its own message', () => {
    expect(digest({ name: 1 })).toEqual(['domain.name must be a string, got number', 'domain.name'])
    expect(digest({ version: null })).toEqual(['domain.version must be a string, got null', 'domain.version'])
    expect(digest({ chainId: -1 })).toEqual(['domain.chainId must be a non-negative integer, got number -1', 'domain.chainId'])
    expect(digest({ chainId: 1.5 })).toEqual(['domain.chainId must be a non-negative integer, got number 1.5', 'domain.chainId'])
    expect(digest({ chainId: -1n })).toEqual(['domain.chainId must be a non-negative integer, got bigint -1', 'domain.chainId'])
    expect(digest({ chainId: 1n << 256n })[1]).toBe('domain.chainId')
    expect(digest({ chainId: '1' })).toEqual(['domain.chainId must be a non-negative integer, got string 1', 'domain.chainId'])
    expect(digest({ verifyingContract: '0x12' })).toEqual([
      'domain.verifyingContract must be an address (0x + 40 hex digits)',
      'domain.verifyingContract',
    ])
    for (const ok of [{ chainId: 0 }, { chainId: 0n }, { chainId: (1n << 256n) - 1n }, { verifyingContract: WALLET }, { name: '' }]) {
      expect(digest(ok)).toEqual(['no error', null])
    }
    // An override changes the digest; the same values as the spec's do not.
    expect(digestOf('ApproveAgent', message, { chainId: 1 })).not.toBe(digestOf('ApproveAgent', message))
    expect(digestOf('ApproveAgent', message, { chainId: 999, name: 'Service' })).toBe(digestOf('ApproveAgent', message))
  })

  it('an unknown kind and a message that is no object', () => {
    expect(refusal(() => digestOf('Nope' as never, message))).toEqual([
      'unknown kind "Nope" (one of PlaceOrder, CancelOrder, CancelOrderByClientId, ApproveAgent, RevokeAgent)',
      'kind',
    ])
    expect(refusal(() => digestOf('ApproveAgent', null as never))).toEqual(['message must be an object, got null', 'message'])
    expect(refusal(() => digestOf('ApproveAgent', 'x' as never))).toEqual(['message must be an object, got string', 'message'])
  })
})

describe('messageFromBody', () => {
  const parsed = (text: string) => {
    const r = parseBody(text)
    if (!r.ok) throw new Error(r.message)
    return r
  }
  it('reads the typed fields from their body properties; refuses missing, mistyped and out-of-range values', () => {
    expect(messageFromBody('CancelOrder', parsed(`{"wallet":"${WALLET}","order_id":"o1","nonce":18446744073709551615}`))).toEqual({
      wallet: WALLET,
      orderId: 'o1',
      nonce: 18446744073709551615n,
    })
    expect(refusal(() => messageFromBody('CancelOrder', parsed('[1]')))).toEqual(['the CancelOrder body must be a JSON object', null])
    expect(refusal(() => messageFromBody('CancelOrder', parsed(`{"wallet":"${WALLET}","nonce":1}`)))).toEqual([
      'order_id must be a string, got nothing',
      'order_id',
    ])
    expect(refusal(() => messageFromBody('CancelOrder', parsed(`{"wallet":"${WALLET}","order_id":null,"nonce":1}`)))).toEqual([
      'order_id must be a string, got null',
      'order_id',
    ])
    expect(refusal(() => messageFromBody('CancelOrder', parsed(`{"wallet":"${WALLET}","order_id":"o","nonce":-1}`)))).toEqual([
      'nonce must be an integer in 0..18446744073709551615, got -1 (negative)',
      'nonce',
    ])
  })
})

describe('perp inputs', () => {
  const base = { action: { type: 'noop' }, nonce: 1n, isMainnet: true }
  const hash = (input: object) => refusal(() => perpActionHash(input as never))

  it('nonce and expiresAfter are uint64; the vault an address or null; the action present', () => {
    expect(hash({ ...base, nonce: -1n })).toEqual(['nonce must be an integer in 0..18446744073709551615, got -1', 'nonce'])
    expect(hash({ ...base, nonce: 1n << 64n })).toEqual([
      'nonce must be an integer in 0..18446744073709551615, got 18446744073709551616',
      'nonce',
    ])
    expect(hash({ ...base, nonce: '1' })).toEqual(['nonce must be an integer in 0..18446744073709551615, got string', 'nonce'])
    expect(hash({ ...base, nonce: 1.5 })).toEqual(['nonce must be an integer in 0..18446744073709551615, got number', 'nonce'])
    expect(hash({ ...base, nonce: 0 })).toEqual(['no error', null])
    expect(hash({ ...base, nonce: (1n << 64n) - 1n })).toEqual(['no error', null])
    expect(hash({ ...base, expiresAfter: -1n })).toEqual([
      'expiresAfter must be an integer in 0..18446744073709551615, got -1',
      'expiresAfter',
    ])
    expect(hash({ ...base, vaultAddress: '0x12' })).toEqual([
      'vaultAddress must be an address (0x + 40 hex digits) or null',
      'vaultAddress',
    ])
    expect(hash({ nonce: 1n })).toEqual(['action is missing', 'action'])
    // A safe integer nonce is the same nonce as its bigint.
    expect(perpActionHash({ ...base, nonce: 7 as never })).toBe(perpActionHash({ ...base, nonce: 7n }))
    // null and absent vault / expiresAfter are the same; a vault or an expiry changes the hash.
    const plain = perpActionHash(base)
    expect(perpActionHash({ ...base, vaultAddress: null, expiresAfter: null })).toBe(plain)
    expect(perpActionHash({ ...base, vaultAddress: WALLET as Hex })).not.toBe(plain)
    expect(perpActionHash({ ...base, expiresAfter: 0n })).not.toBe(plain)
  })

  it('isMainnet must be a boolean', async () => {
    await expect(signPerpAction({ ...base, isMainnet: 'yes' as never }, KEY)).rejects.toThrow('isMainnet must be a boolean, got string')
  })
})
