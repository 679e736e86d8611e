// The generated client in a project with the ES2022 lib alone: no DOM lib, no @types/node. It
// must compile as it is (fetch, Response and Headers are declared structurally in client.ts),
// and its methods keep their types: inputs and answers come from the generated `paths`.
import { createClient, type Fetch, type Hex } from '../gen/index.js'

// Any signTypedData function is a signer; fetch is injected, so nothing here needs a host type.
declare const signTypedData: (typedData: unknown) => Promise<Hex>
declare const keccak256: (bytes: Uint8Array) => Hex
declare const fetch: Fetch
const wallet: Hex = '0x000000000000000000000000000000000000dEaD'
const client = createClient({ baseUrl: 'http://127.0.0.1:8080', signer: signTypedData, fetch, keccak256 })

export async function use(): Promise<string[]> {
  const order = { wallet, symbol: 'BTC-20261225-100000-C', side: 'Buy', size: '1', price: '1', tif: 'gtc', client_id: '' } as const
  const bulk = await client.placeOrders({ orders: [order, { ...order, route: 'book_only' }] })
  const statuses = bulk.data?.results.map((r) => r.status) ?? []
  const orders = await client.listOrders({ wallet, status: 'OPEN' })
  const ids = orders.data?.orders.map((o) => o.order_id) ?? []
  const perp = await client.perpExchange({
    action: { type: 'cancel', cancels: [{ a: 0, o: 18446744073709551615n }] },
    vaultAddress: wallet,
  })
  const health = await client.getHealth()
  // @ts-expect-error: the bulk body is { orders: [...] }, not a bare array.
  await client.placeOrders([order])
  // @ts-expect-error: a decimal inside a batch is still a string.
  await client.placeOrders({ orders: [{ ...order, size: 1 }] })
  // @ts-expect-error: GET /orders needs the wallet.
  await client.listOrders({ status: 'OPEN' })
  // @ts-expect-error: the perp action type is one the spec lists.
  await client.perpExchange({ action: { type: 'modify', cancels: [] } })
  return [...statuses, ...ids, String(perp.data?.status), String(health.response.status)]
}
