/**
 * The options messages (PlaceOrder in both variants, cancels, agent approval) of one contract:
 * types, domains, body mapping and variant choice all read from that contract's `x-eip712`
 * layer and its `x-eip712-signed` bodies. Compiled structs and default domain separators are
 * cached per contract, on the object `createOptionsSigning` returns.
 */
import type { LocalAccount, TypedDataDefinition } from 'viem'
import type { Contract } from '../contract/load.ts'
import { deref, isObject, readSignedSchema, type SignedMessage, type SignedSchema } from '../contract/model.ts'
import { readUint64, type ParsedBodyOk } from './body.ts'
import { bodyText } from './wire.ts'
import { compileStruct, domainSeparator, domainTypeOf, hashStruct, typedDigest, type CompiledStruct, type DomainFields } from './eip712.ts'
import { isHex, toHex, typeOf } from './hex.ts'
import { recoverSignature, signDigest } from './signature.ts'
import {
  SigningInputError,
  type DomainOverrides,
  type Hex,
  type OptionsKind,
  type OptionsMessage,
  type ResolvedDomain,
  type Signer,
  type VerifyResult,
} from './types.ts'

interface KindInfo {
  readonly kind: string
  /** Signed-body schema (`x-eip712-signed`) carrying this kind, if the spec has one. */
  readonly signed: SignedSchema | undefined
  readonly schemaName: string | undefined
}

export interface CompiledMessage {
  readonly message: SignedMessage
  readonly struct: CompiledStruct
}

export type OptionsTypedData = {
  domain: DomainFields
  types: Record<string, { name: string; type: string }[]>
  primaryType: string
  message: Record<string, string | bigint>
}

export interface VerifyOptions {
  domain?: DomainOverrides | undefined
  allowHighS?: boolean | undefined
}

/** Everything the options messages of one contract can do. */
export interface OptionsSigning {
  /** The options kinds the contract's signed bodies define (PlaceOrder, CancelOrder, ...). */
  optionsKinds(): OptionsKind[]
  /** The compiled struct for a message id under `x-eip712.messages`. */
  compiledMessage(id: string): CompiledMessage
  /** The contract's message id for a kind and message: `PlaceOrder`, `PlaceOrderWithoutRoute`, ... */
  messageVariant(kind: OptionsKind, message: OptionsMessage): string
  /** The fields actually signed: the contract's domain merged with overrides, or exactly the given fields. */
  domainFields(key: string, o?: DomainOverrides): DomainFields
  /** The options domain with overrides applied. */
  optionsDomain(o?: DomainOverrides): ResolvedDomain
  /** The perp domain with overrides applied. */
  perpDomain(o?: DomainOverrides): ResolvedDomain
  /** Domain separator; the contract's own domains are cached. */
  separatorFor(key: string, domain?: DomainOverrides): Buffer
  /** viem-ready typed data (`types` without EIP712Domain; viem and ethers derive it from `domain`). */
  typedDataFor(kind: OptionsKind, message: OptionsMessage, domain?: DomainOverrides): OptionsTypedData
  /** The EIP-712 digest (cached type hashes and domain separators, native keccak). */
  digestOf(kind: OptionsKind, message: OptionsMessage, domain?: DomainOverrides): Hex
  signOptions(
    kind: OptionsKind,
    message: OptionsMessage,
    signer: Signer,
    domain?: DomainOverrides,
  ): Promise<{ digest: Hex; signature: Hex }>
  /** Signs and returns the exact HTTP body text (size/price as signed strings, nonce digits exact). */
  buildRequest(
    kind: OptionsKind,
    message: OptionsMessage,
    signer: Signer,
    domain?: DomainOverrides,
  ): Promise<{ digest: Hex; signature: Hex; body: string }>
  /** Body (parsed) → typed message by the contract's field→body mapping; route presence picks the variant. */
  messageFromBody(kind: OptionsKind, body: ParsedBodyOk): OptionsMessage
  /** Synchronous; v ∈ {0,1,27,28}; high-s rejected unless allowHighS. Never throws. */
  verifyOptions(kind: OptionsKind, message: OptionsMessage, signature: string, opts?: VerifyOptions): VerifyResult
  /** Every typed field a kind can carry across its variants (body name, typed name, solidity type). */
  kindFields(kind: OptionsKind): { name: string; body: string; type: string }[]
  /**
   * The fields of the message's struct variant that `message` lacks, each with a value a
   * caller may sign and send: the body schema's `default`, `example` or first `enum` value,
   * else the zero value of its type. Lets a client or a checker built for one version of a
   * spec sign the messages of a version that added a field.
   */
  missingFields(
    kind: OptionsKind,
    message: Readonly<Record<string, unknown>>,
  ): { name: string; body: string; type: string; value: string | bigint }[]
}

// ---------------------------------------------------------------- domains (contract-free)

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
    if (typeof o.version !== 'string')
      throw new SigningInputError(`domain.version must be a string, got ${typeOf(o.version)}`, 'domain.version')
    out.version = o.version
  }
  if (o.chainId !== undefined) {
    const c = o.chainId
    const ok = (typeof c === 'number' && Number.isSafeInteger(c) && c >= 0) || (typeof c === 'bigint' && c >= 0n && c < 1n << 256n)
    if (!ok) throw new SigningInputError(`domain.chainId must be a non-negative integer, got ${typeOf(c)} ${String(c)}`, 'domain.chainId')
    out.chainId = BigInt(c)
  }
  if (o.verifyingContract !== undefined) {
    if (!isHex(o.verifyingContract, 20))
      throw new SigningInputError('domain.verifyingContract must be an address (0x + 40 hex digits)', 'domain.verifyingContract')
    out.verifyingContract = o.verifyingContract
  }
  return out
}

/** The EIP712Domain type list for a domain (only the fields present). */
export function eip712DomainType(domain: DomainFields): { name: string; type: string }[] {
  return domainTypeOf(domain)
}

function isAccount(s: unknown): s is LocalAccount {
  return typeof s === 'object' && s !== null && typeof (s as LocalAccount).signTypedData === 'function'
}

export async function signTypedWith(signer: Signer, digest: Buffer, typed: () => TypedDataDefinition): Promise<Hex> {
  if (isAccount(signer)) return signer.signTypedData(typed())
  return signDigest(digest, signer).signature
}

/** The options kinds of a contract: each signed body's variants, by primary type. */
function readKinds(contract: Contract<'typedData'>): Map<string, KindInfo> {
  const map = new Map<string, KindInfo>()
  const components = contract.doc.components
  const schemas = isObject(components) && isObject(components.schemas) ? components.schemas : {}
  for (const [schemaName, schema] of Object.entries(schemas)) {
    const signed = readSignedSchema(schema)
    if (!signed || signed.derived) continue
    for (const v of signed.variants) {
      const primary = contract.typedData.messages[v.message]?.primaryType ?? v.message
      if (!map.has(primary)) map.set(primary, { kind: primary, signed, schemaName })
    }
  }
  return map
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

// ---------------------------------------------------------------- per contract

// Body keys are the spec's few field names: their JSON pointers are built once, not per request.
const pointers = new Map<string, string>()
function pointerOf(bodyKey: string): string {
  let p = pointers.get(bodyKey)
  if (p === undefined) {
    p = `/${bodyKey.replace(/~/g, '~0').replace(/\//g, '~1')}`
    if (pointers.size >= 1024) pointers.clear()
    pointers.set(bodyKey, p)
  }
  return p
}

export function createOptionsSigning(contract: Contract<'typedData'>): OptionsSigning {
  const typedData = contract.typedData
  const kinds = readKinds(contract)
  const compiledCache = new Map<string, CompiledMessage>()
  const defaultSeparators = new Map<string, Buffer>()
  const typedNames = new Map<string, string>()

  const kindInfo = (kind: string): KindInfo => {
    const info = kinds.get(kind)
    if (!info) throw new SigningInputError(`unknown kind ${JSON.stringify(kind)} (one of ${[...kinds.keys()].join(', ')})`, 'kind')
    return info
  }

  const compiledMessage = (id: string): CompiledMessage => {
    let c = compiledCache.get(id)
    if (!c) {
      const message = typedData.messages[id]
      if (!message) throw new SigningInputError(`the spec has no typed-data message ${id}`)
      c = { message, struct: compileStruct(message.primaryType, message.fields) }
      compiledCache.set(id, c)
    }
    return c
  }

  /** Typed-data field name carrying a body key, looked up across the kind's variants. */
  const typedNameOf = (info: KindInfo, bodyKey: string): string => {
    const key = `${info.kind}\u0000${bodyKey}`
    let name = typedNames.get(key)
    if (name === undefined) {
      name = bodyKey
      for (const v of info.signed?.variants ?? []) {
        const f = typedData.messages[v.message]?.fields.find((x) => x.body === bodyKey)
        if (f) {
          name = f.name
          break
        }
      }
      typedNames.set(key, name)
    }
    return name
  }

  const messageVariant = (kind: OptionsKind, message: OptionsMessage): string => {
    const info = kindInfo(kind)
    const variants = info.signed?.variants
    // Fast path: a single variant needs no look at the message.
    if (variants && variants.length === 1) return variants[0]!.message
    return pickVariant(info, (bodyKey) => message[typedNameOf(info, bodyKey)] !== undefined)
  }

  const specDomain = (key: string): ResolvedDomain => {
    const d = typedData.domains[key]
    if (!d) throw new SigningInputError(`the spec has no ${key} signing domain`)
    return { name: d.name, version: d.version, chainId: BigInt(d.chainId), verifyingContract: d.verifyingContract }
  }

  const domainFields = (key: string, o?: DomainOverrides): DomainFields => {
    if (o === undefined) return specDomain(key)
    if (isExactDomain(o)) return checkDomain(o)
    return { ...specDomain(key), ...checkDomain(o) }
  }

  const full = (key: string, o?: DomainOverrides): ResolvedDomain =>
    ({ ...specDomain(key), ...(o ? checkDomain(o) : {}) }) as ResolvedDomain

  // A frozen override cannot change, so its separator is kept with it: a server passes the same one per request.
  const frozenSeparators = new WeakMap<DomainOverrides, Map<string, Buffer>>()
  const separatorFor = (key: string, domain?: DomainOverrides): Buffer => {
    if (domain !== undefined) {
      if (!Object.isFrozen(domain)) return domainSeparator(domainFields(key, domain))
      let byKey = frozenSeparators.get(domain)
      if (!byKey) frozenSeparators.set(domain, (byKey = new Map()))
      let sep = byKey.get(key)
      if (!sep) byKey.set(key, (sep = domainSeparator(domainFields(key, domain))))
      return sep
    }
    let sep = defaultSeparators.get(key)
    if (!sep) {
      sep = domainSeparator(domainFields(key))
      defaultSeparators.set(key, sep)
    }
    return sep
  }

  const resolve = (kind: OptionsKind, message: OptionsMessage): CompiledMessage => {
    if (message === null || typeof message !== 'object')
      throw new SigningInputError(`message must be an object, got ${typeOf(message)}`, 'message')
    return compiledMessage(messageVariant(kind, message))
  }

  const typedDataFor = (kind: OptionsKind, message: OptionsMessage, domain?: DomainOverrides): OptionsTypedData => {
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

  const digestBytes = (kind: OptionsKind, message: OptionsMessage, domain?: DomainOverrides): Buffer => {
    const c = resolve(kind, message)
    return typedDigest(separatorFor(c.message.domain, domain), hashStruct(c.struct, message))
  }

  const signOptions = async (kind: OptionsKind, message: OptionsMessage, signer: Signer, domain?: DomainOverrides) => {
    const digest = digestBytes(kind, message, domain)
    const signature = await signTypedWith(signer, digest, () => typedDataFor(kind, message, domain) as unknown as TypedDataDefinition)
    return { digest: toHex(digest), signature }
  }

  /** The body keys of a kind, in typed-field order, then the signature key. */
  const bodyEntries = (kind: OptionsKind, message: OptionsMessage, signature: Hex): [string, string | bigint][] => {
    const c = resolve(kind, message)
    const entries: [string, string | bigint][] = c.struct.fields.map((f) => {
      const v = message[f.name]!
      return [f.body, f.kind === 'uint' ? BigInt(v) : v]
    })
    entries.push([kindInfo(kind).signed?.signature ?? 'signature', signature])
    return entries
  }

  const bodySchemaOf = (info: KindInfo): Record<string, unknown> => {
    const components = contract.doc.components
    const schemas = isObject(components) && isObject(components.schemas) ? components.schemas : {}
    const schema = info.schemaName !== undefined ? schemas[info.schemaName] : undefined
    return isObject(schema) && isObject(schema.properties) ? schema.properties : {}
  }

  const fillValue = (info: KindInfo, body: string, type: string): string | bigint => {
    const prop = deref(contract.doc, bodySchemaOf(info)[body])
    const given = isObject(prop) ? (prop.default ?? prop.example ?? (Array.isArray(prop.enum) ? prop.enum[0] : undefined)) : undefined
    if (/^uint\d*$/.test(type)) return typeof given === 'number' || typeof given === 'string' ? BigInt(given) : 0n
    if (type === 'address') return typeof given === 'string' ? given : `0x${'0'.repeat(40)}`
    return typeof given === 'string' ? given : ''
  }

  return {
    optionsKinds: () => [...kinds.keys()] as OptionsKind[],
    compiledMessage,
    messageVariant,
    domainFields,
    optionsDomain: (o) => full('options', o),
    perpDomain: (o) => full('perps', o),
    separatorFor,
    typedDataFor,
    digestOf: (kind, message, domain) => toHex(digestBytes(kind, message, domain)),
    signOptions,
    async buildRequest(kind, message, signer, domain) {
      const { digest, signature } = await signOptions(kind, message, signer, domain)
      return { digest, signature, body: bodyText(bodyEntries(kind, message, signature)) }
    },
    messageFromBody(kind, body) {
      const info = kindInfo(kind)
      const value = body.value
      if (!isObject(value)) throw new SigningInputError(`the ${kind} body must be a JSON object`)
      const { struct } = compiledMessage(pickVariant(info, (bodyKey) => value[bodyKey] !== undefined))
      const out: Record<string, string | bigint> = {}
      for (const f of struct.fields) {
        const pointer = pointerOf(f.body)
        if (f.kind === 'uint') {
          const r = readUint64(body, pointer)
          if (!r.ok) throw new SigningInputError(r.message, f.body)
          if (r.value > f.max) throw new SigningInputError(`${f.body} must be in 0..${f.max}`, f.body)
          out[f.name] = r.value
        } else {
          const v = value[f.body]
          if (typeof v !== 'string')
            throw new SigningInputError(`${f.body} must be a string, got ${v === undefined ? 'nothing' : typeOf(v)}`, f.body)
          out[f.name] = v
        }
      }
      return out
    },
    verifyOptions(kind, message, signature, opts = {}) {
      let digest: Buffer
      try {
        digest = digestBytes(kind, message, opts.domain)
      } catch (err) {
        return {
          ok: false,
          reason: 'unrecoverable',
          message: `cannot hash the message: ${err instanceof Error ? err.message : String(err)}`,
        }
      }
      return recoverSignature(digest, signature, opts.allowHighS === true)
    },
    missingFields(kind, message) {
      const info = kindInfo(kind)
      const { struct } = compiledMessage(pickVariant(info, (bodyKey) => message[typedNameOf(info, bodyKey)] !== undefined))
      return struct.fields
        .filter((f) => message[f.name] === undefined)
        .map((f) => ({ name: f.name, body: f.body, type: f.type, value: fillValue(info, f.body, f.type) }))
    },
    kindFields(kind) {
      const info = kindInfo(kind)
      const seen = new Map<string, { name: string; body: string; type: string }>()
      for (const v of info.signed?.variants ?? [{ message: kind }]) {
        for (const f of compiledMessage(v.message).struct.fields)
          if (!seen.has(f.name)) seen.set(f.name, { name: f.name, body: f.body, type: f.type })
      }
      return [...seen.values()]
    },
  }
}
