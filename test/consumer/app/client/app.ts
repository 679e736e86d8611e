// A consumer project's use of the client `oec generate` wrote into ../gen: against `oec serve`, it
// places, cancels by id and by client id, approves an agent and places as the agent, places a
// batch, reads GET /orders and places a perp order through POST /exchange.
import { startServer } from 'order-entry-conformance/server'
import { keccak256 } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createClient, placeOrder } from '../gen/index.js'

const owner = privateKeyToAccount(generatePrivateKey())
const agent = privateKeyToAccount(generatePrivateKey())
const order = {
  symbol: 'BTC-20261225-100000-C',
  side: 'Buy',
  size: '1',
  price: '100.5',
  tif: 'gtc',
  route: 'book_only',
  client_id: 'c1',
} as const

const server = await startServer({ port: 0 })
try {
  const client = createClient({ baseUrl: server.url, signer: owner, keccak256 })
  const placed = await client.placeOrder(order)
  if (placed.error || placed.data.status !== 'ACKED' || placed.data.order_id === undefined)
    throw new Error(`place: ${placed.response.status}`)
  const byId = await client.cancelOrder({ order_id: placed.data.order_id })
  if (byId.data?.status !== 'CANCELED') throw new Error(`cancel by id: ${byId.response.status}`)
  await client.placeOrder({ ...order, client_id: 'c2' })
  const byClientId = await client.cancelOrder({ client_id: 'c2' })
  if (byClientId.data?.status !== 'CANCELED') throw new Error(`cancel by client id: ${byClientId.response.status}`)
  const approved = await client.approveAgent({ agent: agent.address })
  if (approved.error) throw new Error(`approve: ${approved.error.code}`)
  const asAgent = await createClient({ baseUrl: server.url, signer: agent }).placeOrder({
    ...order,
    client_id: 'a1',
    wallet: owner.address,
  })
  if (asAgent.data?.status !== 'ACKED') throw new Error(`place as agent: ${asAgent.response.status}`)
  const batch = await client.placeOrders({
    orders: [
      { ...order, client_id: 'b1' },
      { ...order, client_id: 'b2', size: '0' },
    ],
  })
  const statuses = batch.data?.results.map((r) => r.status).join()
  if (statuses !== 'ACKED,REJECTED') throw new Error(`bulk place: ${batch.response.status} ${statuses}`)
  const listed = await client.listOrders({ wallet: owner.address, status: 'OPEN' })
  const open = listed.data?.orders
    .map((o) => o.client_id)
    .sort()
    .join()
  if (open !== 'a1,b1') throw new Error(`GET /orders: ${listed.response.status} ${open}`)
  const perp = await client.perpExchange({
    action: { type: 'order', orders: [{ a: 0, b: true, p: '90', s: '1', r: false, t: { limit: { tif: 'Gtc' } } }], grouping: 'na' },
  })
  const perpStatus = perp.data?.response
  if (perp.data?.status !== 'ok' || typeof perpStatus !== 'object') throw new Error(`perp order: ${JSON.stringify(perpStatus)}`)
  console.log(
    `client: placed, canceled by id and client id, approved an agent and placed as it, placed a batch, listed orders, placed a perp order (remaining ${perp.rateLimit.remaining})`,
  )
} finally {
  await server.close()
}

export async function mistakes() {
  await placeOrder(
    // @ts-expect-error: the body field is client_id; clientId is the typed-data name.
    { symbol: 'BTC-20261225-100000-C', side: 'Buy', size: '1', price: '1', tif: 'gtc', clientId: 'x' },
    { signer: owner, nonce: 1n },
  )
  // @ts-expect-error: a decimal is a string, never a number.
  await placeOrder({ ...order, price: 100.5 }, { signer: owner, nonce: 1n })
  // @ts-expect-error: no nonce source.
  await placeOrder(order, { signer: owner })
}
