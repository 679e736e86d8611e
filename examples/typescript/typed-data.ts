/**
 * The order-entry API's EIP-712 types, written out by hand from the API documentation, as a client
 * team does (a client does not import the conformance toolkit; it is checked by it).
 */
import type { TypedDataDomain } from 'viem'

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000' as const

export function optionsDomain(name: string, chainId: number): TypedDataDomain {
  return { name, version: '1', chainId, verifyingContract: ZERO_ADDRESS }
}

const placeOrderFields = [
  { name: 'wallet', type: 'address' },
  { name: 'symbol', type: 'string' },
  { name: 'side', type: 'string' },
  { name: 'size', type: 'string' },
  { name: 'price', type: 'string' },
  { name: 'tif', type: 'string' },
  { name: 'route', type: 'string' },
  { name: 'clientId', type: 'string' },
  { name: 'nonce', type: 'uint64' },
] as const

/** Field lists per message kind; PlaceOrder without `route` is its own struct (route is then left out of the signature too). */
export const TYPES = {
  PlaceOrder: placeOrderFields,
  PlaceOrderWithoutRoute: placeOrderFields.filter((f) => f.name !== 'route'),
  CancelOrder: [
    { name: 'wallet', type: 'address' },
    { name: 'orderId', type: 'string' },
    { name: 'nonce', type: 'uint64' },
  ],
  CancelOrderByClientId: [
    { name: 'wallet', type: 'address' },
    { name: 'clientId', type: 'string' },
    { name: 'nonce', type: 'uint64' },
  ],
  ApproveAgent: [
    { name: 'agent', type: 'address' },
    { name: 'nonce', type: 'uint64' },
  ],
  RevokeAgent: [
    { name: 'agent', type: 'address' },
    { name: 'nonce', type: 'uint64' },
  ],
} as const

export type Kind = 'PlaceOrder' | 'CancelOrder' | 'CancelOrderByClientId' | 'ApproveAgent' | 'RevokeAgent'

/** The typed-data fields of `kind` for this message (PlaceOrder has two structs). */
export function fieldsFor(kind: Kind, message: Record<string, unknown>): readonly { name: string; type: string }[] {
  if (kind === 'PlaceOrder' && !('route' in message)) return TYPES.PlaceOrderWithoutRoute
  return TYPES[kind]
}

/** Typed-data field name → JSON body field name. */
export const BODY_NAME: Record<string, string> = { clientId: 'client_id', orderId: 'order_id' }
