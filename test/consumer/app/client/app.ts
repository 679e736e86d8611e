// A consumer project's use of the client `oec generate` wrote into ../gen: against `oec serve`, it
// places, cancels by id and by client id, approves an agent and places as the agent.
import { startServer } from 'order-entry-conformance/server'
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
  const client = createClient({ baseUrl: server.url, signer: owner })
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
  console.log(`client: placed, canceled by id and client id, approved an agent and placed as it (remaining ${asAgent.rateLimit.remaining})`)
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
