// A client driver of the --http protocol with one deliberate fault, named by argv[2]. Without
// a fault it behaves: Retry-After plus a growing backoff, codes and statuses reported as they
// came, fresh increasing nonces. Signing is the toolkit's own, so a failure can only come from
// the behaviour under test.
import { createInterface } from 'node:readline'
import { addressOf } from '../../../src/signing/index.ts'
import { buildRequest } from '../../helpers/shipped.ts'

type Fault =
  | 'none'
  | 'ignores-retry-after'
  | 'constant-backoff'
  | 'crashes-on-unknown-code'
  | 'rejected-as-accepted'
  | 'reuses-nonce'
  | 'rewrites-statuses'
const fault = (process.argv[2] ?? 'none') as Fault
const KNOWN_CODES = new Set([
  'invalid_field',
  'rate_limit_exceeded',
  'not_ready',
  'nonce_reused',
  'unauthorized',
  'signature_verification_failed',
])

const base = process.env.OEC_BASE_URL!
const key = process.env.OEC_PRIVATE_KEY as `0x${string}`
const wallet = addressOf(key)
let nonce = BigInt(Date.now()) * 1000n
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function perform(method: string, body: string): Promise<Response | null> {
  let last: Response | null = null
  for (let attempt = 0; attempt < 6; attempt++) {
    let wait = 200 * 2 ** attempt
    try {
      last = await fetch(`${base}/order`, { method, headers: { 'content-type': 'application/json' }, body })
      if (last.status !== 429 && last.status !== 503) return last
      const ra = Number(last.headers.get('retry-after')) * 1000
      if (fault === 'constant-backoff') wait = ra
      else if (fault !== 'ignores-retry-after') wait += ra
    } catch {
      /* dropped: retry */
    }
    await sleep(wait)
  }
  return last
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue
  const task = JSON.parse(line)
  nonce += 1n
  const n = fault === 'reuses-nonce' ? 77n : nonce
  const o = task.order
  const { body } =
    task.action === 'place'
      ? await buildRequest(
          'PlaceOrder',
          {
            wallet,
            symbol: o.symbol,
            side: o.side,
            size: o.size,
            price: o.price,
            tif: o.tif,
            route: o.route ?? 'book_only',
            clientId: o.client_id,
            nonce: n,
          },
          key,
        )
      : task.order_id !== undefined
        ? await buildRequest('CancelOrder', { wallet, orderId: task.order_id, nonce: n }, key)
        : await buildRequest('CancelOrderByClientId', { wallet, clientId: task.client_id, nonce: n }, key)
  const res = await perform(task.action === 'place' ? 'POST' : 'DELETE', body)
  const json = res ? ((await res.json().catch(() => null)) as Record<string, any> | null) : null
  let code: string | null = res && res.status >= 400 && typeof json?.code === 'string' ? json.code : null
  if (fault === 'crashes-on-unknown-code' && code !== null && !KNOWN_CODES.has(code)) throw new Error(`unexpected error code ${code}`)
  let status = res?.status ?? null
  if (fault === 'rewrites-statuses' && status !== null && status >= 400) {
    status = 400
    code = 'error'
  }
  const orderStatus = res?.status === 200 ? (fault === 'rejected-as-accepted' ? 'ACKED' : (json?.status ?? null)) : null
  process.stdout.write(
    `${JSON.stringify({ id: task.id, http_status: status, code, order_status: orderStatus, order_id: json?.order_id ?? null })}\n`,
  )
}
