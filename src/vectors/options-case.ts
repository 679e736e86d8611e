/**
 * Builds one options vector case (PlaceOrder, cancels, agent approval) from a short description:
 * what is signed (standard typed data, or a deliberately wrong variant of it), by whom, and what
 * is sent (the body, possibly changed after signing). Expected values come from ox over the
 * exact typed data; for standard typed data they are cross-checked against src/signing, and the
 * body of an unchanged request is the signing module's own body text.
 */
import { RawJson } from '../signing/wire.ts'
import type { RuleId } from '../contract/generated/rules.ts'
import { exactDomain, signingFor, type DomainOverrides, type OptionsKind } from '../signing/index.ts'
import { deref, isObject, readSignedSchema } from '../contract/index.ts'
import type { VectorsContract } from './model.ts'
import {
  digestTyped,
  recoverAddressLoose,
  optionsBodyEntries,
  signTyped,
  specDomain,
  specFields,
  standardTypedData,
  writeBody,
  SECP256K1_N,
  type BodyEntries,
  type DomainJson,
  type Party,
} from './build.ts'
import type { Hex, ProtocolVerify, ServerOutcome, SetupStep, TypedDataJson, VectorCase, VectorResult } from './model.ts'

/** What every case builder is told about the verdict, before what is signed and sent. */
export interface CaseVerdictInput {
  comment: string
  rules: RuleId[]
  flags: string[]
  level?: 'stated' | 'assumed'
  result: VectorResult
  server: ServerOutcome | ServerOutcome[]
}

/** The leading fields of a case, in the order the vector files write them. */
export function caseHead(
  tcId: number,
  input: CaseVerdictInput,
): Pick<VectorCase, 'tcId' | 'comment' | 'rules' | 'flags' | 'level' | 'result' | 'server'> {
  return {
    tcId,
    comment: input.comment,
    rules: input.rules,
    flags: input.flags,
    level: input.level ?? 'stated',
    result: input.result,
    server: input.server,
  }
}

export interface OptionsCaseInput extends CaseVerdictInput {
  kind: OptionsKind
  /** Typed-data fields as signed (typed names; uint values as decimal strings). */
  message: Record<string, string>
  signer: Party
  /** The trading wallet (defaults to message.wallet, else the signer). */
  wallet?: Hex
  /** The signed domain (default: the spec's options domain). Replaces the default whole. */
  domain?: DomainJson
  /** Changes the typed data before signing (wrong struct, wrong domain types). */
  mutateTypedData?: (td: TypedDataJson) => TypedDataJson
  /** Changes the body after signing (the signature no longer covers what is sent). */
  tamperBody?: (entries: BodyEntries) => BodyEntries
  /** The signature as it appears in the body (a different encoding of the same signature). */
  encodeSignature?: (sig: Hex) => string
  setup?: SetupStep[]
}

/** The spec message id a kind and message select (route presence picks the PlaceOrder variant). */
export function variantOf(spec: VectorsContract, kind: OptionsKind, fields: Iterable<string>): string {
  const names = new Set(fields)
  const candidates = Object.values(spec.typedData.messages).filter((m) => m.primaryType === kind && m.domain === 'options')
  const exact = candidates.find((m) => m.fields.length === names.size && m.fields.every((f) => names.has(f.name)))
  if (!exact) throw new Error(`no ${kind} message in the spec has the fields ${[...names].join(', ')}`)
  return exact.id
}

/** The operation carrying a signed message: its method and path, read from the spec. */
export function operationFor(spec: VectorsContract, variant: string): { method: 'POST' | 'DELETE'; path: string } {
  for (const op of spec.operations) {
    const schema = deref(spec.doc, op.requestSchema)
    const alternatives = isObject(schema) && Array.isArray(schema.oneOf) ? schema.oneOf.map((s) => deref(spec.doc, s)) : [schema]
    for (const alt of alternatives) {
      const signed = readSignedSchema(alt)
      if (signed?.variants.some((v) => v.message === variant)) return { method: op.method as 'POST' | 'DELETE', path: op.path }
    }
  }
  throw new Error(`no operation in the spec carries ${variant}`)
}

function isStandard(spec: VectorsContract, variant: string, td: TypedDataJson): boolean {
  const std = standardTypedData(spec, variant, td.domain as DomainJson, td.message)
  return JSON.stringify(std.types) === JSON.stringify(td.types) && std.primaryType === td.primaryType
}

function sameDomain(a: DomainJson, b: DomainJson): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** A domain with the standard value types, as src/signing overrides that replace the default whole. */
function overridesOf(d: DomainJson): DomainOverrides | undefined {
  const o: DomainOverrides = {}
  for (const [k, v] of Object.entries(d)) {
    if ((k === 'name' || k === 'version') && typeof v === 'string') o[k] = v
    else if (k === 'chainId' && typeof v === 'number') o.chainId = v
    else if (k === 'verifyingContract' && typeof v === 'string') o.verifyingContract = v as Hex
    else return undefined
  }
  return exactDomain(o)
}

function bigMessage(m: Record<string, string>, spec: VectorsContract, variant: string): Record<string, string | bigint> {
  const out: Record<string, string | bigint> = {}
  for (const f of specFields(spec, variant)) out[f.name] = /^u?int\d*$/.test(f.type) ? BigInt(m[f.name] ?? '0') : (m[f.name] ?? '')
  return out
}

/**
 * The message with the fields a newer spec signs that a family does not set, valued from the
 * spec's schema (the shipped spec adds none, so its vectors stay byte for byte the same).
 */
export function withSpecFields(spec: VectorsContract, kind: OptionsKind, message: Record<string, string>): Record<string, string> {
  const filled = signingFor(spec).missingFields(kind, message)
  return filled.length ? { ...message, ...Object.fromEntries(filled.map((f) => [f.name, String(f.value)])) } : message
}

export async function optionsCase(spec: VectorsContract, tcId: number, given: OptionsCaseInput): Promise<VectorCase> {
  const input = { ...given, message: withSpecFields(spec, given.kind, given.message) }
  const variant = variantOf(spec, input.kind, Object.keys(input.message))
  const defaultDomain = specDomain(spec, 'options')
  const domain = input.domain ?? defaultDomain
  let td = standardTypedData(spec, variant, domain, input.message)
  if (input.mutateTypedData) td = input.mutateTypedData(td)
  const { digest, signature } = await signTyped(td, input.signer.key)
  const standard = isStandard(spec, variant, td)
  const overrides = overridesOf(td.domain as DomainJson)

  // Differential check against the toolkit's signer wherever it can express the typed data.
  if (standard && overrides) {
    const msg = bigMessage(input.message, spec, variant)
    const ours = await signingFor(spec).signOptions(input.kind, msg, input.signer.key, overrides)
    if (ours.digest !== digest || ours.signature.toLowerCase() !== signature.toLowerCase()) {
      throw new Error(`vector ${input.kind}/${tcId}: src/signing gives ${ours.digest}/${ours.signature}, ox ${digest}/${signature}`)
    }
  }

  const sigInBody = input.encodeSignature ? input.encodeSignature(signature) : signature
  let entries = optionsBodyEntries(spec, variant, input.message, sigInBody)
  if (input.tamperBody) entries = input.tamperBody(entries)
  let body = writeBody(entries)
  const untouched = !input.tamperBody && !input.encodeSignature
  if (untouched && standard && overrides) {
    // The exact body text of the toolkit's request builder, so vectors pin what it writes.
    body = (await signingFor(spec).buildRequest(input.kind, bigMessage(input.message, spec, variant), input.signer.key, overrides)).body
  }
  const op = operationFor(spec, variant)
  const wallet = input.wallet ?? (input.message.wallet as Hex | undefined) ?? input.signer.address

  const c: VectorCase = {
    ...caseHead(tcId, input),
    kind: input.kind,
    privateKey: input.signer.key,
    signer: input.signer.address,
    wallet,
    typedData: td,
    digest,
    signature,
    request: { method: op.method, path: op.path, body },
  }
  if (untouched && standard && overrides) {
    c.sign = {
      kind: input.kind,
      ...(sameDomain(td.domain as DomainJson, defaultDomain) ? {} : { domain: td.domain }),
      message: { ...input.message },
    }
  }
  const verify = await verifyView(spec, input.kind, entries, input.signer.address, defaultDomain)
  if (verify) c.verify = verify
  if (input.setup) c.setup = input.setup
  return c
}

/**
 * What a verifier sees: the message the server rebuilds from the body (route presence picks the
 * variant) and the signature from the body, with the verdict a correct verifier gives.
 */
export async function verifyView(
  spec: VectorsContract,
  kind: OptionsKind,
  entries: BodyEntries,
  signer: Hex,
  domain: DomainJson,
): Promise<ProtocolVerify | undefined> {
  const get = (k: string) => entries.find(([key]) => key === k)?.[1]
  const present = new Set(entries.map(([k]) => k))
  const candidates = Object.values(spec.typedData.messages).filter((m) => m.primaryType === kind && m.domain === 'options')
  const variant = candidates.find((m) => m.fields.every((f) => present.has(f.body)) && m.fields.length === present.size - 1)
  if (!variant) return undefined // a renamed or missing field: no message to verify
  const message: Record<string, unknown> = {}
  let wellTyped = true
  for (const f of variant.fields) {
    const v = get(f.body)!
    const isInt = /^u?int\d*$/.test(f.type)
    if (typeof v === 'string') {
      message[f.name] = v
      if (isInt) return undefined // a nonce sent as a string: no integer to verify with
    } else if (!(v instanceof RawJson)) return undefined
    else if (isInt && /^(0|[1-9][0-9]*)$/.test(v.text) && BigInt(v.text) < 1n << 64n) {
      message[f.name] = v.text
    } else if (!isInt && /^-?[0-9.eE+-]+$/.test(v.text)) {
      message[f.name] = Number(v.text) // a number where a string is signed: a verifier refuses it
      wellTyped = false
    } else return undefined
  }
  const sigValue = get('signature')
  if (typeof sigValue !== 'string') return undefined
  const signature = sigValue
  const out: ProtocolVerify = { kind, message, signature, accept: false }
  if (!wellTyped) return out
  const td = standardTypedData(spec, variant.id, domain, message)
  const digest = digestTyped(td)
  out.digest = digest
  out.accept = (await recoverStrict(digest, signature))?.toLowerCase() === signer.toLowerCase()
  return out
}

/** Recovery under the contract's signature rules: 65 bytes, v in {0,1,27,28}, low s. */
export async function recoverStrict(digest: Hex, signature: string): Promise<Hex | null> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return null
  const r = BigInt('0x' + signature.slice(2, 66))
  const s = BigInt('0x' + signature.slice(66, 130))
  const v = parseInt(signature.slice(130, 132), 16)
  if (![0, 1, 27, 28].includes(v)) return null
  if (r === 0n || r >= SECP256K1_N || s === 0n || s > SECP256K1_N / 2n) return null
  return recoverAddressLoose(digest, signature)
}
