/** Intent validation, variant choice and exact body text. */
import { hashTypedData, type TypedDataDefinition } from 'viem'
import { describe, expect, it } from 'vitest'
import { exactDomain, parseBody, SigningInputError, type Hex, type OptionsMessage } from '../../src/signing/index.ts'
import { buildRequest, digestOf, messageFromBody, messageVariant, perpDomain, typedDataFor } from '../helpers/shipped.ts'

const KEY = '0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f' as Hex
const base: OptionsMessage = {
  wallet: '0x63FaC9201494f0bd17B9892B9fae4d52fe3BD377',
  symbol: 'BTC-20261231-100000-C',
  side: 'Buy',
  size: '1',
  price: '100.0',
  tif: 'gtc',
  route: 'best_execution',
  clientId: '',
  nonce: 18446744073709551615n,
}
const { route: _route, ...withoutRoute } = base

async function failure(p: () => Promise<unknown> | unknown): Promise<SigningInputError> {
  try {
    await p()
  } catch (err) {
    expect(err).toBeInstanceOf(SigningInputError)
    expect((err as Error).message).not.toContain('\n')
    return err as SigningInputError
  }
  throw new Error('expected a SigningInputError')
}

describe('options signing', () => {
  it('route presence picks the 9-field or the 8-field struct (spec variants)', () => {
    expect(messageVariant('PlaceOrder', base)).toBe('PlaceOrder')
    expect(messageVariant('PlaceOrder', withoutRoute)).toBe('PlaceOrderWithoutRoute')
    expect(typedDataFor('PlaceOrder', base).types.PlaceOrder!.map((f) => f.name)).toEqual([
      'wallet',
      'symbol',
      'side',
      'size',
      'price',
      'tif',
      'route',
      'clientId',
      'nonce',
    ])
    expect(typedDataFor('PlaceOrder', withoutRoute).types.PlaceOrder!.map((f) => f.name)).toEqual([
      'wallet',
      'symbol',
      'side',
      'size',
      'price',
      'tif',
      'clientId',
      'nonce',
    ])
    expect(digestOf('PlaceOrder', base)).not.toBe(digestOf('PlaceOrder', withoutRoute))
  })

  it('writes the exact body: signed strings, client_id, nonce digits, route only when signed', async () => {
    const r = await buildRequest('PlaceOrder', base, KEY)
    expect(r.body).toBe(
      `{"wallet":"0x63FaC9201494f0bd17B9892B9fae4d52fe3BD377","symbol":"BTC-20261231-100000-C","side":"Buy","size":"1","price":"100.0","tif":"gtc","route":"best_execution","client_id":"","nonce":18446744073709551615,"signature":"${r.signature}"}`,
    )
    const r2 = await buildRequest('PlaceOrder', withoutRoute, KEY)
    expect(Object.keys(JSON.parse(r2.body))).toEqual([
      'wallet',
      'symbol',
      'side',
      'size',
      'price',
      'tif',
      'client_id',
      'nonce',
      'signature',
    ])
    const c = await buildRequest('CancelOrder', { wallet: base.wallet!, orderId: '42', nonce: 9007199254740993n }, KEY)
    expect(c.body).toContain('"order_id":"42","nonce":9007199254740993,')
  })

  it('messageFromBody maps body names back and picks the variant from the body', async () => {
    for (const m of [base, withoutRoute]) {
      const r = await buildRequest('PlaceOrder', m, KEY)
      const p = parseBody(r.body)
      expect(p.ok && messageFromBody('PlaceOrder', p)).toEqual(m)
    }
    const p = parseBody('{"wallet":"0x63FaC9201494f0bd17B9892B9fae4d52fe3BD377","order_id":"1","nonce":1e3}')
    await failure(() => p.ok && messageFromBody('CancelOrder', p))
  })

  it('refuses bad intents with one line naming the field', async () => {
    expect((await failure(() => buildRequest('PlaceOrder', { ...base, price: 100 } as unknown as OptionsMessage, KEY))).field).toBe('price')
    expect((await failure(() => buildRequest('PlaceOrder', { ...base, size: 1.5 } as unknown as OptionsMessage, KEY))).message).toMatch(
      /size must be a string/,
    )
    expect((await failure(() => buildRequest('PlaceOrder', { ...base, nonce: 1n << 64n }, KEY))).field).toBe('nonce')
    expect((await failure(() => buildRequest('PlaceOrder', { ...base, nonce: -1n }, KEY))).field).toBe('nonce')
    expect((await failure(() => buildRequest('PlaceOrder', { ...base, nonce: '5' }, KEY))).field).toBe('nonce')
    expect((await failure(() => buildRequest('PlaceOrder', { ...base, wallet: '0x1234' }, KEY))).field).toBe('wallet')
    expect((await failure(() => buildRequest('PlaceOrder', { ...base, client_id: 'x' }, KEY))).field).toBe('client_id')
    const { symbol: _s, ...noSymbol } = base
    expect((await failure(() => buildRequest('PlaceOrder', noSymbol, KEY))).field).toBe('symbol')
    await failure(() => buildRequest('Bogus' as never, base, KEY))
  })

  it('refuses bad keys without echoing them', async () => {
    for (const key of ['0xzz' + KEY.slice(4), KEY.slice(0, 64), KEY.slice(2), `0x${'0'.repeat(64)}`, `0x${'f'.repeat(64)}`, 12]) {
      const err = await failure(() => buildRequest('PlaceOrder', base, key as Hex))
      expect(err.field).toBe('privateKey')
      if (typeof key === 'string' && key.length > 8) expect(err.message).not.toContain(key.slice(4, 20))
    }
  })

  it('domains: overrides merge with the spec default; exactDomain replaces it whole', () => {
    expect(perpDomain()).toEqual({
      name: 'Exchange',
      version: '1',
      chainId: 1337n,
      verifyingContract: '0x0000000000000000000000000000000000000000',
    })
    expect(typedDataFor('ApproveAgent', { agent: base.wallet!, nonce: 1n }, { chainId: 1 }).domain).toEqual({
      name: 'Service',
      version: '1',
      chainId: 1n,
      verifyingContract: '0x0000000000000000000000000000000000000000',
    })
    const exact = exactDomain({ name: 'Service', version: '1', chainId: 999 })
    const t = typedDataFor('ApproveAgent', { agent: base.wallet!, nonce: 1n }, exact)
    expect(t.domain).toEqual({ name: 'Service', version: '1', chainId: 999n })
    expect(digestOf('ApproveAgent', { agent: base.wallet!, nonce: 1n }, exact)).toBe(hashTypedData(t as unknown as TypedDataDefinition))
    expect(digestOf('ApproveAgent', { agent: base.wallet!, nonce: 1n }, exact)).not.toBe(
      digestOf('ApproveAgent', { agent: base.wallet!, nonce: 1n }),
    )
  })
})
