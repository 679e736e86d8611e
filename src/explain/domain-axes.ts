/**
 * The domain mistakes: another chain ID, the name in another case or the other domain's name,
 * another version, verifyingContract left out or set to the wallet, and the whole other domain
 * (the perp domain for an options message, the options domain for a perp action).
 */
import type { DomainFields } from '../signing/eip712.ts'
import type { Hex } from '../signing/index.ts'
import { caseSpellings } from './variants.ts'
import type { Alternative, Axis, CauseDraft } from './search.ts'

export interface HasDomain {
  readonly domain: DomainFields
}

/** Chain IDs clients sign by mistake: mainnet, the perp chain, test chains, local nodes. */
const CHAIN_GUESSES = [1n, 1337n, 999n, 998n, 31337n, 11155111n, 42161n, 421614n, 5n, 0n]
const VERSION_GUESSES = ['2', '1.0', '0', 'v1', '']

const show = (d: DomainFields) =>
  `${JSON.stringify(d.name ?? null)}, version ${JSON.stringify(d.version ?? null)}, chainId ${d.chainId ?? 'none'}`

export function chainCause(signed: bigint | undefined, expected: bigint | undefined): CauseDraft {
  return {
    id: 'chain_id',
    field: 'domain.chainId',
    signed: signed === undefined ? 'no chainId' : `chainId ${signed}`,
    sent: `chainId ${expected}`,
    text: `you signed ${signed === undefined ? 'a domain without chainId' : `chainId ${signed}`}; the service signs ${expected}`,
  }
}

function withDomain<S extends HasDomain>(state: S, domain: DomainFields): S {
  return { ...state, domain }
}

/**
 * One axis per domain field plus one for the other domain. `expected` is the domain the service
 * signs, `other` the contract's other domain (with its own name for the words), `wallet` the
 * body's wallet when there is one.
 */
export function domainAxes<S extends HasDomain>(
  expected: DomainFields,
  other: { label: string; own: string; domain: DomainFields },
  wallet?: Hex,
): Axis<S>[] {
  const alt = (causes: CauseDraft[], change: (d: DomainFields) => DomainFields): Alternative<S> => ({
    causes,
    apply: (s) => withDomain(s, change(s.domain)),
  })
  const chain: Alternative<S>[] = CHAIN_GUESSES.filter((c) => c !== expected.chainId).map((c) =>
    alt([chainCause(c, expected.chainId)], (d) => ({ ...d, chainId: c })),
  )
  const names: string[] = []
  if (expected.name !== undefined) {
    for (const n of [
      ...caseSpellings(expected.name),
      other.domain.name ?? '',
      ...(other.domain.name ? caseSpellings(other.domain.name) : []),
    ]) {
      if (n !== expected.name && n !== '' && !names.includes(n)) names.push(n)
    }
  }
  const name: Alternative<S>[] = names.map((n) =>
    alt(
      [
        {
          id: 'domain_name',
          field: 'domain.name',
          signed: JSON.stringify(n),
          sent: JSON.stringify(expected.name),
          text: `you signed domain name ${JSON.stringify(n)}; the service signs ${JSON.stringify(expected.name)}`,
        },
      ],
      (d) => ({ ...d, name: n }),
    ),
  )
  const version: Alternative<S>[] = VERSION_GUESSES.filter((v) => v !== expected.version).map((v) =>
    alt(
      [
        {
          id: 'domain_version',
          field: 'domain.version',
          signed: JSON.stringify(v),
          sent: JSON.stringify(expected.version),
          text: `you signed domain version ${JSON.stringify(v)}; the service signs ${JSON.stringify(expected.version)}`,
        },
      ],
      (d) => ({ ...d, version: v }),
    ),
  )
  const vc: Alternative<S>[] = [
    alt(
      [
        {
          id: 'verifying_contract',
          field: 'domain.verifyingContract',
          signed: 'no verifyingContract',
          sent: String(expected.verifyingContract),
          text: `you left verifyingContract out of the domain; the service signs it as ${expected.verifyingContract}`,
        },
      ],
      (d) => {
        const { verifyingContract: _, ...rest } = d
        return rest
      },
    ),
  ]
  if (wallet !== undefined && wallet.toLowerCase() !== expected.verifyingContract?.toLowerCase()) {
    vc.push(
      alt(
        [
          {
            id: 'verifying_contract',
            field: 'domain.verifyingContract',
            signed: wallet,
            sent: String(expected.verifyingContract),
            text: `you signed verifyingContract ${wallet} (the wallet); the service signs ${expected.verifyingContract}`,
          },
        ],
        (d) => ({ ...d, verifyingContract: wallet }),
      ),
    )
  }
  const whole: Alternative<S>[] = [
    alt(
      [
        {
          id: 'domain_name',
          field: 'domain',
          signed: `the ${other.label} domain (${show(other.domain)})`,
          sent: `the ${other.own} domain (${show(expected)})`,
          text: `you signed with the ${other.label} domain (${show(other.domain)}); this operation is signed with the ${other.own} domain (${show(expected)})`,
        },
        ...(other.domain.chainId !== expected.chainId ? [chainCause(other.domain.chainId, expected.chainId)] : []),
      ],
      () => ({ ...other.domain }),
    ),
  ]
  return [chain, name, version, vc, whole]
}
