/**
 * A minimal EIP-712 encoder for the flat structs the contract signs (no nested structs, no
 * arrays): type hashes computed once per message type, domain separators cached per domain,
 * each field encoded straight into one preallocated 32-byte-slot buffer.
 */
import { keccak256, onCryptoBackendChange } from './crypto.ts'
import { typeOf } from './hex.ts'
import { SigningInputError, type Hex } from './types.ts'

type FieldKind = 'address' | 'string' | 'uint' | 'bytes32' | 'bool'

export interface CompiledField {
  readonly name: string
  readonly type: string
  readonly body: string
  readonly kind: FieldKind
  /** Upper bound for uintN. */
  readonly max: bigint
}

export interface CompiledStruct {
  readonly primaryType: string
  readonly fields: readonly CompiledField[]
  readonly names: ReadonlySet<string>
  readonly encodeType: string
  readonly typeHash: Buffer
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/
const BYTES32_RE = /^0x[0-9a-fA-F]{64}$/

function kindOf(type: string): { kind: FieldKind; max: bigint } {
  if (type === 'address' || type === 'string' || type === 'bytes32' || type === 'bool') return { kind: type, max: 0n }
  const m = /^uint(\d+)$/.exec(type)
  if (m) {
    const bits = Number(m[1])
    if (bits % 8 === 0 && bits >= 8 && bits <= 256) return { kind: 'uint', max: (1n << BigInt(bits)) - 1n }
  }
  throw new SigningInputError(`EIP-712 type ${type} is not supported by the signing encoder`)
}

// Compiled per field list; the spec is read once, so the cache holds a handful of entries.
const structCache = new Map<string, CompiledStruct>()

export function compileStruct(primaryType: string, fields: readonly { name: string; type: string; body?: string }[]): CompiledStruct {
  const encodeType = `${primaryType}(${fields.map((f) => `${f.type} ${f.name}`).join(',')})`
  const bodies = fields.map((f) => f.body ?? f.name).join(',')
  const key = `${encodeType}|${bodies}`
  let s = structCache.get(key)
  if (!s) {
    s = {
      primaryType,
      encodeType,
      typeHash: keccak256(Buffer.from(encodeType, 'utf8')),
      names: new Set(fields.map((f) => f.name)),
      fields: fields.map((f) => ({ name: f.name, type: f.type, body: f.body ?? f.name, ...kindOf(f.type) })),
    }
    structCache.set(key, s)
  }
  return s
}

/** Checks that `value` fits the field's type; throws a one-line SigningInputError otherwise. */
export function checkField(struct: CompiledStruct, f: CompiledField, value: unknown): void {
  const where = `${struct.primaryType}.${f.name}`
  switch (f.kind) {
    case 'address':
      if (typeof value !== 'string' || !ADDRESS_RE.test(value)) {
        throw new SigningInputError(`${where} must be an address (0x + 40 hex digits), got ${describe(value)}`, f.name)
      }
      return
    case 'string':
      if (typeof value !== 'string') {
        throw new SigningInputError(
          `${where} must be a string${f.name === 'size' || f.name === 'price' ? ' (sign the exact decimal text)' : ''}, got ${describe(value)}`,
          f.name,
        )
      }
      return
    case 'bytes32':
      if (typeof value !== 'string' || !BYTES32_RE.test(value))
        throw new SigningInputError(`${where} must be 32 bytes of hex (0x + 64 hex digits), got ${describe(value)}`, f.name)
      return
    case 'bool':
      if (typeof value !== 'boolean') throw new SigningInputError(`${where} must be a boolean, got ${describe(value)}`, f.name)
      return
    case 'uint': {
      const v = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value
      if (typeof v !== 'bigint') throw new SigningInputError(`${where} must be an integer (${f.type}), got ${describe(value)}`, f.name)
      if (v < 0n || v > f.max) throw new SigningInputError(`${where} must be in 0..${f.max} (${f.type}), got ${v}`, f.name)
      return
    }
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return v.length > 40 ? `"${v.slice(0, 40)}…"` : JSON.stringify(v)
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return `${typeOf(v)} ${String(v)}`
  return typeOf(v)
}

// ---------------------------------------------------------------- string hashes

/**
 * keccak(utf8(s)) of short strings, memoised. Order flow repeats most string fields (symbols,
 * sides, tifs, routes, often sizes and prices), and the permutation is most of a digest's cost.
 * Bounded: cleared whole when full, so memory stays small whatever the traffic.
 */
let stringCacheLimit = 8192
const MAX_CACHED_LENGTH = 96
let stringCache = new Map<string, Buffer>()

function hashString(s: string): Buffer {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: whether a string goes through the memo; its hash is the same
  if (s.length > MAX_CACHED_LENGTH || stringCacheLimit === 0) return keccak256(Buffer.from(s, 'utf8'))
  let h = stringCache.get(s)
  if (h === undefined) {
    h = keccak256(Buffer.from(s, 'utf8'))
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the memo bound; hashes are the same whether or when it is cleared
    if (stringCache.size >= stringCacheLimit) stringCache = new Map()
    stringCache.set(s, h)
  }
  return h
}

/** Sets the size of the string-hash memo (0 turns it off; benchmarks measure both). Returns the old size. */
export function setStringHashCache(entries: number): number {
  const old = stringCacheLimit
  stringCacheLimit = Math.max(0, Math.floor(entries))
  stringCache = new Map()
  return old
}

/** Drops every memoised hash (type hashes, domain separators, strings). */
export function clearHashCaches(): void {
  stringCache = new Map()
  structCache.clear()
  separatorCache.clear()
}
onCryptoBackendChange(clearHashCaches)

/**
 * hashStruct(message) = keccak(typeHash ‖ enc(field)…). Validates every field and rejects
 * fields the struct does not have (a `client_id` where `clientId` belongs must not pass).
 */
export function hashStruct(struct: CompiledStruct, message: { readonly [k: string]: unknown }, validate = true): Buffer {
  const fields = struct.fields
  const buf = Buffer.allocUnsafe(32 * (fields.length + 1))
  struct.typeHash.copy(buf, 0)
  if (validate) {
    for (const k in message) {
      if (message[k] !== undefined && !struct.names.has(k)) {
        throw new SigningInputError(`${struct.primaryType} has no field ${k} (fields: ${fields.map((f) => f.name).join(', ')})`, k)
      }
    }
  }
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!
    const value = message[f.name]
    const off = 32 * (i + 1)
    if (value === undefined) throw new SigningInputError(`${struct.primaryType}.${f.name} is missing`, f.name)
    if (validate) checkField(struct, f, value)
    switch (f.kind) {
      case 'string':
        hashString(value as string).copy(buf, off)
        break
      case 'address':
        buf.fill(0, off, off + 12)
        buf.write((value as string).slice(2), off + 12, 20, 'hex')
        break
      case 'uint': {
        const v = typeof value === 'bigint' ? value : BigInt(value as number)
        if (f.max <= 0xffffffffffffffffn) {
          buf.fill(0, off, off + 24)
          buf.writeBigUInt64BE(v, off + 24)
        } else {
          buf.write(v.toString(16).padStart(64, '0'), off, 32, 'hex')
        }
        break
      }
      case 'bytes32':
        buf.write((value as string).slice(2), off, 32, 'hex')
        break
      case 'bool':
        buf.fill(0, off, off + 32)
        buf[off + 31] = value ? 1 : 0
        break
    }
  }
  return keccak256(buf)
}

// ---------------------------------------------------------------- domain

/** A domain whose fields are exactly those present (EIP712Domain lists only them, in canonical order). */
export interface DomainFields {
  name?: string
  version?: string
  chainId?: bigint
  verifyingContract?: Hex
}

const DOMAIN_ORDER = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const

export function domainTypeOf(d: DomainFields): { name: string; type: string }[] {
  return DOMAIN_ORDER.filter((f) => d[f.name] !== undefined).map((f) => ({ ...f }))
}

const separatorCache = new Map<string, Buffer>()

/** Cached per (fields present, values). */
export function domainSeparator(d: DomainFields): Buffer {
  const key = `${d.name ?? '\u0001'}\u0000${d.version ?? '\u0001'}\u0000${d.chainId ?? ''}\u0000${d.verifyingContract?.toLowerCase() ?? ''}`
  let sep = separatorCache.get(key)
  if (!sep) {
    const struct = compileStruct('EIP712Domain', domainTypeOf(d))
    sep = hashStruct(struct, d as Record<string, unknown>)
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the memo bound; separators are the same whether or when it is cleared
    if (separatorCache.size > 1000) separatorCache.clear()
    separatorCache.set(key, sep)
  }
  return sep
}

const digestBuf = Buffer.alloc(66)
digestBuf[0] = 0x19
digestBuf[1] = 0x01

/** keccak(0x1901 ‖ domainSeparator ‖ hashStruct(message)). */
export function typedDigest(separator: Buffer, structHash: Buffer): Buffer {
  separator.copy(digestBuf, 2)
  structHash.copy(digestBuf, 34)
  return keccak256(digestBuf)
}
