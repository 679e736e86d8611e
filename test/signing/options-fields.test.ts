/**
 * The field lists a signing core gives the runners (`kindFields`, `missingFields`): what `oec sign`
 * prints per kind and what checks and vector families fill in when a newer spec signs a field the
 * caller did not set. Pinned against the seed's field table for the shipped spec.
 */
import { describe, expect, it } from 'vitest'
import { signing } from '../helpers/shipped.ts'

const field = (name: string, type: string, body = name) => ({ name, body, type })

describe('kindFields', () => {
  it('lists every signed field of every variant once, in struct order, with its body name and type', () => {
    expect(signing.kindFields('PlaceOrder')).toEqual([
      field('wallet', 'address'),
      field('symbol', 'string'),
      field('side', 'string'),
      field('size', 'string'),
      field('price', 'string'),
      field('tif', 'string'),
      field('route', 'string'),
      field('clientId', 'string', 'client_id'),
      field('nonce', 'uint64'),
    ])
    expect(signing.kindFields('CancelOrder')).toEqual([
      field('wallet', 'address'),
      field('orderId', 'string', 'order_id'),
      field('nonce', 'uint64'),
    ])
    expect(signing.kindFields('CancelOrderByClientId')).toEqual([
      field('wallet', 'address'),
      field('clientId', 'string', 'client_id'),
      field('nonce', 'uint64'),
    ])
    expect(signing.kindFields('ApproveAgent')).toEqual([field('agent', 'address'), field('nonce', 'uint64')])
  })
})

describe('missingFields', () => {
  it('is empty for a complete message', () => {
    const m = {
      wallet: `0x${'1'.repeat(40)}`,
      symbol: 'BTC-20261225-100000-C',
      side: 'Buy',
      size: '1',
      price: '100',
      tif: 'gtc',
      route: 'book_only',
      clientId: 'a',
      nonce: 1n,
    }
    expect(signing.missingFields('PlaceOrder', m)).toEqual([])
  })

  it('names what the chosen variant signs and the caller left out, filled from the body schema (enum first, else empty, 0 for integers)', () => {
    // No route: the route-less PlaceOrder variant, so route is not missing.
    expect(signing.missingFields('PlaceOrder', { wallet: `0x${'1'.repeat(40)}`, symbol: 'S' })).toEqual([
      { ...field('side', 'string'), value: 'Buy' },
      { ...field('size', 'string'), value: '' },
      { ...field('price', 'string'), value: '' },
      { ...field('tif', 'string'), value: 'gtc' },
      { ...field('clientId', 'string', 'client_id'), value: '' },
      { ...field('nonce', 'uint64'), value: 0n },
    ])
    expect(signing.missingFields('CancelOrder', {})).toEqual([
      { ...field('wallet', 'address'), value: `0x${'0'.repeat(40)}` },
      { ...field('orderId', 'string', 'order_id'), value: '' },
      { ...field('nonce', 'uint64'), value: 0n },
    ])
  })

  it('with a route the route variant is chosen, and route counts as given', () => {
    const missing = signing.missingFields('PlaceOrder', { route: 'book_only', nonce: 5n })
    expect(missing.map((f) => f.name)).toEqual(['wallet', 'symbol', 'side', 'size', 'price', 'tif', 'clientId'])
  })
})
