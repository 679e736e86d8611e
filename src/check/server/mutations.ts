/**
 * The mutation engine behind signature-aware negative testing. From a signed request schema
 * of the spec it derives field mutations (type changed, pattern or enum broken, minLength and
 * numeric boundaries crossed, a required field removed, an unknown field added). Each mutation
 * says whether the mutated value can still be signed (a string field can carry any string; an
 * address or uint64 field only a valid one), so the runner can send it
 *   - re-signed over the mutated value: the signature is valid, so only field validation can
 *     refuse it (must be a 4xx `invalid_field`, never a 2xx), and
 *   - unsigned (the signature over the original values): must be refused.
 * Pure: a schema, a valid base body and a seeded RNG in, a list of mutations out.
 */
import type { RuleId } from '../../contract/generated/rules.ts'
import type { Level } from '../../report/model.ts'
import { deref, isObject, type JsonObject } from '../../contract/index.ts'
import { RawJson, type BodyValue } from '../target/requests.ts'
import type { Rng } from './rng.ts'
import type { OptionsKind } from '../../signing/index.ts'
import type { KnownErrorCode } from '../../contract/generated/errors.ts'

/** Removes the field from the body. */
export const REMOVE = Symbol('remove')

export interface Mutation {
  /** Stable within a seed: `<field>.<kind>[-<n>]`, e.g. `price.type-number`, `side.enum-1`. */
  readonly id: string
  readonly field: string
  readonly kind: 'type' | 'pattern' | 'enum' | 'min-length' | 'boundary' | 'required' | 'unknown'
  readonly description: string
  readonly value: BodyValue | typeof REMOVE
  /** Typed value to re-sign over; undefined when the mutated value cannot be signed. */
  readonly resign?: string | bigint | undefined
  /** Whether the field is covered by the signature (false: the signature itself, an unknown key). */
  readonly signedField: boolean
  readonly level: Level
  readonly rules: readonly RuleId[]
  /** Codes accepted for the re-signed variant without a warning. */
  readonly codes: readonly KnownErrorCode[]
}

export interface SchemaInfo {
  readonly name: string
  readonly schema: JsonObject
  /** Typed-data field name and type per body property (absent for the signature). */
  readonly typed: ReadonlyMap<string, { name: string; type: string }>
  /** Property that carries the signature. */
  readonly signature: string
  /** The message kind the schema is signed as. */
  readonly messageKind: OptionsKind
}

interface Prop {
  readonly name: string
  readonly schema: JsonObject
  /** The `$ref` name of the property (`Decimal`, `Address`, ...), when it has one. */
  readonly ref?: string | undefined
  readonly assumed: boolean
}

function props(doc: unknown, schema: JsonObject): Prop[] {
  const out: Prop[] = []
  const properties = isObject(schema.properties) ? schema.properties : {}
  for (const [name, raw] of Object.entries(properties)) {
    const ref = isObject(raw) && typeof raw.$ref === 'string' ? raw.$ref.split('/').pop() || undefined : undefined
    const resolved = deref(doc, raw)
    if (!isObject(resolved)) continue
    out.push({
      name,
      schema: resolved,
      ref,
      assumed: resolved['x-assumed'] === true || (isObject(raw) && raw['x-assumed'] === true),
    })
  }
  return out
}

const UINT64_MAX = (1n << 64n) - 1n

/** Rule ids for a mutated field: the runner's map from contract fields to spec/rules.yaml. */
function rulesFor(info: SchemaInfo, field: string, kind: Mutation['kind']): RuleId[] {
  if (kind === 'unknown') return ['PO-11']
  if (field === 'signature') return ['AUTH-7', 'AUTH-1']
  if (field === 'nonce') return kind === 'required' ? ['PO-8', 'NONCE-1'] : ['NONCE-1', 'NONCE-6']
  const po = info.messageKind === 'PlaceOrder'
  if (kind === 'required')
    return po ? ['PO-8'] : info.messageKind === 'ApproveAgent' || info.messageKind === 'RevokeAgent' ? ['AGENT-1', 'EP-9'] : ['EP-9']
  const byField: Record<string, RuleId[]> = {
    side: ['PO-1'],
    tif: ['PO-2'],
    route: ['PO-3'],
    size: kind === 'type' ? ['PO-5', 'SIGFAIL-1'] : ['PO-10'],
    price: kind === 'type' ? ['PO-5', 'SIGFAIL-1'] : ['PO-10'],
    symbol: ['SVC-2'],
    client_id: ['PO-7'],
    wallet: ['PO-8'],
    agent: ['AGENT-1', 'AGENT-9'],
    order_id: ['SIG-3', 'EP-9'],
  }
  return byField[field] ?? (po ? ['PO-8'] : ['EP-9'])
}

function typeName(v: BodyValue): string {
  if (v === null) return 'null'
  if (v instanceof RawJson) return 'raw'
  if (Array.isArray(v)) return 'array'
  return typeof v
}

/** Values of another JSON type than the schema's. */
function typeChanges(p: Prop, base: BodyValue): [string, BodyValue][] {
  const t = p.schema.type
  const out: [string, BodyValue][] = []
  if (t === 'string') {
    const s = String(base)
    out.push(['number', /^-?\d+(\.\d+)?$/.test(s) ? new RawJson(s) : 123])
    out.push(['null', null], ['boolean', true], ['array', [s]], ['object', { value: s }])
  } else if (t === 'integer') {
    out.push(
      ['string', String(base instanceof RawJson ? base.text : base)],
      ['null', null],
      ['boolean', false],
      ['array', [new RawJson(String(base))]],
    )
  } else if (t === 'boolean') out.push(['string', 'true'], ['number', 1])
  return out
}

/** Strings that break a pattern, derived from a valid value (filtered by the pattern itself). */
function patternBreakers(pattern: RegExp, valid: string): string[] {
  const candidates = [
    '',
    ' ',
    ` ${valid}`,
    `${valid} `,
    valid.slice(0, -1),
    `${valid}0x`,
    `0${valid}`,
    `-${valid}`,
    valid.toLowerCase(),
    valid.toUpperCase(),
    valid.replace(/[0-9]/, 'g'),
    '1e2',
    '.5',
    '1.',
    '+1',
    '0x',
    `${valid}\n`,
    valid.replace(/^0x/, ''),
  ]
  return [...new Set(candidates)].filter((c) => c !== valid && !pattern.test(c))
}

/** Can this mutated value be signed into a typed field of this type? Returns the typed value. */
function signable(type: string | undefined, v: BodyValue | typeof REMOVE): string | bigint | undefined {
  if (type === undefined || v === REMOVE) return undefined
  if (type === 'string') {
    if (typeof v === 'string') return v
    if (v instanceof RawJson && /^-?\d+(\.\d+)?$/.test(v.text)) return v.text
    if (typeof v === 'number') return String(v)
    return undefined
  }
  if (type === 'address') return typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v) ? v : undefined
  if (type.startsWith('uint')) {
    const text =
      typeof v === 'string'
        ? v
        : v instanceof RawJson
          ? v.text
          : typeof v === 'bigint'
            ? v.toString()
            : typeof v === 'number'
              ? String(v)
              : undefined
    if (text === undefined) return undefined
    let n: bigint | undefined
    if (/^\d+$/.test(text)) n = BigInt(text)
    else if (/^\d+e\d+$/i.test(text)) {
      const [m, e] = text.toLowerCase().split('e')
      n = BigInt(m!) * 10n ** BigInt(e!)
    }
    return n !== undefined && n <= UINT64_MAX ? n : undefined
  }
  return undefined
}

export function deriveMutations(doc: unknown, info: SchemaInfo, base: ReadonlyMap<string, BodyValue>, rng: Rng): Mutation[] {
  const out: Mutation[] = []
  const schemaAssumed = info.schema['x-assumed'] === true
  const required = new Set(Array.isArray(info.schema.required) ? info.schema.required.map(String) : [])
  const add = (
    p: string,
    kind: Mutation['kind'],
    suffix: string,
    description: string,
    value: BodyValue | typeof REMOVE,
    opts: { assumed?: boolean; codes?: KnownErrorCode[] } = {},
  ) => {
    const typed = info.typed.get(p)
    const resign = signable(typed?.type, value)
    const level: Level = schemaAssumed || opts.assumed ? 'assumed' : 'stated'
    out.push({
      id: `${p}.${kind}${suffix ? `-${suffix}` : ''}`,
      field: p,
      kind,
      description,
      value,
      resign,
      signedField: typed !== undefined,
      level,
      rules: rulesFor(info, p, kind),
      codes: opts.codes ?? ['invalid_field'],
    })
  }
  for (const p of props(doc, info.schema)) {
    const v = base.get(p.name)
    if (v === undefined) continue
    const isDecimal = p.schema['x-format'] === 'decimal'
    const isNonce = p.schema.type === 'integer'
    // type changed
    for (const [t, value] of typeChanges(p, v)) {
      // The seed names a decimal sent as a number among the causes of `Signature verification failed`.
      const codes: KnownErrorCode[] = isDecimal && t === 'number' ? ['signature_verification_failed'] : ['invalid_field']
      add(p.name, 'type', t, `${p.name} sent as a JSON ${typeName(value) === 'raw' ? 'number' : typeName(value)}`, value, {
        assumed: p.assumed || (isNonce && t === 'string'),
        codes,
      })
    }
    // pattern broken
    if (typeof p.schema.pattern === 'string' && typeof v === 'string') {
      const re = new RegExp(p.schema.pattern)
      rng.sample(patternBreakers(re, v), 3).forEach((bad, i) => {
        add(p.name, 'pattern', String(i + 1), `${p.name} ${JSON.stringify(bad)} breaks ${p.schema.pattern}`, bad, {
          assumed: p.assumed || isDecimal || p.name === info.signature,
        })
      })
    }
    // enum broken
    if (Array.isArray(p.schema.enum) && typeof v === 'string') {
      const values = p.schema.enum.map(String)
      const candidates = [v.toLowerCase(), v.toUpperCase(), `${v}_x`, ` ${v}`, v.slice(1)].filter((c) => !values.includes(c))
      rng.sample([...new Set(candidates)], 2).forEach((bad, i) => {
        add(p.name, 'enum', String(i + 1), `${p.name} ${JSON.stringify(bad)} is not one of ${values.join(', ')}`, bad, {
          assumed: p.assumed,
        })
      })
    }
    // string length boundary
    if (typeof p.schema.minLength === 'number' && p.schema.minLength > 0) {
      add(p.name, 'min-length', '', `${p.name} shorter than minLength ${p.schema.minLength}`, 'x'.repeat(p.schema.minLength - 1), {
        assumed: p.assumed,
      })
    }
    // numeric boundaries and integer forms
    if (isNonce) {
      const min = typeof p.schema.minimum === 'number' ? BigInt(p.schema.minimum) : 0n
      // A YAML/JSON reader holds 2^64-1 as a double: trust `format: uint64`, never a rounded maximum.
      const m = p.schema.maximum
      const max = p.schema.format === 'uint64' || typeof m !== 'number' || !Number.isSafeInteger(m) ? UINT64_MAX : BigInt(m)
      add(p.name, 'boundary', 'below-minimum', `${p.name} ${min - 1n} (below the minimum ${min})`, new RawJson((min - 1n).toString()))
      add(p.name, 'boundary', 'above-maximum', `${p.name} ${max + 1n} (above the maximum)`, new RawJson((max + 1n).toString()))
      add(p.name, 'boundary', 'fraction', `${p.name} with a fraction`, new RawJson('1.5'), { assumed: true })
      add(p.name, 'boundary', 'exponent', `${p.name} in exponent form (1e3)`, new RawJson('1e3'), { assumed: true })
    }
    // required removed
    if (required.has(p.name)) add(p.name, 'required', '', `required ${p.name} removed`, REMOVE, { assumed: p.assumed })
  }
  // unknown fields: the typed name of a renamed field (clientId for client_id), and a made-up one
  for (const [bodyName, t] of info.typed) {
    if (t.name !== bodyName && base.has(bodyName)) {
      out.push({
        id: `${t.name}.unknown`,
        field: t.name,
        kind: 'unknown',
        description: `unknown field ${t.name} (the typed-data name of ${bodyName}) added`,
        value: base.get(bodyName)!,
        signedField: false,
        level: 'assumed',
        rules: rulesFor(info, t.name, 'unknown'),
        codes: ['invalid_field'],
      })
    }
  }
  const extra = `x_oec_${rng.int(1_000_000).toString(36)}`
  out.push({
    id: 'extra.unknown',
    field: extra,
    kind: 'unknown',
    description: `unknown field ${extra} added`,
    value: 'x',
    signedField: false,
    level: 'assumed',
    rules: ['PO-11'],
    codes: ['invalid_field'],
  })
  return out
}

/** Every rule a schema's mutations can name (for the check catalog), independent of the seed. */
export function mutationRules(doc: unknown, info: SchemaInfo): RuleId[] {
  const out = new Set<RuleId>()
  const kinds: Mutation['kind'][] = ['type', 'pattern', 'enum', 'min-length', 'boundary', 'required', 'unknown']
  for (const p of props(doc, info.schema)) for (const k of kinds) for (const r of rulesFor(info, p.name, k)) out.add(r)
  return [...out].sort()
}
