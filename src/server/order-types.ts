/**
 * What an order is, apart from the engine that matches it: its input as sent, its state, the
 * record GET /orders and the WebSocket feed show. Its own module so that the matching core
 * (matching-engine.ts) and the archive of finished orders (archive.ts) both depend on it and not on
 * each other.
 */
import { div, formatDec, isZero, type Dec } from './decimal.ts'

export type Side = 'Buy' | 'Sell'
export type OrderStatus = 'OPEN' | 'FILLED' | 'CANCELED' | 'REJECTED'

export interface OrderInput {
  wallet: string
  symbol: string
  side: Side
  /** Exact text as sent (and signed). */
  size: string
  price: string
  tif: string
  route: string
  clientId: string
}

export interface Order {
  readonly id: string
  readonly seq: number
  readonly input: OrderInput
  readonly walletKey: string
  readonly size: Dec
  readonly price: Dec
  filled: Dec
  /** Sum of price × quantity over fills (average fill price). */
  notional: Dec
  status: OrderStatus
  readonly createdAt: number
}

export interface OrderRecord {
  order_id: string
  client_id: string
  wallet: string
  symbol: string
  side: string
  size: string
  price: string
  tif: string
  route: string
  status: OrderStatus
  filled_size: string
  created_at: string
}

export function toRecord(o: Order): OrderRecord {
  return {
    order_id: o.id,
    client_id: o.input.clientId,
    wallet: o.input.wallet,
    symbol: o.input.symbol,
    side: o.input.side,
    size: o.input.size,
    price: o.input.price,
    tif: o.input.tif,
    route: o.input.route,
    status: o.status,
    filled_size: formatDec(o.filled),
    created_at: new Date(o.createdAt).toISOString(),
  }
}

export function averagePrice(o: Order): string {
  return isZero(o.filled) ? '0' : formatDec(div(o.notional, o.filled))
}
