/**
 * Request builders shared by the checks: a valid order for a wallet (the spec's body order), a
 * cancel, an approve/revoke, bulk bodies, each signed under the run's domain.
 */
import type { DomainOverrides, OptionsKind, Signer } from '../../signing/index.ts'
import { deref, isObject } from '../../contract/index.ts'
import type { HttpExchange } from '../target/http.ts'
import { RawJson, signBody, type BodyEntries, type BodyValue, type SignedBody, type SignOptions } from '../target/requests.ts'
import type { CheckContext } from './types.ts'
import type { Wallet } from '../target/wallets.ts'
import { call } from './operations.ts'
import type {
  ApproveAgentRequest,
  CancelOrderByClientIdRequest,
  CancelOrderRequest,
  OperationId,
  PlaceOrderRequest,
  RevokeAgentRequest,
  Route,
  Side,
  Tif,
} from '../../contract/generated/types.ts'

import { expectSuccess } from './expectations.ts'

let clientCounter = 0
/** A client order id unique within the process. */
export function newClientId(prefix = 'oec'): string {
  clientCounter++
  return `${prefix}-${Date.now().toString(36)}-${clientCounter}`
}

/** Body property order of an operation's request schema, read from the spec (signature last). */
export function bodyOrder(ctx: CheckContext, id: OperationId): string[] {
  const op = ctx.spec.operations.find((o) => o.operationId === id)
  const schema = op?.requestSchema ? deref(ctx.spec.doc, op.requestSchema) : undefined
  return isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties) : []
}

/** Body values by the field names of a request type of the spec (a misspelled field does not compile). */
type Fields<T> = { [K in keyof T & string]?: BodyValue | undefined }

/** Body entries named by the fields of a request type of the spec. */
function entries<T>(list: [keyof T & string, BodyValue][]): BodyEntries {
  return list
}

export interface OrderParams {
  /** The trading wallet (named in the body). */
  readonly wallet: Wallet
  /** Who signs (default: the trading wallet itself). */
  readonly signer?: Wallet | Signer
  readonly symbol?: string
  readonly side?: string
  readonly size?: string
  readonly price?: string
  readonly tif?: string
  /** null omits route from the body (and the typed data). */
  readonly route?: string | null
  readonly clientId?: string
  readonly nonce?: bigint
}

/** A resting order by default: a small buy far below any ask, so it never trades. */
export function orderEntries(ctx: CheckContext, p: OrderParams): BodyEntries {
  const values: Fields<PlaceOrderRequest> = {
    wallet: p.wallet.address,
    symbol: p.symbol ?? ctx.target.symbols[0] ?? '',
    side: p.side ?? ('Buy' satisfies Side),
    size: p.size ?? '1',
    price: p.price ?? (p.side === 'Sell' ? '999999' : '1'),
    tif: p.tif ?? ('gtc' satisfies Tif),
    route: p.route === null ? undefined : (p.route ?? ('book_only' satisfies Route)),
    client_id: p.clientId ?? newClientId(),
    nonce: p.nonce ?? ctx.nonce(p.wallet),
  }
  const order = bodyOrder(ctx, 'placeOrder').filter((k) => k !== 'signature')
  const keys = order.length ? order : Object.keys(values)
  const byName: Readonly<Record<string, BodyValue | undefined>> = values
  return keys.filter((k) => byName[k] !== undefined).map((k) => [k, byName[k] as BodyValue])
}

function signerOf(s: Wallet | Signer): Signer {
  // A run's Wallet carries its key; a viem LocalAccount (the other object a Signer may be) has none.
  return typeof s === 'object' && 'privateKey' in s ? (s as Wallet).privateKey : (s as Signer)
}

export function domainOf(ctx: CheckContext, o?: DomainOverrides): DomainOverrides {
  return { name: ctx.target.domainName, chainId: ctx.target.chainId, ...(o ?? {}) }
}

export async function signed(
  ctx: CheckContext,
  kind: OptionsKind,
  entries: BodyEntries,
  signer: Wallet | Signer,
  options: SignOptions = {},
): Promise<SignedBody> {
  return signBody(ctx.spec, kind, entries, signerOf(signer), { ...options, domain: domainOf(ctx, options.domain) })
}

export async function orderBody(ctx: CheckContext, p: OrderParams, options: SignOptions = {}): Promise<SignedBody> {
  return signed(ctx, 'PlaceOrder', orderEntries(ctx, p), p.signer ?? p.wallet, options)
}

/** A value of a signed order body as sent, by its field name in the spec's PlaceOrderRequest. */
export function orderField(body: SignedBody, field: keyof PlaceOrderRequest & string): BodyValue | undefined {
  return body.entries.find(([k]) => k === field)?.[1]
}

export async function placeOrder(
  ctx: CheckContext,
  p: OrderParams,
  options: SignOptions = {},
): Promise<{ e: HttpExchange; body: SignedBody }> {
  const body = await orderBody(ctx, p, options)
  return { e: await call(ctx, 'placeOrder', body.text), body }
}

/** Gives a wallet state on the target (one accepted order), so the target knows it as a signer. */
export async function withState(ctx: CheckContext, w: Wallet, what = 'set-up order of a fresh wallet'): Promise<Wallet> {
  const { e } = await placeOrder(ctx, { wallet: w })
  expectSuccess(ctx, e, what)
  return w
}

export async function cancelBody(
  ctx: CheckContext,
  wallet: Wallet,
  by: { orderId: string } | { clientId: string },
  options: SignOptions & { signer?: Wallet; nonce?: bigint } = {},
): Promise<SignedBody> {
  const nonce = options.nonce ?? ctx.nonce(wallet)
  if ('orderId' in by) {
    return signed(
      ctx,
      'CancelOrder',
      entries<CancelOrderRequest>([
        ['wallet', wallet.address],
        ['order_id', by.orderId],
        ['nonce', nonce],
      ]),
      options.signer ?? wallet,
      options,
    )
  }
  return signed(
    ctx,
    'CancelOrderByClientId',
    entries<CancelOrderByClientIdRequest>([
      ['wallet', wallet.address],
      ['client_id', by.clientId],
      ['nonce', nonce],
    ]),
    options.signer ?? wallet,
    options,
  )
}

export async function agentBody(
  ctx: CheckContext,
  kind: OptionsKind,
  owner: Wallet,
  agent: string,
  options: SignOptions & { nonce?: bigint } = {},
): Promise<SignedBody> {
  const nonce = options.nonce ?? ctx.nonce(owner)
  return signed(
    ctx,
    kind,
    entries<ApproveAgentRequest & RevokeAgentRequest>([
      ['agent', agent],
      ['nonce', nonce],
    ]),
    owner,
    options,
  )
}

export async function approveAgent(
  ctx: CheckContext,
  owner: Wallet,
  agent: string,
  options: SignOptions & { nonce?: bigint } = {},
): Promise<HttpExchange> {
  return call(ctx, 'approveAgent', (await agentBody(ctx, 'ApproveAgent', owner, agent, options)).text)
}

export async function revokeAgent(
  ctx: CheckContext,
  owner: Wallet,
  agent: string,
  options: SignOptions & { nonce?: bigint } = {},
): Promise<HttpExchange> {
  return call(ctx, 'revokeAgent', (await agentBody(ctx, 'RevokeAgent', owner, agent, options)).text)
}

export function bulkBody(key: string, items: readonly (SignedBody | string)[]): string {
  return `{${JSON.stringify(key)}:[${items.map((i) => (typeof i === 'string' ? i : i.text)).join(',')}]}`
}

export { RawJson }
