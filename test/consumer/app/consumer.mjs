// A plain Node ESM user of the installed package: no TypeScript, no loader, only the public entry points.
import { readFileSync } from 'node:fs'
import { addressOf, loadContract, signingFor, startServer } from 'order-entry-conformance'
import { DEFAULT_SPEC_PATH } from 'order-entry-conformance/contract'

const contract = loadContract(DEFAULT_SPEC_PATH)
const signing = signingFor(contract)
const key = `0x${'11'.repeat(32)}`
// The order both consumers sign; the wallet and a fresh nonce complete it.
const order = JSON.parse(readFileSync(new URL('./order.json', import.meta.url), 'utf8'))
const message = { ...order, wallet: addressOf(key), nonce: BigInt(Date.now()) }
const server = await startServer({ port: 0 })
try {
  const { body, signature } = await signing.buildRequest('PlaceOrder', message, key)
  const verified = signing.verifyOptions('PlaceOrder', message, signature)
  if (!verified.ok || verified.signer.toLowerCase() !== message.wallet.toLowerCase()) throw new Error(`verify: ${JSON.stringify(verified)}`)
  const res = await fetch(`${server.url}/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const reply = await res.json()
  if (res.status !== 200 || reply.status !== 'ACKED') throw new Error(`POST /order: ${res.status} ${JSON.stringify(reply)}`)
  console.log(`consumer: signed, verified (${verified.signer}) and ACKED by the reference server at ${server.url}`)
} finally {
  await server.close()
}
