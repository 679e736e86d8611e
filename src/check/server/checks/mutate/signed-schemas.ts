/**
 * Signature-aware negative testing: every signed request schema of the spec is mutated field
 * by field (see ../mutations.ts); each mutation is sent re-signed (so only field validation can
 * refuse it) and unsigned (so the signature check must refuse it). Seeded by --seed.
 */
import type { RuleId } from '../../../../contract/generated/rules.ts'
import { setEntry, signingFor, type OptionsKind } from '../../../../signing/index.ts'
import { deref, isObject, readSignedSchema, type JsonObject } from '../../../../contract/index.ts'
import { brief } from '../../context.ts'
import { hasCode, statusOf, succeeded } from '../../answers.ts'
import { newClientId, orderEntries, signed } from '../../builders.ts'
import { deriveMutations, mutationRules, REMOVE, type Mutation, type SchemaInfo } from '../../mutations.ts'
import { bodyText, type BodyEntries, type BodyValue } from '../../../target/requests.ts'
import type { Check, CheckContext, CheckFamily } from '../../types.ts'
import type { Wallet } from '../../../target/wallets.ts'
import type { FullContract } from '../../../../contract/index.ts'

export interface SignedTarget {
  readonly info: SchemaInfo
  readonly kind: OptionsKind
  readonly method: string
  readonly path: string
}

/** Signed request schemas and the operation that takes each, read from the spec. */
export function signedTargets(spec: FullContract): SignedTarget[] {
  const out: SignedTarget[] = []
  const seen = new Set<string>()
  for (const op of spec.operations) {
    const rs = op.requestSchema
    if (!rs) continue
    const refs: string[] = []
    if (typeof rs.$ref === 'string') refs.push(rs.$ref)
    else if (Array.isArray(rs.oneOf)) for (const b of rs.oneOf) if (isObject(b) && typeof b.$ref === 'string') refs.push(b.$ref)
    for (const ref of refs) {
      const name = ref.split('/').pop()!
      const schema = deref(spec.doc, { $ref: ref })
      const signedSchema = readSignedSchema(schema)
      if (!isObject(schema) || !signedSchema || signedSchema.derived || seen.has(name)) continue
      seen.add(name)
      const kind = signedSchema.variants.map((v) => spec.typedData.messages[v.message]?.primaryType).find((k) => k !== undefined) as
        | OptionsKind
        | undefined
      if (!kind) continue
      const typed = new Map(
        signingFor(spec)
          .kindFields(kind)
          .map((f) => [f.body, { name: f.name, type: f.type }]),
      )
      out.push({
        info: { name, schema: schema as JsonObject, typed, signature: signedSchema.signature, messageKind: kind },
        kind,
        method: op.method,
        path: op.path,
      })
    }
  }
  return out
}

function kebab(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
}

/** A valid body for a signed schema, with the wallet that signs it. */
function baseBody(ctx: CheckContext, t: SignedTarget): { entries: BodyEntries; signer: Wallet } {
  const signer = ctx.wallet()
  if (t.kind === 'PlaceOrder') return { entries: orderEntries(ctx, { wallet: signer }), signer }
  const entries: BodyEntries = []
  const properties = isObject(t.info.schema.properties) ? t.info.schema.properties : {}
  for (const [name, raw] of Object.entries(properties)) {
    if (name === t.info.signature) continue
    const ref = isObject(raw) && typeof raw.$ref === 'string' ? raw.$ref.split('/').pop() : ''
    const typed = t.info.typed.get(name)
    if (!typed) continue
    let v: BodyValue
    if (name === 'wallet') v = signer.address
    else if (typed.type === 'address') v = ctx.wallet().address
    else if (typed.type.startsWith('uint')) v = ctx.nonce(signer)
    else if (ref === 'Symbol') v = ctx.target.symbols[0] ?? ''
    else if (ref === 'OrderId') v = `oec-missing-${newClientId()}`
    else v = newClientId()
    entries.push([name, v])
  }
  return { entries, signer }
}

/** The mutated value as a body value; `undefined` removes the field. */
function sentValue(m: Mutation): BodyValue | undefined {
  return m.value === REMOVE ? undefined : m.value
}

function originalTyped(entries: BodyEntries, field: string): string | bigint | undefined {
  const v = entries.find(([k]) => k === field)?.[1]
  return typeof v === 'string' || typeof v === 'bigint' ? v : undefined
}

type Variant = 'resigned' | 'unsigned' | 'sent'

async function bodyFor(ctx: CheckContext, t: SignedTarget, m: Mutation, variant: Variant): Promise<string> {
  const { entries, signer } = baseBody(ctx, t)
  if (m.field === t.info.signature) {
    const sb = await signed(ctx, t.kind, entries, signer)
    return bodyText(setEntry(sb.entries, m.field, sentValue(m)))
  }
  if (variant === 'resigned') {
    const typedName = t.info.typed.get(m.field)!.name
    return (await signed(ctx, t.kind, setEntry(entries, m.field, sentValue(m)), signer, { signed: { [typedName]: m.resign } })).text
  }
  // unsigned / sent: the signature is over the original values; the body carries the mutation
  return (await signed(ctx, t.kind, entries, signer, { after: { [m.field]: sentValue(m) } })).text
}

function variantsOf(m: Mutation, entries: BodyEntries): Variant[] {
  if (!m.signedField || m.kind === 'required') return ['sent']
  const out: Variant[] = []
  if (m.resign !== undefined) out.push('resigned')
  const original = originalTyped(entries, m.field)
  if (m.resign === undefined || m.resign !== original) out.push('unsigned')
  return out
}

function mutationCheck(spec: FullContract, t: SignedTarget): Check<`mutate.${string}`> {
  const id = `mutate.${kebab(t.info.name.replace(/Request$/, ''))}` as const
  return {
    id,
    title: `signature-aware mutations of ${t.info.name} (${t.method} ${t.path})`,
    rules: [...new Set<RuleId>(['AUTH-1', 'ERR-9', ...mutationRules(spec.doc, t.info)])],
    level: t.info.schema['x-assumed'] === true ? 'assumed' : 'stated',
    async run(ctx) {
      const probe = baseBody(ctx, t)
      await ctx.case('baseline', 'the unmutated body passes validation and authentication', async (c) => {
        const { entries, signer } = baseBody(c, t)
        const e = await c.send(t.method, t.path, (await signed(c, t.kind, entries, signer)).text)
        const s = statusOf(e)
        if (s >= 400 && s <= 403)
          c.fail(`the valid ${t.info.name} body was refused: ${brief(e)}`, {
            exchange: e,
            expected: 'accepted (the mutations below start from it)',
          })
        if (s >= 500) c.fail(`server error ${brief(e)}`, { exchange: e })
      })
      const base = new Map(probe.entries)
      const mutations = deriveMutations(ctx.spec.doc, t.info, base, ctx.rng)
      for (const m of mutations) {
        for (const variant of variantsOf(m, probe.entries)) {
          const title = `${m.description}${variant === 'resigned' ? ', re-signed' : variant === 'unsigned' ? ', not re-signed' : ''}`
          const level = variant === 'unsigned' ? 'stated' : m.level
          const rules: RuleId[] = variant === 'unsigned' ? [...m.rules, 'AUTH-1'] : [...m.rules]
          await ctx.case(
            `${m.id}.${variant}`,
            title,
            async (c) => {
              const e = await c.send(t.method, t.path, await bodyFor(c, t, m, variant))
              const s = statusOf(e)
              if (s >= 500) c.fail(`${title}: server error ${brief(e)}`, { exchange: e, expected: 'a 4xx', level: 'stated' })
              if (
                succeeded(e) ||
                (s >= 200 && s < 300 && !/REJECTED|err/.test(String((e.response?.json as Record<string, unknown> | undefined)?.status)))
              ) {
                c.fail(`${title}: accepted (${brief(e)})`, {
                  exchange: e,
                  expected: variant === 'resigned' ? `HTTP 400 ${m.codes.join(' or ')}` : 'a refusal (4xx)',
                })
              }
              if (s < 400)
                c.fail(`${title}: answered ${brief(e)} instead of a 4xx`, {
                  exchange: e,
                  expected: `HTTP 400 ${m.codes.join(' or ')}`,
                  level: 'assumed',
                })
              if (variant !== 'unsigned') {
                if (!hasCode(e, ...m.codes))
                  c.warn(`${title}: refused with ${brief(e)}; expected ${m.codes.join(' or ')}`, { exchange: e, level: 'assumed' })
              }
            },
            { level, rules },
          )
        }
      }
    },
  }
}

/** One check per signed request schema of the spec. */
export function mutationChecks(spec: FullContract): Check<`mutate.${string}`>[] {
  return signedTargets(spec).map((t) => mutationCheck(spec, t))
}

export const mutateFamilies: CheckFamily<'mutate'> = { family: 'mutate', expand: ({ spec }) => mutationChecks(spec) }
