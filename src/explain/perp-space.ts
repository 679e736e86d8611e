/**
 * The hypothesis space of one perp request (POST /exchange): the Agent message over the action
 * hash as sent, and the mistakes between signing and sending it (domain, network source, nonce,
 * price and size spellings of the first orders).
 */
import type { Contract } from '../contract/load.ts'
import { compileStruct, domainSeparator, hashStruct, typedDigest, type DomainFields } from '../signing/eip712.ts'
import { perpActionHash, type Hex } from '../signing/index.ts'
import { InputError } from '../errors.ts'
import { domainAxes, type HasDomain } from './domain-axes.ts'
import { numberCause } from './options-space.ts'
import type { Alternative, Axis, CauseDraft, Space } from './search.ts'
import { decimalSpellings, doubleNonces, nearbyNonces } from './variants.ts'

export interface PerpState extends HasDomain {
  readonly action: Record<string, unknown>
  readonly nonce: bigint
  readonly vaultAddress: Hex | null
  readonly expiresAfter: bigint | null
  readonly source: string
}

export interface PerpSpaceInput {
  readonly contract: Contract<'typedData'>
  /** The action with its keys in the order the venue hashes them. */
  readonly action: Record<string, unknown>
  readonly numbers: ReadonlyMap<string, string>
  readonly nonce: bigint
  readonly vaultAddress: Hex | null
  readonly expiresAfter: bigint | null
  readonly isMainnet: boolean
  readonly expected: DomainFields
  readonly other: DomainFields
}

/** Orders whose price and size spellings are searched: enough for a client's first mistakes. */
const ORDERS_SEARCHED = 4

export function perpSpace(input: PerpSpaceInput): { space: Space<PerpState>; certain: CauseDraft[] } {
  const agent = input.contract.typedData.messages.Agent
  if (!agent) throw new InputError('the spec has no Agent typed-data message (x-eip712.messages.Agent)')
  const struct = compileStruct(agent.primaryType, agent.fields)
  const certain: CauseDraft[] = []
  const orders = Array.isArray(input.action.orders) ? (input.action.orders as unknown[]) : []
  const axes: Axis<PerpState>[] = domainAxes<PerpState>(input.expected, { label: 'options', own: 'perp', domain: input.other })

  const source = input.isMainnet ? 'a' : 'b'
  const flipped = input.isMainnet ? 'b' : 'a'
  axes.push([
    {
      causes: [
        {
          id: 'chain_id',
          field: 'source',
          signed: `source "${flipped}" (${input.isMainnet ? 'testnet' : 'mainnet'})`,
          sent: `source "${source}"`,
          text: `you signed the Agent source "${flipped}" (${input.isMainnet ? 'testnet' : 'mainnet'}); the service expects "${source}" (${input.isMainnet ? 'mainnet' : 'testnet'})`,
        },
      ],
      apply: (s) => ({ ...s, source: flipped }),
    },
  ])

  const setOrderField = (s: PerpState, i: number, key: string, v: string): PerpState => {
    const list = [...(s.action.orders as Record<string, unknown>[])]
    list[i] = { ...list[i], [key]: v }
    return { ...s, action: { ...s.action, orders: list } }
  }
  let action = input.action
  orders.slice(0, ORDERS_SEARCHED).forEach((o, i) => {
    if (typeof o !== 'object' || o === null) return
    for (const key of ['p', 's']) {
      const raw = (o as Record<string, unknown>)[key]
      const numberText = input.numbers.get(`/action/orders/${i}/${key}`)
      const field = `action.orders[${i}].${key}`
      let sent: string
      if (typeof raw === 'string') sent = raw
      else if (numberText !== undefined) {
        sent = numberText
        certain.push(numberCause(field, numberText, numberText))
        // The venue signs strings: hash the number's text as the client most likely signed it.
        const list = [...(action.orders as Record<string, unknown>[])]
        list[i] = { ...(list[i] as Record<string, unknown>), [key]: numberText }
        action = { ...action, orders: list }
      } else continue
      const isNumber = typeof raw !== 'string'
      axes.push(
        decimalSpellings(sent).map(
          (sp): Alternative<PerpState> => ({
            causes: [
              isNumber
                ? numberCause(field, sp, sent)
                : {
                    id: 'string_format',
                    field,
                    signed: JSON.stringify(sp),
                    sent: JSON.stringify(sent),
                    text: `you signed ${field} ${JSON.stringify(sp)} but sent ${JSON.stringify(sent)}; send exactly the characters you signed`,
                  },
            ],
            apply: (s) => setOrderField(s, i, key, sp),
          }),
        ),
      )
    }
  })

  const nonceAlt = (n: bigint, why: string): Alternative<PerpState> => ({
    causes: [
      {
        id: 'nonce',
        field: 'nonce',
        signed: n.toString(),
        sent: input.nonce.toString(),
        text: `you signed nonce ${n} but sent ${input.nonce}${why}; send the nonce you signed`,
      },
    ],
    apply: (s) => ({ ...s, nonce: n }),
  })
  axes.push(nearbyNonces(input.nonce).map((n) => nonceAlt(n, '')))
  axes.push(doubleNonces(input.nonce).map((n) => nonceAlt(n, ' (the nonce went through a JavaScript number, which keeps only 53 bits)')))

  const base: PerpState = {
    domain: { ...input.expected },
    action,
    nonce: input.nonce,
    vaultAddress: input.vaultAddress,
    expiresAfter: input.expiresAfter,
    source,
  }
  const space: Space<PerpState> = {
    base,
    axes,
    digest(s) {
      try {
        const connectionId = perpActionHash({
          action: s.action,
          nonce: s.nonce,
          vaultAddress: s.vaultAddress,
          expiresAfter: s.expiresAfter,
        })
        return typedDigest(domainSeparator(s.domain), hashStruct(struct, { source: s.source, connectionId }, false))
      } catch {
        return null
      }
    },
  }
  return { space, certain }
}
