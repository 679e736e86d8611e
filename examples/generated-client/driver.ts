// The client `oec generate` writes (./generated), behind both testee protocols of `oec check client`:
// `--http` tasks by default, the signing protocol with --jsonl. Generate first: oec generate --out examples/generated-client/generated
import { createInterface } from 'node:readline'
import { hashTypedData, recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createClient, messageBodyFields, optionsDomain, parseJson, signedBuilders, type Hex } from './generated/index.js'

const env = process.env
const domain = {
  ...optionsDomain,
  name: env.OEC_DOMAIN_NAME ?? optionsDomain.name,
  chainId: Number(env.OEC_CHAIN_ID ?? optionsDomain.chainId),
}
const client = env.OEC_PRIVATE_KEY
  ? createClient({ baseUrl: env.OEC_BASE_URL!, signer: privateKeyToAccount(env.OEC_PRIVATE_KEY as Hex), domain })
  : null

async function task(t: any) {
  const r = await (t.action === 'place'
    ? client!.placeOrder({ route: 'best_execution', ...t.order })
    : client!.cancelOrder(t.order_id !== undefined ? { order_id: t.order_id } : { client_id: t.client_id })
  ).catch(() => null)
  return {
    http_status: r?.response.status ?? null,
    code: r?.error?.code ?? null,
    order_status: r?.data?.status ?? null,
    order_id: r?.data?.order_id,
    reason: r?.data?.reason,
  }
}

async function signing({ op, kind, message, privateKey, signature, domain: d }: any) {
  const names = messageBodyFields[kind as keyof typeof messageBodyFields] as Record<string, string>
  const input = Object.fromEntries(
    Object.entries(message)
      .filter(([k]) => k !== 'nonce')
      .map(([k, v]) => [names?.[k] ?? k, v]),
  )
  const nonce = typeof message.nonce === 'number' && Number.isSafeInteger(message.nonce) ? BigInt(message.nonce) : message.nonce
  const signer = op === 'sign' ? privateKeyToAccount(privateKey) : async () => signature
  const built = await signedBuilders[kind as keyof typeof signedBuilders](input as never, { signer, nonce, domain: d ?? optionsDomain })
  const digest = hashTypedData(built.typedData as never)
  return op === 'sign'
    ? { digest, signature: built.signature, body: built.body }
    : { digest, signer: await recoverTypedDataAddress({ ...(built.typedData as never), signature: built.signature }) }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue
  const req = parseJson(line) as any
  const answer = process.argv.includes('--jsonl')
    ? await signing(req).catch((e) => ({ signer: null, error: String(e.message ?? e) }))
    : await task(req)
  process.stdout.write(`${JSON.stringify({ id: req.id, ...answer })}\n`)
}
