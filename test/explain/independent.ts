/**
 * An independent client for the explain and proxy tests: typed data written here from the seed's
 * field table (not from the toolkit's typedDataFor), signed by viem, bodies written by hand. Each
 * mistake is a change to what is signed or what is sent, tagged with the cause `oec explain`
 * must name and the axis it changes (two mistakes on one axis cannot be combined).
 */
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { perpActionHash } from '../../src/signing/index.ts'

export const KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
export const account = privateKeyToAccount(KEY)
export const OTHER_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** The seed's "Signed message types" table. */
const PLACE_WITH_ROUTE = [
  { name: 'wallet', type: 'address' },
  { name: 'symbol', type: 'string' },
  { name: 'side', type: 'string' },
  { name: 'size', type: 'string' },
  { name: 'price', type: 'string' },
  { name: 'tif', type: 'string' },
  { name: 'route', type: 'string' },
  { name: 'clientId', type: 'string' },
  { name: 'nonce', type: 'uint64' },
]
const PLACE_WITHOUT_ROUTE = PLACE_WITH_ROUTE.filter((f) => f.name !== 'route')
/** The seed's options domain (name: the neutral word `Service`) and the perp domain. */
export const OPTIONS_DOMAIN = {
  name: 'Service',
  version: '1',
  chainId: 999,
  verifyingContract: '0x0000000000000000000000000000000000000000' as Hex,
}
export const PERP_DOMAIN = {
  name: 'Exchange',
  version: '1',
  chainId: 1337,
  verifyingContract: '0x0000000000000000000000000000000000000000' as Hex,
}

export interface Draft {
  domain: Record<string, unknown>
  fields: { name: string; type: string }[]
  /** Typed-data values by typed field name. */
  signed: Record<string, string | bigint>
  /** Body entries: raw JSON text per key, in order. */
  sent: [string, string][]
  sigForm: (sig: Hex) => Hex
}

export interface Mistake {
  readonly name: string
  readonly cause: string
  readonly axis: string
  apply(d: Draft): void
}

const setSent = (d: Draft, key: string, raw: string | undefined) => {
  const i = d.sent.findIndex(([k]) => k === key)
  if (raw === undefined) {
    if (i >= 0) d.sent.splice(i, 1)
  } else if (i >= 0) d.sent[i] = [key, raw]
  else d.sent.splice(d.sent.length, 0, [key, raw])
}

export const MISTAKES: readonly Mistake[] = [
  { name: 'chainId 1', cause: 'chain_id', axis: 'chain', apply: (d) => void (d.domain.chainId = 1) },
  { name: 'chainId 1337', cause: 'chain_id', axis: 'chain', apply: (d) => void (d.domain.chainId = 1337) },
  { name: 'chainId 998', cause: 'chain_id', axis: 'chain', apply: (d) => void (d.domain.chainId = 998) },
  { name: 'domain name in lower case', cause: 'domain_name', axis: 'name', apply: (d) => void (d.domain.name = 'service') },
  { name: 'the perp domain', cause: 'domain_name', axis: 'domain', apply: (d) => void (d.domain = { ...PERP_DOMAIN }) },
  { name: 'version 2', cause: 'domain_version', axis: 'version', apply: (d) => void (d.domain.version = '2') },
  { name: 'no verifyingContract', cause: 'verifying_contract', axis: 'vc', apply: (d) => void delete d.domain.verifyingContract },
  {
    name: 'route signed, omitted from the body',
    cause: 'route_struct',
    axis: 'route',
    apply: (d) => setSent(d, 'route', undefined),
  },
  {
    name: 'route sent, not signed',
    cause: 'route_struct',
    axis: 'route',
    apply: (d) => {
      d.fields = PLACE_WITHOUT_ROUTE
      delete d.signed.route
    },
  },
  {
    name: 'route defaulted in the signature only',
    cause: 'route_struct',
    axis: 'route',
    apply: (d) => {
      d.signed.route = 'best_execution'
      setSent(d, 'route', undefined)
    },
  },
  { name: 'price sent as a number', cause: 'number_field', axis: 'price', apply: (d) => setSent(d, 'price', String(d.signed.price)) },
  {
    name: 'price trailing zero dropped',
    cause: 'string_format',
    axis: 'price',
    apply: (d) => {
      d.signed.price = '100.50'
      setSent(d, 'price', '"100.5"')
    },
  },
  {
    name: 'size with a trailing .0 signed',
    cause: 'string_format',
    axis: 'size',
    apply: (d) => {
      d.signed.size = '2.0'
      setSent(d, 'size', '"2"')
    },
  },
  {
    name: 'size signed in exponent form',
    cause: 'string_format',
    axis: 'size',
    apply: (d) => {
      d.signed.size = '2e0'
      setSent(d, 'size', '"2"')
    },
  },
  { name: 'nonce off by one', cause: 'nonce', axis: 'nonce', apply: (d) => void (d.signed.nonce = (d.signed.nonce as bigint) + 1n) },
  {
    name: 'nonce through a double',
    cause: 'nonce',
    axis: 'nonce',
    apply: (d) => {
      const exact = 1_763_900_000_123_456_789n
      d.signed.nonce = exact
      setSent(d, 'nonce', JSON.stringify(Number(exact)))
    },
  },
  {
    name: 'typed field client_id instead of clientId',
    cause: 'field_name',
    axis: 'fieldname',
    apply: (d) => {
      d.fields = d.fields.map((f) => (f.name === 'clientId' ? { ...f, name: 'client_id' } : f))
      d.signed.client_id = d.signed.clientId!
      delete d.signed.clientId
    },
  },
  {
    name: 'high-s twin',
    cause: 'signature_form',
    axis: 'sig',
    apply: (d) => {
      d.sigForm = (sig) => {
        const r = sig.slice(2, 66)
        const s = BigInt(`0x${sig.slice(66, 130)}`)
        const v = parseInt(sig.slice(130), 16)
        return `0x${r}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as Hex
      }
    },
  },
]

/** v written as 0/1: accepted, so it is a note, not a cause. */
export const V_RAW: Mistake = {
  name: 'v as 0/1',
  cause: '',
  axis: 'v',
  apply: (d) => {
    const prev = d.sigForm
    d.sigForm = (sig) => {
      const s = prev(sig)
      return `${s.slice(0, 130)}0${parseInt(s.slice(130), 16) - 27}` as Hex
    }
  },
}

let counter = 0n

/** A place-order request by `account`, with the mistakes applied, as body text. */
export async function placeOrder(
  mistakes: readonly Mistake[] = [],
  opts: { key?: Hex; nonce?: bigint; price?: string } = {},
): Promise<string> {
  const signer = opts.key ? privateKeyToAccount(opts.key) : account
  const nonce = opts.nonce ?? 1_763_900_000_000n + counter++
  const price = opts.price ?? '100.5'
  const values: Record<string, string | bigint> = {
    wallet: account.address,
    symbol: 'BTC-20261225-100000-C',
    side: 'Buy',
    size: '2',
    price,
    tif: 'gtc',
    route: 'book_only',
    clientId: 'c-1',
    nonce,
  }
  const d: Draft = {
    domain: { ...OPTIONS_DOMAIN },
    fields: PLACE_WITH_ROUTE,
    signed: { ...values },
    sent: [
      ['wallet', JSON.stringify(account.address)],
      ['symbol', '"BTC-20261225-100000-C"'],
      ['side', '"Buy"'],
      ['size', '"2"'],
      ['price', JSON.stringify(price)],
      ['tif', '"gtc"'],
      ['route', '"book_only"'],
      ['client_id', '"c-1"'],
      ['nonce', nonce.toString()],
    ],
    sigForm: (s) => s,
  }
  for (const m of mistakes) m.apply(d)
  const sig = d.sigForm(
    await signer.signTypedData({
      domain: d.domain as never,
      types: { PlaceOrder: d.fields },
      primaryType: 'PlaceOrder',
      message: d.signed as never,
    }),
  )
  return `{${[...d.sent, ['signature', JSON.stringify(sig)]].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`
}

/** ApproveAgent signed by `key` (the owner) for `agent`. */
export async function approveAgent(agent: Hex, nonce: bigint, opts: { key?: Hex; domain?: Record<string, unknown> } = {}): Promise<string> {
  const signer = privateKeyToAccount(opts.key ?? KEY)
  const sig = await signer.signTypedData({
    domain: (opts.domain ?? OPTIONS_DOMAIN) as never,
    types: {
      ApproveAgent: [
        { name: 'agent', type: 'address' },
        { name: 'nonce', type: 'uint64' },
      ],
    },
    primaryType: 'ApproveAgent',
    message: { agent, nonce },
  })
  return `{"agent":${JSON.stringify(agent)},"nonce":${nonce},"signature":${JSON.stringify(sig)}}`
}

/**
 * A perp order request signed by `account` under `domain`. The Agent typed data is written here;
 * the action hash (msgpack, the venue's layout) is the toolkit's `perpActionHash`.
 */
export async function perpOrder(domain: Record<string, unknown>, nonce: bigint): Promise<string> {
  const action = { type: 'order', orders: [{ a: 0, b: true, p: '100.5', s: '2', r: false, t: { limit: { tif: 'Gtc' } } }], grouping: 'na' }
  const sig = await account.signTypedData({
    domain: domain as never,
    types: {
      Agent: [
        { name: 'source', type: 'string' },
        { name: 'connectionId', type: 'bytes32' },
      ],
    },
    primaryType: 'Agent',
    message: { source: 'a', connectionId: perpActionHash({ action, nonce }) },
  })
  return JSON.stringify({
    action,
    nonce: Number(nonce),
    signature: { r: sig.slice(0, 66), s: `0x${sig.slice(66, 130)}`, v: parseInt(sig.slice(130), 16) },
  })
}
