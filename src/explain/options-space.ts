/**
 * The hypothesis space of one options-domain body (PlaceOrder, cancels, agent approval): the
 * message as sent, and the mistakes a client makes between signing and sending it.
 */
import type { Contract } from '../contract/load.ts'
import type { SignedSchema, TypedField } from '../contract/model.ts'
import { compileStruct, domainSeparator, hashStruct, typedDigest, type DomainFields } from '../signing/eip712.ts'
import type { Hex } from '../signing/index.ts'
import { InputError } from '../errors.ts'
import { domainAxes, type HasDomain } from './domain-axes.ts'
import type { Alternative, Axis, CauseDraft, Space } from './search.ts'
import { caseSpellings, decimalSpellings, doubleNonces, nearbyNonces } from './variants.ts'

export interface OptionsState extends HasDomain {
  readonly primaryType: string
  readonly fields: readonly { readonly name: string; readonly type: string }[]
  readonly values: Readonly<Record<string, string | bigint>>
}

export interface SignedBody {
  /** The body object. */
  readonly value: Record<string, unknown>
  /** Exact text of every number, by JSON pointer relative to the body. */
  readonly numbers: ReadonlyMap<string, string>
}

export interface BodyShape {
  readonly signed: SignedSchema
  /** The body schema's properties, refs resolved one level (for enums). */
  readonly properties: Readonly<Record<string, unknown>>
}

const DECIMAL_TEXT = /^[0-9.eE+-]+$/
const UINT = /^uint\d+$/

function enumOf(prop: unknown): string[] {
  return typeof prop === 'object' && prop !== null && Array.isArray((prop as { enum?: unknown }).enum)
    ? ((prop as { enum: unknown[] }).enum.filter((x) => typeof x === 'string') as string[])
    : []
}

function pickVariant(signed: SignedSchema, has: (key: string) => boolean): string {
  for (const v of signed.variants) {
    if (v.whenPresent !== undefined && !has(v.whenPresent)) continue
    if (v.whenAbsent !== undefined && has(v.whenAbsent)) continue
    return v.message
  }
  return signed.variants[0]!.message
}

const pointerOf = (key: string) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`

export interface OptionsSpaceInput {
  readonly contract: Contract<'typedData'>
  readonly shape: BodyShape
  readonly body: SignedBody
  readonly expected: DomainFields
  readonly other: DomainFields
}

/** The space, plus the causes the body shows on its face (a number where a string belongs). */
export function optionsSpace(input: OptionsSpaceInput): { space: Space<OptionsState>; certain: CauseDraft[] } {
  const { contract, shape, body, expected } = input
  const messages = contract.typedData.messages
  const value = body.value
  const variantId = pickVariant(shape.signed, (k) => value[k] !== undefined)
  const message = messages[variantId]
  if (!message) throw new InputError(`the spec has no typed-data message ${variantId}`)
  const certain: CauseDraft[] = []
  const values: Record<string, string | bigint> = {}
  const numberFields = new Set<string>()

  const read = (f: TypedField): string | bigint => {
    let key = f.body
    let raw = value[key]
    if (raw === undefined && f.body !== f.name && value[f.name] !== undefined) {
      key = f.name
      raw = value[key]
      certain.push({
        id: 'field_name',
        field: f.body,
        signed: f.name,
        sent: f.name,
        text: `the body carries ${JSON.stringify(f.name)}; the body field is ${JSON.stringify(f.body)} (signed as ${f.name}): rename it in the body`,
      })
    }
    if (raw === undefined) throw new InputError(`the body has no ${JSON.stringify(f.body)} (${message.primaryType} signs it as ${f.name})`)
    const text = body.numbers.get(pointerOf(key))
    if (UINT.test(f.type)) {
      if (text !== undefined && /^(0|[1-9][0-9]*)$/.test(text)) return BigInt(text)
      if (typeof raw === 'string' && /^(0|[1-9][0-9]*)$/.test(raw)) {
        certain.push({
          id: 'nonce',
          field: f.body,
          signed: raw,
          sent: JSON.stringify(raw),
          text: `${f.body} is sent as the JSON string ${JSON.stringify(raw)}; send it as a JSON integer (${raw})`,
        })
        return BigInt(raw)
      }
      throw new InputError(`${f.body} must be a JSON integer in 0..2^64-1, got ${text ?? JSON.stringify(raw)}`)
    }
    if (typeof raw === 'string') return raw
    if (text !== undefined && f.type === 'string') {
      numberFields.add(f.name)
      return text
    }
    throw new InputError(`${f.body} must be a ${f.type === 'address' ? 'hex address string' : 'string'}, got ${JSON.stringify(raw)}`)
  }
  for (const f of message.fields) values[f.name] = read(f)

  const base: OptionsState = {
    domain: { ...expected },
    primaryType: message.primaryType,
    fields: message.fields.map((f) => ({ name: f.name, type: f.type })),
    values,
  }
  const bodyOf = new Map(message.fields.map((f) => [f.name, f.body]))
  const wallet = typeof value.wallet === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value.wallet) ? (value.wallet as Hex) : undefined
  const axes: Axis<OptionsState>[] = domainAxes<OptionsState>(expected, { label: 'perp', own: 'options', domain: input.other }, wallet)

  // The struct axis: the other variant of the message (route signed but omitted, or the reverse).
  const structAxis: Alternative<OptionsState>[] = []
  for (const v of shape.signed.variants) {
    if (v.message === variantId) continue
    const m = messages[v.message]
    if (!m) continue
    const extra = m.fields.filter((f) => !message.fields.some((g) => g.name === f.name))
    const missing = message.fields.filter((f) => !m.fields.some((g) => g.name === f.name))
    const fields = m.fields.map((f) => ({ name: f.name, type: f.type }))
    if (extra.length === 0 && missing.length === 1) {
      const gone = missing[0]!
      structAxis.push({
        causes: [
          {
            id: 'route_struct',
            field: gone.body,
            signed: `${m.primaryType} without ${gone.name} (${m.fields.length} fields)`,
            sent: `${gone.body} ${JSON.stringify(values[gone.name])} in the body`,
            text: `you signed ${m.primaryType} without ${gone.name} (the ${m.fields.length}-field struct) but sent ${gone.body} ${JSON.stringify(values[gone.name])}; sign ${gone.name} too, or leave it out of the body`,
          },
        ],
        apply: (s) => {
          const { [gone.name]: _, ...rest } = s.values
          return { ...s, fields, values: rest }
        },
      })
    } else if (extra.length === 1 && missing.length === 0) {
      const added = extra[0]!
      const candidates = enumOf(shape.properties[added.body])
      for (const c of candidates.length > 0 ? candidates : ['']) {
        structAxis.push({
          causes: [
            {
              id: 'route_struct',
              field: added.body,
              signed: `${added.name} ${JSON.stringify(c)}`,
              sent: `no ${added.body}`,
              text: `you signed ${added.name} ${JSON.stringify(c)} but sent no ${added.body}; send ${added.body} ${JSON.stringify(c)} in the body (or sign the ${message.fields.length}-field struct without it)`,
            },
          ],
          apply: (s) => ({ ...s, fields, values: { ...s.values, [added.name]: c } }),
        })
      }
    }
  }
  axes.push(structAxis)

  // Field-name axis: the typed field named as the body names it (client_id for clientId).
  const renamed = message.fields.filter((f) => f.body !== f.name)
  axes.push(
    renamed.map((f) => ({
      causes: [
        {
          id: 'field_name' as const,
          field: f.body,
          signed: `typed field ${f.body}`,
          sent: `typed field ${f.name}`,
          text: `you signed the typed-data field as ${f.body}; it is named ${f.name} in ${message.primaryType} (the body field stays ${f.body})`,
        },
      ],
      apply: (s: OptionsState) => {
        const { [f.name]: v, ...rest } = s.values
        return { ...s, fields: s.fields.map((g) => (g.name === f.name ? { ...g, name: f.body } : g)), values: { ...rest, [f.body]: v! } }
      },
    })),
  )

  // One axis per string field: other decimal spellings, or other letter cases of an enum word.
  for (const f of message.fields) {
    if (f.type !== 'string') continue
    const sent = values[f.name] as string
    const isNumber = numberFields.has(f.name)
    const spellings =
      DECIMAL_TEXT.test(sent) && /[0-9]/.test(sent)
        ? decimalSpellings(sent)
        : enumOf(shape.properties[f.body]).length > 0
          ? caseSpellings(sent)
          : []
    axes.push(
      spellings.map((sp) => ({
        causes: [
          isNumber
            ? numberCause(f.body, sp, sent)
            : {
                id: 'string_format' as const,
                field: f.body,
                signed: JSON.stringify(sp),
                sent: JSON.stringify(sent),
                text: `you signed ${f.body} ${JSON.stringify(sp)} but sent ${JSON.stringify(sent)}; send exactly the characters you signed`,
              },
        ],
        apply: (s: OptionsState) => ({ ...s, values: { ...s.values, [f.name]: sp } }),
      })),
    )
  }
  for (const name of numberFields) certain.push(numberCause(bodyOf.get(name) ?? name, values[name] as string, values[name] as string))

  // Nonce axes: nearby values first (cheap), the double-rounding family last (it can be large).
  for (const f of message.fields) {
    if (!UINT.test(f.type)) continue
    const sent = values[f.name] as bigint
    const nonceAlt = (n: bigint, why: string): Alternative<OptionsState> => ({
      causes: [
        {
          id: 'nonce',
          field: f.body,
          signed: n.toString(),
          sent: sent.toString(),
          text: `you signed ${f.body} ${n} but sent ${sent}${why}; send the nonce you signed`,
        },
      ],
      apply: (s) => ({ ...s, values: { ...s.values, [f.name]: n } }),
    })
    axes.push(nearbyNonces(sent).map((n) => nonceAlt(n, '')))
    axes.push(
      doubleNonces(sent).map((n) =>
        nonceAlt(
          n,
          ' (the nonce went through a JavaScript number, which keeps only 53 bits: use a bigint or a string-preserving JSON writer)',
        ),
      ),
    )
  }

  const space: Space<OptionsState> = {
    base,
    axes,
    digest(s) {
      try {
        const struct = compileStruct(s.primaryType, s.fields)
        return typedDigest(domainSeparator(s.domain), hashStruct(struct, s.values, false))
      } catch {
        return null
      }
    },
  }
  return { space, certain }
}

export function numberCause(field: string, signed: string, sentText: string): CauseDraft {
  return {
    id: 'number_field',
    field,
    signed: JSON.stringify(signed),
    sent: `${sentText} (a JSON number)`,
    text: `${field} is sent as the JSON number ${sentText}; send it as the string you signed, ${JSON.stringify(signed)}`,
  }
}
