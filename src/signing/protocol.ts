/**
 * The signing protocol of `oec sign --jsonl` (and of the client testee): one JSON request in,
 * one JSON answer out. Pure: no I/O, never throws, so a caller can serve a stream line by line.
 *
 *   {"id","op":"sign","kind":<options kind>,"privateKey","domain"?,"message"}
 *     → {"id","digest","signature","body"}
 *   {"id","op":"sign","kind":"Agent","privateKey","domain"?,"message":{"action","nonce","vaultAddress"?,"expiresAfter"?,"isMainnet"}}
 *     → {"id","connectionId","digest","signature","r","s","v"}
 *   {"id","op":"verify","kind",...,"message","signature","domain"?,"allowHighS"?}
 *     → {"id","digest","signer"} or {"id","digest"?,"signer":null,"reason","error"}
 *   anything wrong → {"id"?, "error"}
 *
 * `domain`, when present, replaces the default domain whole. Numbers are read losslessly: the
 * nonce is a JSON integer and keeps every digit.
 */
import type { MessageKind } from '../contract/generated/contract.ts'
import { isLosslessNumber, stringify as losslessStringify, type LosslessNumber } from 'lossless-json'
import { isObject } from '../contract/model.ts'
import { typeOf } from './hex.ts'
import { checkPrivateKey } from './keys.ts'
import { parseLossless } from './lossless.ts'
import { exactDomain } from './options.ts'
import type { PerpSignInput } from './perp.ts'
import { splitSignature, SIGNATURE_RE } from './signature.ts'
import type { Signing } from './signing.ts'
import { SigningInputError, type DomainOverrides, type Hex, type OptionsKind, type OptionsMessage } from './types.ts'

export type ProtocolAnswer = Record<string, unknown>

const PLAIN_INT = /^-?(0|[1-9][0-9]*)$/
const AGENT_KIND = 'Agent' satisfies MessageKind['perps']

class ProtocolError extends Error {}

function fail(message: string): never {
  throw new ProtocolError(message)
}

/** obj[k] = v, also for k = "__proto__" (data, not the prototype). */
function setOwn(obj: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true })
  else obj[k] = v
}

function isLossless(v: unknown): v is LosslessNumber {
  return isLosslessNumber(v)
}

/** A JSON integer (lossless) or a bigint/safe integer passed in-process. */
function integerOf(v: unknown, what: string): bigint {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v)
  if (isLossless(v)) {
    if (!PLAIN_INT.test(v.value)) fail(`${what} must be a JSON integer, got ${v.value}`)
    return BigInt(v.value)
  }
  fail(`${what} must be a JSON integer, got ${typeOf(v)}`)
}

function domainOf(raw: unknown): DomainOverrides | undefined {
  if (raw === undefined) return undefined
  if (!isObject(raw as never)) fail(`domain must be an object, got ${typeOf(raw)}`)
  const d = raw as Record<string, unknown>
  const out: DomainOverrides = {}
  for (const [k, v] of Object.entries(d)) {
    if (k === 'name' || k === 'version') {
      if (typeof v !== 'string') fail(`domain.${k} must be a string, got ${typeOf(v)}`)
      out[k] = v
    } else if (k === 'chainId') out.chainId = integerOf(v, 'domain.chainId')
    else if (k === 'verifyingContract') {
      if (typeof v !== 'string') fail(`domain.verifyingContract must be an address string, got ${typeOf(v)}`)
      out.verifyingContract = v as Hex
    } else fail(`domain has no field ${k} (name, version, chainId, verifyingContract)`)
  }
  return exactDomain(out)
}

/** Options message from JSON: integers become bigints in uint fields, other numbers stay numbers (and fail as such). */
function optionsMessageOf(signing: Signing, kind: OptionsKind, raw: unknown): OptionsMessage {
  if (!isObject(raw as never)) fail(`message must be an object, got ${typeOf(raw)}`)
  const m = raw as Record<string, unknown>
  const presence: Record<string, string> = {}
  for (const k of Object.keys(m)) if (m[k] !== undefined && m[k] !== null) setOwn(presence, k, '')
  const { struct } = signing.compiledMessage(signing.messageVariant(kind, presence))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(m)) {
    const field = struct.fields.find((f) => f.name === k)
    if (isLossless(v)) {
      setOwn(out, k, field?.kind === 'uint' ? integerOf(v, `${struct.primaryType}.${k}`) : Number(v.value))
    } else setOwn(out, k, v)
  }
  return out as OptionsMessage
}

function perpInputOf(raw: unknown): PerpSignInput {
  if (!isObject(raw as never)) fail(`message must be an object, got ${typeOf(raw)}`)
  const m = raw as Record<string, unknown>
  for (const k of Object.keys(m)) {
    if (!['action', 'nonce', 'vaultAddress', 'expiresAfter', 'isMainnet'].includes(k))
      fail(`Agent message has no field ${k} (action, nonce, vaultAddress, expiresAfter, isMainnet)`)
  }
  // Any msgpack value is signable (the multi-signature inner action is an array); msgpack refuses the rest.
  if (m.action === undefined) fail('message.action is missing')
  if (typeof m.isMainnet !== 'boolean') fail(`message.isMainnet must be a boolean, got ${typeOf(m.isMainnet)}`)
  const vault = m.vaultAddress
  if (vault !== undefined && vault !== null && typeof vault !== 'string')
    fail(`message.vaultAddress must be an address or null, got ${typeOf(vault)}`)
  return {
    // Lossless numbers go to msgpack as they are: it reads their exact digits (src/signing/msgpack.ts).
    action: m.action,
    nonce: integerOf(m.nonce, 'message.nonce'),
    vaultAddress: (vault ?? null) as Hex | null,
    expiresAfter: m.expiresAfter === undefined || m.expiresAfter === null ? null : integerOf(m.expiresAfter, 'message.expiresAfter'),
    isMainnet: m.isMainnet,
  }
}

// The kinds a contract signs, listed once per signing core rather than on every request.
const knownKinds = new WeakMap<Signing, string[]>()

function kindOf(signing: Signing, raw: unknown): OptionsKind | typeof AGENT_KIND {
  let known = knownKinds.get(signing)
  if (!known) knownKinds.set(signing, (known = [...signing.optionsKinds(), AGENT_KIND]))
  if (typeof raw !== 'string' || !known.includes(raw))
    fail(`unknown kind ${raw === undefined ? '(missing)' : JSON.stringify(raw)} (one of ${known.join(', ')})`)
  return raw as OptionsKind | typeof AGENT_KIND
}

function perpSignatureOf(raw: unknown): { r: string; s: string; v: number } {
  if (typeof raw === 'string') {
    if (!SIGNATURE_RE.test(raw)) return { r: '', s: '', v: 0 } // recoverPerpSigner reports it as malformed
    return splitSignature(raw)
  }
  if (!isObject(raw as never)) fail(`signature must be {r, s, v} or 0x-hex, got ${typeOf(raw)}`)
  const o = raw as Record<string, unknown>
  const v = isLossless(o.v) ? Number(o.v.value) : o.v
  return { r: o.r as string, s: o.s as string, v: v as number }
}

async function answer(signing: Signing, req: Record<string, unknown>): Promise<ProtocolAnswer> {
  const op = req.op ?? 'sign'
  if (op !== 'sign' && op !== 'verify') fail(`unknown op ${JSON.stringify(op)} (sign or verify)`)
  const kind = kindOf(signing, req.kind)
  const domain = domainOf(req.domain)
  if (op === 'sign') {
    if (req.privateKey === undefined) fail('privateKey is missing')
    // A viem account cannot travel over JSON: the key is validated by signDigest, which never echoes it.
    if (kind === AGENT_KIND) {
      const s = await signing.signPerpAction(perpInputOf(req.message), req.privateKey as Hex, domain)
      return { connectionId: s.connectionId, digest: s.digest, signature: s.signature, r: s.r, s: s.s, v: s.v }
    }
    const message = optionsMessageOf(signing, kind, req.message)
    // Validate the key before the message so a bad key is named even with a bad message.
    checkPrivateKey(req.privateKey)
    const r = await signing.buildRequest(kind, message, req.privateKey as Hex, domain)
    return { digest: r.digest, signature: r.signature, body: r.body }
  }
  const allowHighS = req.allowHighS === true
  const result =
    kind === AGENT_KIND
      ? signing.recoverPerpSigner(perpInputOf(req.message), perpSignatureOf(req.signature), { domain, allowHighS })
      : (() => {
          const message = optionsMessageOf(signing, kind, req.message)
          if (typeof req.signature !== 'string') fail(`signature must be a 0x-hex string, got ${typeOf(req.signature)}`)
          return signing.verifyOptions(kind, message, req.signature, { domain, allowHighS })
        })()
  if (result.ok) return { digest: result.digest, signer: result.signer }
  return { ...(result.digest ? { digest: result.digest } : {}), signer: null, reason: result.reason, error: result.message }
}

/** Answers one already-parsed request (objects may hold lossless-json numbers). */
export async function answerRequest(signing: Signing, req: unknown): Promise<ProtocolAnswer> {
  const id = isObject(req as never) ? (req as Record<string, unknown>).id : undefined
  const withId = (a: ProtocolAnswer): ProtocolAnswer => (id === undefined ? a : { id, ...a })
  if (!isObject(req as never)) return { error: `a request must be a JSON object, got ${typeOf(req)}` }
  try {
    return withId(await answer(signing, req as Record<string, unknown>))
  } catch (err) {
    if (err instanceof ProtocolError || err instanceof SigningInputError) return withId({ error: err.message })
    const msg = err instanceof Error ? err.message : String(err)
    return withId({ error: `internal error: ${msg.split('\n')[0]}` })
  }
}

/** Parses one line (losslessly) and answers it. Blank lines answer nothing (undefined). */
export async function answerLine(signing: Signing, line: string): Promise<string | undefined> {
  if (line.trim() === '') return undefined
  let req: unknown
  try {
    req = parseLossless(line)
  } catch (err) {
    return serializeAnswer({ error: `invalid JSON: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}` })
  }
  return serializeAnswer(await answerRequest(signing, req))
}

/**
 * One line of JSON, as lossless-json writes it. Answers hold strings, numbers, booleans and
 * null, which both write with JSON.stringify, and an echoed `id`, a lossless number when the
 * request's id was a JSON number: its digits are written as they came. Only an id holding an
 * array or object goes through lossless-json's own writer.
 */
export function serializeAnswer(a: ProtocolAnswer): string {
  let out = ''
  for (const k in a) {
    const v = a[k]
    if (v === undefined) continue
    let text: string
    if (isLossless(v)) text = v.value
    else if ((v !== null && typeof v === 'object') || typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol')
      return losslessStringify(a) ?? '{}'
    else text = JSON.stringify(v)
    out += `${out === '' ? '{' : ','}${JSON.stringify(k)}:${text}`
  }
  return out === '' ? '{}' : `${out}}`
}
