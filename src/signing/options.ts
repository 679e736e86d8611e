/**
 * The options messages (PlaceOrder in both variants, cancels, agent approval): types, domains,
 * body mapping and variant choice all read from the spec's `x-eip712` extension.
 */
import type { LocalAccount, TypedDataDefinition } from 'viem'
import { defaultSpec } from '../spec/load.ts'
import { isObject, readSignedSchema, type SignedMessage, type SignedSchema } from '../spec/model.ts'
import { flatBodyText, readUint64, type ParsedBodyOk } from './body.ts'
import { cryptoBackend, keccak256, onCryptoBackendChange } from './crypto.ts'
import { compileStruct, domainSeparator, domainTypeOf, hashStruct, typedDigest, type CompiledStruct, type DomainFields } from './eip712.ts'
import { isHex, privateKeyBytes, toHex, typeOf } from './hex.ts'
import { SigningInputError, type DomainOverrides, type Hex, type OptionsKind, type OptionsMessage, type ResolvedDomain, type Signer, type VerifyResult } from './types.ts'

// ---------------------------------------------------------------- spec views (read once)

interface KindInfo {
  readonly kind: string
  /** Signed-body schema (`x-eip712-signed`) carrying this kind, if the spec has one. */
  readonly signed: SignedSchema | undefined
  readonly schemaName: string | undefined
}

interface Compiled {
  readonly message: SignedMessage
  readonly struct: CompiledStruct
}

let kindCache: Map<string, KindInfo> | undefined
const compiledCache = new Map<string, Compiled>()
const defaultSeparators = new Map<string, Buffer>()
onCryptoBackendChange(() => {
  compiledCache.clear()
  defaultSeparators.clear()
})

function kinds(): Map<string, KindInfo> {
  if (kindCache) return kindCache
  const spec = defaultSpec()
  const map = new Map<string, KindInfo>()
  const components = spec.doc.components
  const schemas = isObject(components) && isObject(components.schemas) ? components.schemas : {}
  for (const [schemaName, schema] of Object.entries(schemas)) {
    const signed = readSignedSchema(schema)
    if (!signed || signed.derived) continue
    for (const v of signed.variants) {
      const primary = spec.typedData.messages[v.message]?.primaryType ?? v.message
      if (!map.has(primary)) map.set(primary, { kind: primary, signed, schemaName })
    }
  }
  kindCache = map
  return map
}

/** The options kinds the spec's signed bodies define (PlaceOrder, CancelOrder, ...). */
export function optionsKinds(): OptionsKind[] {
  return [...kinds().keys()] as OptionsKind[]
}

function kindInfo(kind: string): KindInfo {
  const info = kinds().get(kind)
  if (!info) throw new SigningInputError(`unknown kind ${JSON.stringify(kind)} (one of ${[...kinds().keys()].join(', ')})`, 'kind')
  return info
}

/** The compiled struct for a message id under `x-eip712.messages`. */
export function compiledMessage(id: string): Compiled {
  let c = compiledCache.get(id)
  if (!c) {
    const message = defaultSpec().typedData.messages[id]
    if (!message) throw new SigningInputError(`the spec has no typed-data message ${id}`)
    c = { message, struct: compileStruct(message.primaryType, message.fields) }
    compiledCache.set(id, c)
  }
  return c
}

/** Picks the variant from the presence of a field (typed-data name or body name, per `has`). */
function pickVariant(info: KindInfo, has: (bodyKey: string, variantId: string) => boolean): string {
  const variants = info.signed?.variants ?? [{ message: info.kind }]
  for (const v of variants) {
    if (v.whenPresent !== undefined && !has(v.whenPresent, v.message)) continue
    if (v.whenAbsent !== undefined && has(v.whenAbsent, v.message)) continue
    return v.message
  }
  return variants[0]!.message
}

/** Typed-data field name carrying a body key, looked up across the kind's variants. */
const typedNames = new Map<string, string>()
function typedNameOf(info: KindInfo, bodyKey: string): string {
  const key = `${info.kind}\u0000${bodyKey}`
  const hit = typedNames.get(key)
  if (hit !== undefined) return hit
  const name = findTypedName(info, bodyKey)
  typedNames.set(key, name)
  return name
}

function findTypedName(info: KindInfo, bodyKey: string): string {
  for (const v of info.signed?.variants ?? []) {
    const f = defaultSpec().typedData.messages[v.message]?.fields.find((x) => x.body === bodyKey)
    if (f) return f.name
  }
  return bodyKey
}

/** spec message id: 'PlaceOrder' | 'PlaceOrderWithoutRoute' | 'CancelOrder' | ... */
export function messageVariant(kind: OptionsKind, message: OptionsMessage): string {
  const info = kindInfo(kind)
  const variants = info.signed?.variants
  // Fast path: a single variant needs no look at the message.
  if (variants && variants.length === 1) return variants[0]!.message
  return pickVariant(info, (bodyKey) => message[typedNameOf(info, bodyKey)] !== undefined)
}

// ---------------------------------------------------------------- domains

const EXACT = Symbol('oec.exactDomain')

/**
 * Marks a domain to be used as given, not merged with the defaults: absent fields are left out
 * of EIP712Domain too (the `oec sign` protocol's `domain` replaces the default whole).
 */
export function exactDomain(d: DomainOverrides): DomainOverrides {
  return Object.assign(Object.create(null) as object, d, { [EXACT]: true }) as DomainOverrides
}

export function isExactDomain(d: DomainOverrides | undefined): boolean {
  return d !== undefined && (d as Record<symbol, unknown>)[EXACT] === true
}

function checkDomain(o: DomainOverrides): DomainFields {
  const out: DomainFields = {}
  if (o.name !== undefined) {
    if (typeof o.name !== 'string') throw new SigningInputError(`domain.name must be a string, got ${typeOf(o.name)}`, 'domain.name')
    out.name = o.name
  }
  if (o.version !== undefined) {
    if (typeof o.version !== 'string') throw new SigningInputError(`domain.version must be a string, got ${typeOf(o.version)}`, 'domain.version')
    out.version = o.version
  }
  if (o.chainId !== undefined) {
    const c = o.chainId
    const ok = (typeof c === 'number' && Number.isSafeInteger(c) && c >= 0) || (typeof c === 'bigint' && c >= 0n && c < 1n << 256n)
    if (!ok) throw new SigningInputError(`domain.chainId must be a non-negative integer, got ${typeOf(c)} ${String(c)}`, 'domain.chainId')
    out.chainId = BigInt(c)
  }
  if (o.verifyingContract !== undefined) {
    if (!isHex(o.verifyingContract, 20)) throw new SigningInputError('domain.verifyingContract must be an address (0x + 40 hex digits)', 'domain.verifyingContract')
    out.verifyingContract = o.verifyingContract
  }
  return out
}

function specDomain(key: string): ResolvedDomain {
  const d = defaultSpec().typedData.domains[key]
  if (!d) throw new SigningInputError(`the spec has no ${key} signing domain`)
  return { name: d.name, version: d.version, chainId: BigInt(d.chainId), verifyingContract: d.verifyingContract }
}

/** The fields actually signed: defaults merged with overrides, or exactly the given fields. */
export function domainFields(key: string, o?: DomainOverrides): DomainFields {
  if (o === undefined) return specDomain(key)
  if (isExactDomain(o)) return checkDomain(o)
  return { ...specDomain(key), ...checkDomain(o) }
}

function full(key: string, o?: DomainOverrides): ResolvedDomain {
  return { ...specDomain(key), ...(o ? checkDomain(o) : {}) } as ResolvedDomain
}

/** The options domain (spec defaults `Service`/`1`/999/zero address) with overrides applied. */
export function optionsDomain(o?: DomainOverrides): ResolvedDomain {
  return full('options', o)
}

/** The perp domain (spec defaults `Exchange`/`1`/1337/zero address) with overrides applied. */
export function perpDomain(o?: DomainOverrides): ResolvedDomain {
  return full('perps', o)
}

// ---------------------------------------------------------------- typed data and digests

function resolve(kind: OptionsKind, message: OptionsMessage): Compiled {
  if (message === null || typeof message !== 'object') throw new SigningInputError(`message must be an object, got ${typeOf(message)}`, 'message')
  return compiledMessage(messageVariant(kind, message))
}

/** viem-ready typed data (`types` without EIP712Domain; viem and ethers derive it from `domain`). */
export function typedDataFor(
  kind: OptionsKind,
  message: OptionsMessage,
  domain?: DomainOverrides,
): { domain: DomainFields; types: Record<string, { name: string; type: string }[]>; primaryType: string; message: Record<string, string | bigint> } {
  const c = resolve(kind, message)
  hashStruct(c.struct, message) // validates
  const msg: Record<string, string | bigint> = {}
  for (const f of c.struct.fields) {
    const v = message[f.name]!
    msg[f.name] = f.kind === 'uint' ? BigInt(v) : v
  }
  return {
    domain: domainFields(c.message.domain, domain),
    types: { [c.struct.primaryType]: c.struct.fields.map((f) => ({ name: f.name, type: f.type })) },
    primaryType: c.struct.primaryType,
    message: msg,
  }
}

/** The EIP712Domain type list for a domain (only the fields present). */
export function eip712DomainType(domain: DomainFields): { name: string; type: string }[] {
  return domainTypeOf(domain)
}

function digestBytes(kind: OptionsKind, message: OptionsMessage, domain?: DomainOverrides): Buffer {
  const c = resolve(kind, message)
  const structHash = hashStruct(c.struct, message)
  return typedDigest(separatorFor(c.message.domain, domain), structHash)
}

/** Domain separator; the spec defaults (no overrides) skip even the cache-key building. */
export function separatorFor(key: string, domain?: DomainOverrides): Buffer {
  if (domain !== undefined) return domainSeparator(domainFields(key, domain))
  let sep = defaultSeparators.get(key)
  if (!sep) {
    sep = domainSeparator(domainFields(key))
    defaultSeparators.set(key, sep)
  }
  return sep
}

/** The EIP-712 digest (fast path: cached type hashes and domain separators, native keccak). */
export function digestOf(kind: OptionsKind, message: OptionsMessage, domain?: DomainOverrides): Hex {
  return toHex(digestBytes(kind, message, domain))
}

// ---------------------------------------------------------------- signing

/** r ‖ s ‖ v (v 27/28) from a 32-byte digest and a private key, RFC 6979, low-s. */
export function signDigest(digest: Uint8Array, key: unknown): { signature: Hex; r: Hex; s: Hex; v: 27 | 28 } {
  const secp = cryptoBackend().secp
  const k = privateKeyBytes(key, (b) => secp.privateKeyVerify(b))
  const { signature, recid } = secp.ecdsaSign(digest, k)
  const sig = Buffer.from(signature.buffer, signature.byteOffset, 64).toString('hex')
  const v = (27 + recid) as 27 | 28
  return { signature: `0x${sig}${v.toString(16)}`, r: `0x${sig.slice(0, 64)}`, s: `0x${sig.slice(64)}`, v }
}

function isAccount(s: unknown): s is LocalAccount {
  return typeof s === 'object' && s !== null && typeof (s as LocalAccount).signTypedData === 'function'
}

export async function signTypedWith(signer: Signer, digest: Buffer, typed: () => TypedDataDefinition): Promise<Hex> {
  if (isAccount(signer)) return signer.signTypedData(typed())
  return signDigest(digest, signer).signature
}

export async function signOptions(kind: OptionsKind, message: OptionsMessage, signer: Signer, domain?: DomainOverrides): Promise<{ digest: Hex; signature: Hex }> {
  const digest = digestBytes(kind, message, domain)
  const signature = await signTypedWith(signer, digest, () => typedDataFor(kind, message, domain) as unknown as TypedDataDefinition)
  return { digest: toHex(digest), signature }
}

/** The body keys of a kind, in typed-field order, then the signature key. */
function bodyEntries(kind: OptionsKind, message: OptionsMessage, signature: Hex): [string, string | bigint][] {
  const c = resolve(kind, message)
  const entries: [string, string | bigint][] = c.struct.fields.map((f) => {
    const v = message[f.name]!
    return [f.body, f.kind === 'uint' ? BigInt(v) : v]
  })
  entries.push([kindInfo(kind).signed?.signature ?? 'signature', signature])
  return entries
}

/** Signs and returns the exact HTTP body text (size/price as signed strings, client_id/order_id, nonce digits exact). */
export async function buildRequest(kind: OptionsKind, message: OptionsMessage, signer: Signer, domain?: DomainOverrides): Promise<{ digest: Hex; signature: Hex; body: string }> {
  const { digest, signature } = await signOptions(kind, message, signer, domain)
  return { digest, signature, body: flatBodyText(bodyEntries(kind, message, signature)) }
}

/** Body (parsed) → typed message using the spec's field→body mapping; route presence picks the variant. */
export function messageFromBody(kind: OptionsKind, body: ParsedBodyOk): OptionsMessage {
  const info = kindInfo(kind)
  const value = body.value
  if (!isObject(value)) throw new SigningInputError(`the ${kind} body must be a JSON object`)
  const id = pickVariant(info, (bodyKey) => value[bodyKey] !== undefined)
  const { struct } = compiledMessage(id)
  const out: Record<string, string | bigint> = {}
  for (const f of struct.fields) {
    const pointer = `/${f.body.replace(/~/g, '~0').replace(/\//g, '~1')}`
    if (f.kind === 'uint') {
      const r = readUint64(body, pointer)
      if (!r.ok) throw new SigningInputError(r.message, f.body)
      if (r.value > f.max) throw new SigningInputError(`${f.body} must be in 0..${f.max}`, f.body)
      out[f.name] = r.value
    } else {
      const v = value[f.body]
      if (typeof v !== 'string') throw new SigningInputError(`${f.body} must be a string, got ${v === undefined ? 'nothing' : typeOf(v)}`, f.body)
      out[f.name] = v
    }
  }
  return out
}

// ---------------------------------------------------------------- verification

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const HALF_N = N >> 1n
const HALF_N_HEX = HALF_N.toString(16).padStart(64, '0')
const N_HEX = N.toString(16).padStart(64, '0')
const ZERO_HEX = '0'.repeat(64)
const SIG_RE = /^0x[0-9a-fA-F]{130}$/

/** The checksummed address of a 65-byte uncompressed public key. */
export function addressOfPublicKey(pub: Uint8Array): Hex {
  const hash = keccak256(pub.subarray(1))
  return checksum(hash.toString('hex', 12))
}

// Signers repeat (a wallet signs many orders): their EIP-55 form is memoised, bounded.
let checksumCache = new Map<string, Hex>()
onCryptoBackendChange(() => {
  checksumCache = new Map()
})

/** EIP-55 checksum of 40 lowercase hex digits. */
export function checksum(lower: string): Hex {
  let out = checksumCache.get(lower)
  if (out === undefined) {
    out = computeChecksum(lower)
    if (checksumCache.size >= 4096) checksumCache = new Map()
    checksumCache.set(lower, out)
  }
  return out
}

function computeChecksum(lower: string): Hex {
  const h = keccak256(Buffer.from(lower, 'latin1'))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const c = lower[i]!
    const nibble = (h[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nibble >= 8 ? c.toUpperCase() : c
  }
  return out as Hex
}

const recoverOut = new Uint8Array(65)

/**
 * Recovers the signer of a digest from r/s (64 hex digits each, lowercase or not) and v.
 * Synchronous and total: every failure is a typed result.
 */
export function recoverDigest(digest: Buffer, rHex: string, sHex: string, v: number, allowHighS: boolean): VerifyResult {
  const digestHex = toHex(digest)
  let recid: number
  if (v === 27 || v === 28) recid = v - 27
  else if (v === 0 || v === 1) recid = v
  else return { ok: false, digest: digestHex, reason: 'bad_v', message: `signature v must be 27 or 28 (or 0/1), got ${v}` }
  const r = rHex.toLowerCase()
  const s = sHex.toLowerCase()
  // Fixed-width lowercase hex compares like the numbers it encodes.
  if (r === ZERO_HEX || s === ZERO_HEX || r >= N_HEX || s >= N_HEX) {
    return { ok: false, digest: digestHex, reason: 'unrecoverable', message: 'signature r or s is zero or not below the curve order' }
  }
  if (!allowHighS && s > HALF_N_HEX) {
    return { ok: false, digest: digestHex, reason: 'high_s', message: 'signature s is in the upper half of the curve order (malleable high-s form)' }
  }
  try {
    const sig = Buffer.from(r + s, 'hex')
    const pub = cryptoBackend().secp.ecdsaRecover(sig, recid, digest, false, recoverOut)
    return { ok: true, signer: addressOfPublicKey(pub), digest: digestHex }
  } catch (err) {
    return { ok: false, digest: digestHex, reason: 'unrecoverable', message: `no public key recovers from this signature (${err instanceof Error ? err.message : String(err)})` }
  }
}

/** Synchronous; v ∈ {0,1,27,28}; high-s rejected unless allowHighS. Never throws. */
export function verifyOptions(
  kind: OptionsKind,
  message: OptionsMessage,
  signature: string,
  opts: { domain?: DomainOverrides; allowHighS?: boolean } = {},
): VerifyResult {
  let digest: Buffer
  try {
    digest = digestBytes(kind, message, opts.domain)
  } catch (err) {
    return { ok: false, reason: 'unrecoverable', message: `cannot hash the message: ${err instanceof Error ? err.message : String(err)}` }
  }
  if (typeof signature !== 'string' || !SIG_RE.test(signature)) {
    const what = typeof signature !== 'string' ? typeOf(signature) : !signature.startsWith('0x') ? 'no 0x prefix' : !/^0x[0-9a-fA-F]*$/.test(signature) ? 'non-hex characters' : `${signature.length - 2} hex digits`
    return { ok: false, digest: toHex(digest), reason: 'malformed_signature', message: `signature must be 0x + 130 hex digits (r ‖ s ‖ v), got ${what}` }
  }
  return recoverDigest(digest, signature.slice(2, 66), signature.slice(66, 130), parseInt(signature.slice(130, 132), 16), opts.allowHighS === true)
}

/** Every typed field a kind can carry across its variants (body name, typed name, solidity type). */
export function kindFields(kind: OptionsKind): { name: string; body: string; type: string }[] {
  const info = kindInfo(kind)
  const seen = new Map<string, { name: string; body: string; type: string }>()
  for (const v of info.signed?.variants ?? [{ message: kind }]) {
    for (const f of compiledMessage(v.message).struct.fields) if (!seen.has(f.name)) seen.set(f.name, { name: f.name, body: f.body, type: f.type })
  }
  return [...seen.values()]
}
