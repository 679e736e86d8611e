/** One handler factory per spec operationId. */
import { approveAgent, listAuthorizedAgents, revokeAgent } from './agents.ts'
import { cancelOrders, cancelOrdersByClientId, placeOrders, replaceOrders } from './bulk.ts'
import { cancelOrder, placeOrder } from './order.ts'
import { perpExchange } from '../perp/exchange.ts'
import { perpInfo } from '../perp/info.ts'
import { getHealth, getOrderbook, listOrders } from './read.ts'
import type { HandlerFactory } from './types.ts'

export const handlers: Readonly<Record<string, HandlerFactory>> = {
  placeOrder,
  cancelOrder,
  placeOrders,
  replaceOrders,
  cancelOrders,
  cancelOrdersByClientId,
  approveAgent,
  revokeAgent,
  listAuthorizedAgents,
  listOrders,
  getOrderbook,
  getHealth,
  perpExchange,
  perpInfo,
}
