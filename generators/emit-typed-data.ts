/**
 * typed-data.ts: the EIP-712 domains and message types as `as const` objects, so viem infers the
 * message shape from them (`signTypedData({ domain, types, primaryType, message })` rejects a
 * misspelled field or a number where the type says string), plus a plain interface per message.
 */
import type { WriterFunction } from 'ts-morph'
import { InputError } from '../src/errors.ts'
import type { Contract } from '../src/contract/load.ts'
import { getPointer, type DomainValues } from '../src/contract/model.ts'
import { toPointer } from '../src/contract/source.ts'
import { camelCase, pascalCase, propertyName, stringLiteral, writeValue, type NameRegistry } from './names.ts'
import { docOf, specError, type SchemaContext } from './schema.ts'
import { constStatement, interfaceStatement, kw, typeAliasStatement, type Doc, type Prop, type TypeExpr } from './type-expr.ts'

export interface TypedDataOptions {
  /** Replaces the name of the `options` domain (the service's real name). */
  readonly domainName?: string
}

/** Solidity type → the TypeScript type viem (abitype) maps it to. */
export function solidityType(type: string): TypeExpr | undefined {
  const array = /^(.+)\[(\d*)\]$/.exec(type)
  if (array) {
    const inner = solidityType(array[1]!)
    return inner ? { kind: 'array', items: inner } : undefined
  }
  if (type === 'address' || type === 'bytes' || /^bytes([1-9]|[12][0-9]|3[0-2])$/.test(type)) return { kind: 'template', prefix: '0x' }
  if (type === 'string') return kw('string')
  if (type === 'bool') return kw('boolean')
  const int = /^u?int(\d*)$/.exec(type)
  if (int) {
    const bits = int[1] === '' ? 256 : Number(int[1])
    if (bits < 8 || bits > 256 || bits % 8 !== 0) return undefined
    // abitype maps integers up to 48 bits to number and wider ones to bigint.
    return bits <= 48 ? kw('number') : kw('bigint')
  }
  return undefined
}

export function emitTypedData(spec: Contract<'typedData'>, names: NameRegistry, options: TypedDataOptions = {}): WriterFunction[] {
  const ctx: SchemaContext = { doc: spec.doc, file: spec.file, lineOf: (p) => spec.lineOf(p), refName: () => undefined }
  const td = spec.typedData
  const domains: Record<string, DomainValues> = { ...td.domains }
  if (options.domainName !== undefined) {
    const o = domains.options
    if (!o) throw new InputError(`--domain-name: ${spec.file} has no x-eip712.domains.options to rename`)
    domains.options = { ...o, name: options.domainName }
  }

  const constant = (name: string, init: WriterFunction, doc: Doc | undefined): WriterFunction => constStatement(name, init, doc)
  const asConst =
    (value: unknown): WriterFunction =>
    (w) => {
      writeValue(w, value)
      w.write(' as const')
    }

  const out: WriterFunction[] = []
  out.push(
    constant(names.claim('eip712DomainFields'), asConst(td.domainType.map((f) => ({ name: f.name, type: f.type }))), {
      description: 'Fields of the EIP712Domain struct, in signing order.',
    }),
  )

  const domainNames: Record<string, string> = {}
  for (const [key, d] of Object.entries(domains)) {
    const name = names.claim(`${camelCase(key)}Domain`)
    domainNames[key] = name
    const value: Record<string, unknown> = {}
    for (const f of td.domainType) {
      const v = (d as unknown as Record<string, unknown>)[f.name]
      if (v !== undefined && v !== 'undefined' && !(typeof v === 'number' && Number.isNaN(v))) value[f.name] = v
    }
    const raw = getPointer(spec.doc, `/x-eip712/domains${toPointer([key])}`)
    const described = docOf(raw)
    const line = `Domain \`${key}\`: ${JSON.stringify(value.name)}, version ${JSON.stringify(value.version)}, chainId ${String(value.chainId)}.`
    out.push(
      constant(name, asConst(value), { ...described, description: described?.description ? `${described.description}\n\n${line}` : line }),
    )
  }
  const domainsName = names.claim('domains')
  out.push(
    constant(
      domainsName,
      (w) => {
        w.write('{').newLine()
        w.indent(() => {
          for (const [key, name] of Object.entries(domainNames)) w.write(`${propertyName(key)}: ${name},`).newLine()
        })
        w.write('} as const')
      },
      { description: 'Every signing domain by its key in the spec.' },
    ),
  )

  const entries: { id: string; primaryType: string; domain: string; types: string }[] = []
  const bodyFields: Record<string, Record<string, string>> = {}
  for (const m of Object.values(td.messages)) {
    const pointer = `/x-eip712/messages${toPointer([m.id])}`
    const domainConst = domainNames[m.domain]
    if (!domainConst) throw specError(ctx, `${pointer}/domain`, `message ${m.id} names an unknown domain ${JSON.stringify(m.domain)}`)
    const props: Prop[] = m.fields.map((f, i) => {
      const t = solidityType(f.type)
      if (!t)
        throw specError(
          ctx,
          `${pointer}/fields/${i}/type`,
          `unsupported EIP-712 field type ${JSON.stringify(f.type)} (nested structs are not generated)`,
        )
      return {
        name: f.name,
        type: t,
        optional: false,
        doc: { description: `EIP-712 \`${f.type}\`${f.body !== f.name ? `; sent as the body field \`${f.body}\`` : ''}.` },
      }
    })
    const typesName = names.claim(`${camelCase(m.id)}Types`)
    const raw = getPointer(spec.doc, pointer)
    const described = docOf(raw)
    const doc: Doc = {
      ...described,
      description: `${described?.description ? `${described.description}\n\n` : ''}Primary type \`${m.primaryType}\` under \`${domainConst}\`.`,
    }
    out.push(constant(typesName, asConst({ [m.primaryType]: m.fields.map((f) => ({ name: f.name, type: f.type })) }), doc))
    const msgName = names.claim(`${pascalCase(m.id)}Message`)
    out.push(
      interfaceStatement(
        msgName,
        { kind: 'object', props },
        {
          description: `The \`${m.primaryType}\` message fields as viem takes them (${m.id}).`,
          ...(m.assumed && described?.assumed ? { assumed: described.assumed } : {}),
        },
      ),
    )
    entries.push({ id: m.id, primaryType: m.primaryType, domain: domainConst, types: typesName })
    bodyFields[m.id] = Object.fromEntries(m.fields.map((f) => [f.name, f.body]))
  }

  const typedDataName = names.claimAs('typedData', 'typedData')
  out.push(
    constant(
      typedDataName,
      (w) => {
        w.write('{').newLine()
        w.indent(() => {
          for (const e of entries) {
            w.write(
              `${propertyName(e.id)}: { domain: ${e.domain}, primaryType: ${stringLiteral(e.primaryType)}, types: ${e.types} },`,
            ).newLine()
          }
        })
        w.write('} as const')
      },
      { description: 'Each signed message by its id in the spec: spread one into `signTypedData({ ...typedData.PlaceOrder, message })`.' },
    ),
  )
  out.push(
    typeAliasStatement(names.claim('SignedMessageId'), `keyof typeof ${typedDataName}`, {
      description: 'Ids of the signed messages (both PlaceOrder variants have their own).',
    }),
  )
  out.push(
    constant(names.claimAs('messageBodyFields', 'messageBodyFields'), asConst(bodyFields), {
      description: 'Typed-data field → JSON body field, per message (e.g. `clientId` is sent as `client_id`).',
    }),
  )
  return out
}
