/**
 * A reference order-entry client in TypeScript with viem, behind the two testee protocols of
 * `oec check client`:
 *
 *   node --import tsx examples/typescript/client.ts           the HTTP driver (oec check client --http)
 *   node --import tsx examples/typescript/client.ts --jsonl   the signing protocol (oec check client)
 *
 * See docs/testee-protocol.md for both protocols.
 */
import { createInterface } from 'node:readline'
import { parse as parseJson } from 'lossless-json'
import { hashTypedData, recoverTypedDataAddress, serializeSignature, type Hex, type TypedDataDomain } from 'viem'
import { privateKeyToAccount, sign } from 'viem/accounts'
import { agentTypedData, PERP_DOMAIN, type PerpMessage } from './perp.ts'
import { DEFAULT_POLICY, withRetry } from './retry.ts'
import { BODY_NAME, fieldsFor, optionsDomain, type Kind } from './typed-data.ts'

type Message = Record<string, string | bigint>

/** JSON text with bigint fields written as JSON integers, digit for digit. */
function bodyText(fields: Record<string, string | bigint>): string {
  const parts = Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}:${typeof v === 'bigint' ? v.toString() : JSON.stringify(v)}`)
  return `{${parts.join(',')}}`
}

function typedData(kind: Kind, message: Message, domain: Record<string, unknown>) {
  const fields = fieldsFor(kind, message)
  // An address is 20 bytes whatever its case; viem insists on a valid checksum for mixed case, so it gets lower case.
  const hashed = Object.fromEntries(
    Object.entries(message).map(([k, v]) => [k, fields.some((f) => f.name === k && f.type === 'address') ? String(v).toLowerCase() : v]),
  )
  return { domain, types: { [kind]: fields }, primaryType: kind, message: hashed } as unknown as Parameters<typeof hashTypedData>[0]
}

async function signRequest(kind: Kind, message: Message, domain: Record<string, unknown>, key: Hex) {
  const td = typedData(kind, message, domain)
  const digest = hashTypedData(td)
  const signature = await sign({ hash: digest, privateKey: key, to: 'hex' })
  const body: Record<string, string | bigint> = {}
  for (const f of fieldsFor(kind, message)) body[BODY_NAME[f.name] ?? f.name] = message[f.name]!
  body.signature = signature
  return { digest, signature, body: bodyText(body) }
}

// ------------------------------------------------------------------ HTTP driver

interface PlaceTask {
  id: string
  action: 'place'
  order: { symbol: string; side: string; size: string; price: string; tif: string; route?: string; client_id: string }
}
type CancelTask = { id: string; action: 'cancel'; order_id?: string; client_id?: string }

async function driver(): Promise<void> {
  const baseUrl = process.env.OEC_BASE_URL!
  const key = process.env.OEC_PRIVATE_KEY as Hex
  const domain = optionsDomain(process.env.OEC_DOMAIN_NAME ?? 'Service', Number(process.env.OEC_CHAIN_ID ?? 999))
  const wallet = privateKeyToAccount(key).address
  // Increasing nonces: milliseconds since the epoch, times 1000, plus a counter.
  let lastNonce = BigInt(Date.now()) * 1000n
  const nextNonce = () => (lastNonce += 1n)

  const send = async (method: 'POST' | 'DELETE', kind: Kind, message: Message) => {
    const { body } = await signRequest(kind, message, domain, key)
    // One nonce per task: a retry of a failed request may reuse it.
    const res = await withRetry(
      () => fetch(`${baseUrl}/order`, { method, headers: { 'content-type': 'application/json' }, body }),
      DEFAULT_POLICY,
    )
    if (res === null) return { http_status: null, code: null, order_status: null }
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null
    // Errors branch on `code` (unknown ones included); outcomes on `status`; `reason` is only shown.
    const code = res.status >= 400 && typeof json?.code === 'string' ? json.code : null
    const status = res.status === 200 && typeof json?.status === 'string' ? json.status : null
    return {
      http_status: res.status,
      code,
      order_status: status,
      ...(typeof json?.order_id === 'string' ? { order_id: json.order_id } : {}),
      ...(typeof json?.reason === 'string' ? { reason: json.reason } : {}),
    }
  }

  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === '') continue
    const task = JSON.parse(line) as PlaceTask | CancelTask
    let answer: Record<string, unknown>
    if (task.action === 'place') {
      const o = task.order
      // The API documentation: send route now (omitting it is deprecated).
      const message: Message = {
        wallet,
        symbol: o.symbol,
        side: o.side,
        size: o.size,
        price: o.price,
        tif: o.tif,
        route: o.route ?? 'best_execution',
        clientId: o.client_id,
        nonce: nextNonce(),
      }
      answer = await send('POST', 'PlaceOrder', message)
    } else if (task.order_id !== undefined) {
      answer = await send('DELETE', 'CancelOrder', { wallet, orderId: task.order_id, nonce: nextNonce() })
    } else {
      answer = await send('DELETE', 'CancelOrderByClientId', { wallet, clientId: task.client_id ?? '', nonce: nextNonce() })
    }
    process.stdout.write(`${JSON.stringify({ id: task.id, ...answer })}\n`)
  }
}

// ------------------------------------------------------------------ signing protocol

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const KINDS = new Set(['PlaceOrder', 'CancelOrder', 'CancelOrderByClientId', 'ApproveAgent', 'RevokeAgent'])
const AGENT_FIELDS = new Set(['action', 'nonce', 'vaultAddress', 'expiresAfter', 'isMainnet'])

/** A uint64 of the protocol (a JSON integer, read exactly). */
function uint64(v: unknown, name: string): bigint {
  const b = typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v
  if (typeof b !== 'bigint' || b < 0n || b >= 2n ** 64n) throw new Error(`${name} must be an integer in 0..2^64-1`)
  return b
}

/** Reads a message of the protocol: nonce integers as bigints (they may pass 2^53), strings as strings. */
function readMessage(kind: Kind, raw: Record<string, unknown>): Message {
  const out: Message = {}
  for (const f of fieldsFor(kind, raw)) {
    const v = raw[f.name]
    if (f.type === 'uint64') {
      out[f.name] = uint64(v, f.name)
    } else {
      if (typeof v !== 'string') throw new Error(`${f.name} must be a string`)
      if (f.type === 'address' && !/^0x[0-9a-fA-F]{40}$/.test(v)) throw new Error(`${f.name} must be an address`)
      out[f.name] = v
    }
  }
  for (const k of Object.keys(raw)) if (!(k in out)) throw new Error(`unknown field ${k}`)
  return out
}

/** A perp action to sign: the action is signed as given (any msgpack value, keys in their order). */
function readPerpMessage(raw: Record<string, unknown>): PerpMessage {
  for (const k of Object.keys(raw)) if (!AGENT_FIELDS.has(k)) throw new Error(`unknown field ${k}`)
  if (raw.action === undefined) throw new Error('action is missing')
  if (typeof raw.isMainnet !== 'boolean') throw new Error('isMainnet must be a boolean')
  const vault = raw.vaultAddress ?? null
  if (vault !== null && (typeof vault !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(vault)))
    throw new Error('vaultAddress must be an address or null')
  return {
    action: raw.action,
    nonce: uint64(raw.nonce, 'nonce'),
    vaultAddress: vault === null ? null : (vault.toLowerCase() as Hex),
    expiresAfter: raw.expiresAfter === undefined || raw.expiresAfter === null ? null : uint64(raw.expiresAfter, 'expiresAfter'),
    isMainnet: raw.isMainnet,
  }
}

/** r, s and v of a 65-byte signature, refusing what a strict verifier refuses (high-s, odd v, bad lengths). */
function strictSignature(sig: unknown): Hex {
  if (typeof sig !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(sig)) throw new Error('malformed signature')
  const r = BigInt(`0x${sig.slice(2, 66)}`)
  const s = BigInt(`0x${sig.slice(66, 130)}`)
  let v = Number.parseInt(sig.slice(130), 16)
  if (v === 0 || v === 1) v += 27
  if (v !== 27 && v !== 28) throw new Error('bad v')
  if (r === 0n || r >= N || s === 0n || s >= N) throw new Error('unrecoverable')
  if (s > N / 2n) throw new Error('high-s signature')
  return `0x${sig.slice(2, 130)}${v.toString(16)}` as Hex
}

function privateKeyOf(req: Record<string, unknown>): Hex {
  if (typeof req.privateKey !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(req.privateKey))
    throw new Error('privateKey must be 32 bytes of hex')
  return req.privateKey as Hex
}

async function verifyTyped(td: Parameters<typeof hashTypedData>[0], signature: unknown): Promise<Record<string, unknown>> {
  const digest = hashTypedData(td)
  try {
    return { digest, signer: await recoverTypedDataAddress({ ...td, signature: strictSignature(signature) }) }
  } catch (err) {
    return { digest, signer: null, error: err instanceof Error ? err.message : String(err) }
  }
}

/** A perp action: the Agent struct under the perp domain (a domain in the request replaces it whole). */
async function answerAgent(req: Record<string, unknown>): Promise<Record<string, unknown>> {
  const domain = (req.domain as TypedDataDomain | undefined) ?? PERP_DOMAIN
  const td = agentTypedData(readPerpMessage(req.message as Record<string, unknown>), domain)
  if (req.op === 'verify') return verifyTyped(td, req.signature)
  if (req.op !== 'sign') throw new Error(`unknown op ${String(req.op)}`)
  const digest = hashTypedData(td)
  const sig = await sign({ hash: digest, privateKey: privateKeyOf(req) })
  // The venue's request carries {r, s, v}; the protocol asks for that and the 65-byte form.
  return {
    connectionId: td.message.connectionId,
    digest,
    signature: serializeSignature(sig),
    r: sig.r,
    s: sig.s,
    v: sig.v === undefined ? 27 + (sig.yParity ?? 0) : Number(sig.v),
  }
}

async function answer(req: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (req.kind === 'Agent') return answerAgent(req)
  const kind = req.kind as Kind
  if (!KINDS.has(String(req.kind))) throw new Error(`unsupported kind ${String(req.kind)}`)
  const domain = (req.domain as Record<string, unknown> | undefined) ?? optionsDomain('Service', 999)
  const message = readMessage(kind, req.message as Record<string, unknown>)
  if (req.op === 'sign') return signRequest(kind, message, domain, privateKeyOf(req))
  if (req.op !== 'verify') throw new Error(`unknown op ${String(req.op)}`)
  return verifyTyped(typedData(kind, message, domain), req.signature)
}

/**
 * A request line, integers read exactly: JSON.parse would round nonces and action integers past
 * 2^53. Integers past 32 bits become bigints, which is also what msgpack needs to write them in
 * the venue's smallest form (perp.ts).
 */
function parseRequest(line: string): Record<string, unknown> {
  return parseJson(line, null, (text) => {
    if (!/^-?[0-9]+$/.test(text)) return Number(text)
    const n = BigInt(text)
    return n >= -(2n ** 31n) && n < 2n ** 32n ? Number(n) : n
  }) as Record<string, unknown>
}

async function signingProtocol(): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === '') continue
    let id: unknown = null
    let out: Record<string, unknown>
    try {
      const req = parseRequest(line)
      id = req.id
      out = { id, ...(await answer(req)) }
    } catch (err) {
      out = { id, error: err instanceof Error ? err.message : String(err) }
    }
    process.stdout.write(`${JSON.stringify(out)}\n`)
  }
}

await (process.argv.includes('--jsonl') ? signingProtocol() : driver())
