/**
 * Request builders and response readers shared by the checks: a valid order for a wallet, a
 * cancel, an approve/revoke, bulk bodies, rate-limit header parsing and the refusal classes of
 * DECISIONS (auth_refused = 401 or 403, "refused" = any 4xx, never a 2xx success).
 */
import type { DomainOverrides, OptionsKind, Signer } from '../../signing/index.ts'
import { deref, isObject, RATE_LIMIT_HEADERS } from '../../contract/index.ts'
import type { Exchange } from './http.ts'
import { RawJson, signBody, type BodyEntries, type BodyValue, type SignedBody, type SignOptions } from './requests.ts'
import type { CheckContext, FailOptions } from './types.ts'
import type { Wallet } from './wallets.ts'
import { brief } from './context.ts'
import { refusedRequestNote } from '../../explain/note.ts'
import { call } from './operations.ts'
import type { KnownErrorCode } from '../../contract/generated/errors.ts'
import type {
  AgentChange,
  ApproveAgentRequest,
  CancelOrderByClientIdRequest,
  CancelOrderRequest,
  CancelResult,
  OperationId,
  OrderResult,
  PerpResponse,
  PlaceOrderRequest,
  RevokeAgentRequest,
  Route,
  Side,
  Tif,
} from '../../contract/generated/types.ts'

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
type Fields<T> = { [K in keyof T & string]?: BodyValue }

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

export async function placeOrder(ctx: CheckContext, p: OrderParams, options: SignOptions = {}): Promise<{ e: Exchange; body: SignedBody }> {
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
): Promise<Exchange> {
  return call(ctx, 'approveAgent', (await agentBody(ctx, 'ApproveAgent', owner, agent, options)).text)
}

export async function revokeAgent(
  ctx: CheckContext,
  owner: Wallet,
  agent: string,
  options: SignOptions & { nonce?: bigint } = {},
): Promise<Exchange> {
  return call(ctx, 'revokeAgent', (await agentBody(ctx, 'RevokeAgent', owner, agent, options)).text)
}

export function bulkBody(key: string, items: readonly (SignedBody | string)[]): string {
  return `{${JSON.stringify(key)}:[${items.map((i) => (typeof i === 'string' ? i : i.text)).join(',')}]}`
}

export { RawJson }

// ---------------------------------------------------------------- reading responses

export function statusOf(e: Exchange): number {
  return e.response?.status ?? 0
}

export function jsonOf(e: Exchange): Record<string, unknown> | undefined {
  const j = e.response?.json
  return isObject(j) ? (j as Record<string, unknown>) : undefined
}

export function codeOf(e: Exchange): string | undefined {
  const c = jsonOf(e)?.code
  return typeof c === 'string' ? c : undefined
}

/** Whether a value read from a response is one of these catalog codes (a misspelled code does not compile). */
export function isCode(value: unknown, ...codes: readonly KnownErrorCode[]): boolean {
  return typeof value === 'string' && (codes as readonly string[]).includes(value)
}

/** Whether the response's `code` is one of these catalog codes. */
export function hasCode(e: Exchange, ...codes: readonly KnownErrorCode[]): boolean {
  return isCode(codeOf(e), ...codes)
}

/** The `status` of a response body that says the operation took effect, from the spec's result types. */
type SuccessStatus = Exclude<
  OrderResult['status'] | CancelResult['status'] | AgentChange['status'] | PerpResponse['status'],
  'REJECTED' | 'err'
>
const SUCCESS_STATUSES = new Set<string>(['ACKED', 'CANCELED', 'approved', 'revoked', 'ok'] satisfies SuccessStatus[])

/** A result (a body, a batch slot, a replacement's pair) that says the operation took effect; no status is no success. */
function slotSucceeded(v: unknown): boolean {
  if (!isObject(v)) return false
  if (typeof v.status === 'string') return SUCCESS_STATUSES.has(v.status)
  if (isObject(v.cancel) && isObject(v.order)) return slotSucceeded(v.cancel) && slotSucceeded(v.order)
  return false
}

/**
 * A 2xx whose body says the operation took effect (an order ACKED, an agent approved, a perp
 * `ok`, every slot of a batch): a 200 without a status says nothing, so it is not a success.
 */
export function succeeded(e: Exchange): boolean {
  const s = statusOf(e)
  if (s < 200 || s > 299) return false
  const body = jsonOf(e)
  if (Array.isArray(body?.results)) return body.results.length > 0 && body.results.every(slotSucceeded)
  return slotSucceeded(body)
}

/** A 2xx that answers with a rejection: `status` REJECTED (or a perp `err`), or every slot of a batch so. */
export function rejectedResult(e: Exchange): boolean {
  const s = statusOf(e)
  if (s < 200 || s > 299) return false
  const rejected = (v: unknown): boolean =>
    isObject(v) &&
    (v.status === ('REJECTED' satisfies OrderResult['status']) ||
      v.status === ('err' satisfies PerpResponse['status']) ||
      (isObject(v.cancel) && isObject(v.order) && (rejected(v.cancel) || rejected(v.order))))
  const body = jsonOf(e)
  if (Array.isArray(body?.results)) return body.results.length > 0 && body.results.every(rejected)
  return rejected(body)
}

export function orderStatus(e: Exchange): string | undefined {
  const s = jsonOf(e)?.status
  return typeof s === 'string' ? s : undefined
}

export interface RateHeaders {
  readonly limit?: number
  readonly remaining?: number
  readonly reset?: number
  readonly retryAfter?: number
  /** Names of the X-RateLimit-* headers that are missing. */
  readonly missing: string[]
}

function intHeader(e: Exchange, name: string): number | undefined {
  const v = e.response?.headers[name.toLowerCase()]
  if (v === undefined || !/^\s*\d+\s*$/.test(v)) return undefined
  return Number(v)
}

export function rateHeaders(e: Exchange): RateHeaders {
  const H = RATE_LIMIT_HEADERS
  const limit = intHeader(e, H.limit)
  const remaining = intHeader(e, H.remaining)
  const reset = intHeader(e, H.reset)
  const retryAfter = intHeader(e, H.retryAfter)
  const missing = [
    [H.limit, limit],
    [H.remaining, remaining],
    [H.reset, reset],
  ]
    .filter(([, v]) => v === undefined)
    .map(([n]) => String(n))
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(reset !== undefined ? { reset } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
    missing,
  }
}

// ---------------------------------------------------------------- expectations

/** The operation must have taken effect (ACKED, approved, ...). */
export function expectSuccess(ctx: CheckContext, e: Exchange, what: string, o: FailOptions = {}): void {
  if (succeeded(e)) return
  ctx.fail(`${what}: expected it to be accepted, got ${brief(e)}${whyRefused(ctx, e)}`, {
    expected: o.expected ?? 'HTTP 200 and a success status (ACKED / approved / revoked / ok)',
    exchange: e,
    ...o,
  })
}

/** An auth refusal of a request the runner signed: whether it verifies under the contract (then the server is at fault), from the explain engine. */
function whyRefused(ctx: CheckContext, e: Exchange): string {
  const s = statusOf(e)
  if ((s !== 401 && s !== 403) || e.request.body === undefined) return ''
  const note = refusedRequestNote(ctx.spec, e.request.body, {
    path: new URL(e.request.url).pathname,
    method: e.request.method,
    domain: { name: ctx.target.domainName, chainId: ctx.target.chainId },
  })
  return note ? `; ${note}` : ''
}

/** A valid signature must pass authentication: HTTP 200 (ACKED or a business REJECTED). */
export function expectAuthenticated(ctx: CheckContext, e: Exchange, what: string, o: FailOptions = {}): void {
  const s = statusOf(e)
  if (s >= 200 && s < 300) return
  ctx.fail(`${what}: expected it to pass authentication (HTTP 200), got ${brief(e)}${whyRefused(ctx, e)}`, {
    expected: 'HTTP 200 with an order result',
    exchange: e,
    ...o,
  })
}

export interface RefusalOptions extends FailOptions {
  /** Codes accepted without a warning (assumed naming); any other 4xx is a warning. */
  readonly codes?: readonly KnownErrorCode[]
}

/**
 * The request must be refused: never a 2xx that took effect, never a 5xx. A 2xx REJECTED is
 * accepted with a warning (the seed's HTTP statuses for refusals are assumed).
 */
export function expectRefused(ctx: CheckContext, e: Exchange, what: string, o: RefusalOptions = {}): void {
  const s = statusOf(e)
  const expected = o.expected ?? (o.codes?.length ? `a 4xx with code ${o.codes.join(' or ')}` : 'a 4xx refusal')
  if (s >= 500) ctx.fail(`${what}: expected a refusal, got a server error ${brief(e)}`, { ...o, expected, exchange: e })
  if (s >= 200 && s < 300) {
    if (succeeded(e)) ctx.fail(`${what}: expected a refusal, but it was accepted (${brief(e)})`, { ...o, expected, exchange: e })
    if (!rejectedResult(e))
      ctx.fail(`${what}: expected a refusal, got a 2xx that does not say REJECTED (${brief(e)})`, { ...o, expected, exchange: e })
    ctx.warn(`${what}: refused with ${brief(e)}; expected ${expected}`, { ...o, expected, exchange: e, level: 'assumed' })
    return
  }
  if (s < 400) ctx.fail(`${what}: expected a refusal, got ${brief(e)}`, { ...o, expected, exchange: e })
  const code = codeOf(e)
  if (o.codes?.length && !isCode(code, ...o.codes)) {
    ctx.warn(`${what}: refused with ${brief(e)}; expected code ${o.codes.join(' or ')}`, { ...o, expected, exchange: e, level: 'assumed' })
  }
}

/** The messages the seed states for the two auth refusals, from the spec's catalog. */
function authMessages(ctx: CheckContext): Map<string, string> {
  const m = new Map<KnownErrorCode, string>()
  for (const code of AUTH_REFUSAL_CODES) {
    const message = ctx.spec.catalog.find((c) => c.code === code)?.message
    if (message) m.set(code, message)
  }
  return m
}

/** The two codes of an auth refusal: 401 first, then 403. */
const AUTH_REFUSAL_CODES: readonly KnownErrorCode[] = ['signature_verification_failed', 'unauthorized']

/** auth_refused: 401 signature_verification_failed or 403 unauthorized, each with its own message. */
export function expectAuthRefused(ctx: CheckContext, e: Exchange, what: string, o: FailOptions = {}): void {
  const messages = authMessages(ctx)
  const codes = AUTH_REFUSAL_CODES.filter((c) => messages.has(c))
  expectRefused(ctx, e, what, { ...o, codes, expected: o.expected ?? `auth_refused: HTTP 401 ${codes[0]} or HTTP 403 ${codes[1] ?? ''}` })
  const s = statusOf(e)
  if (s === 200) return
  const code = codeOf(e)
  const message = jsonOf(e)?.message
  const stated = [...messages.values()]
  if (code && messages.has(code) && message !== messages.get(code)) {
    if (typeof message === 'string' && stated.includes(message)) {
      ctx.warn(`${what}: code ${code} came with the other auth message ${JSON.stringify(message)}`, { exchange: e, level: 'assumed' })
    } else {
      ctx.fail(`${what}: refusal message ${JSON.stringify(message)} is not the stated ${JSON.stringify(messages.get(code))}`, {
        exchange: e,
        expected: `message ${JSON.stringify(messages.get(code))}`,
        rules: ['SIGFAIL-6', 'AUTH-4'],
      })
    }
  }
  if (![401, 403].includes(s) && s >= 400 && s < 500) {
    // Not an auth status; expectRefused already warned about the code.
  }
}

/** The auth code a perp `{status: "err"}` envelope stands for, by the stated message it carries. */
export function envelopeAuthCode(ctx: CheckContext, e: Exchange): string | undefined {
  const j = jsonOf(e)
  if (statusOf(e) !== 200 || j?.status !== 'err' || typeof j.response !== 'string') return undefined
  for (const [code, message] of authMessages(ctx)) if (j.response === message) return code
  return undefined
}

/**
 * A perp request must be refused (stated: never accepted, never a 5xx). The venue answers a
 * refusal with HTTP 200 `{status: "err", response}`, which its SDKs turn into their API error;
 * an HTTP 4xx instead (assumed envelope) or, for `auth`, another message only warns.
 */
export function expectPerpRefused(ctx: CheckContext, e: Exchange, what: string, o: FailOptions & { auth?: boolean } = {}): void {
  const s = statusOf(e)
  const expected = o.expected ?? 'HTTP 200 {"status":"err","response":...}'
  if (s >= 500) return ctx.fail(`${what}: expected a refusal, got a server error ${brief(e)}`, { ...o, expected, exchange: e })
  if (s === 200 && jsonOf(e)?.status === 'err') {
    if (o.auth && !envelopeAuthCode(ctx, e)) {
      const stated = [...authMessages(ctx).values()].map((m) => JSON.stringify(m)).join(' or ')
      ctx.warn(`${what}: refused with ${brief(e)}; expected the stated message ${stated}`, {
        ...o,
        expected,
        exchange: e,
        level: 'assumed',
        rules: ['SIGFAIL-6', 'AUTH-4'],
      })
    }
    return
  }
  if (succeeded(e)) return ctx.fail(`${what}: expected a refusal, but it was accepted (${brief(e)})`, { ...o, expected, exchange: e })
  if (s >= 400 && s < 500) {
    return ctx.warn(`${what}: refused with ${brief(e)}; the venue's SDKs raise their API error only on HTTP 200 {"status":"err"}`, {
      ...o,
      expected,
      exchange: e,
      level: 'assumed',
      rules: ['PERP-8'],
    })
  }
  ctx.fail(`${what}: expected a refusal, got ${brief(e)}`, { ...o, expected, exchange: e })
}
