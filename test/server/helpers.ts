/** Shared helpers of the reference-server tests: keys, signed bodies, HTTP over loopback. */
import { SimulatedClock, startServer, type RunningServer, type ServerConfig, type ServerDeps } from '../../src/server/index.ts'
import { addressOf, type DomainOverrides, type Hex, type OptionsKind } from '../../src/signing/index.ts'
import type { OrderWire } from '../../src/server/perp/actions.ts'
import { buildRequest, signPerpAction } from '../helpers/shipped.ts'

/** Deterministic test keys (never real funds): key(i) = 32-byte big-endian i + 1 + offset. */
export function key(i: number): Hex {
  return `0x${(BigInt(i) + 0x1000n).toString(16).padStart(64, '0')}`
}

export interface Wallet {
  readonly key: Hex
  readonly address: Hex
}

let next = 0
/** A fresh wallet per call, so tests never share rate-limit counters or nonces. */
export function wallet(): Wallet {
  const k = key(next++ + Math.floor(Math.random() * 1e9))
  return { key: k, address: addressOf(k) }
}

export const SYMBOL = 'BTC-20261225-100000-C'
export const T0 = Date.UTC(2026, 0, 1, 0, 0, 0) // an epoch-minute boundary

export interface Started extends RunningServer {
  readonly clock: SimulatedClock
}

export async function start(config: Partial<ServerConfig> = {}, deps: Partial<ServerDeps> = {}): Promise<Started> {
  const clock = new SimulatedClock(T0 + 1_000)
  const s = await startServer({ config, deps: { clock, ...deps } })
  return s as Started
}

export interface OrderFields {
  wallet?: string
  symbol?: string
  side?: string
  size?: string
  price?: string
  tif?: string
  route?: string | undefined
  clientId?: string
  nonce?: bigint
}

let nonceSeq = 1n
export function nonce(): bigint {
  nonceSeq += 1n
  return nonceSeq
}

export function orderMessage(w: Wallet, f: OrderFields = {}): Record<string, string | bigint> {
  const m: Record<string, string | bigint> = {
    wallet: f.wallet ?? w.address,
    symbol: f.symbol ?? SYMBOL,
    side: f.side ?? 'Buy',
    size: f.size ?? '1',
    price: f.price ?? '100',
    tif: f.tif ?? 'gtc',
    route: f.route ?? 'best_execution',
    clientId: f.clientId ?? 'c1',
    nonce: f.nonce ?? nonce(),
  }
  if ('route' in f && f.route === undefined) delete m.route
  return m
}

/** A signed PlaceOrder body text (chainId 999 unless the domain says otherwise). */
export async function signedOrder(w: Wallet, f: OrderFields = {}, domain: DomainOverrides = {}, signer: Hex = w.key): Promise<string> {
  return (await buildRequest('PlaceOrder', orderMessage(w, f), signer, domain)).body
}

export async function signed(
  kind: OptionsKind,
  message: Record<string, string | bigint>,
  signer: Hex,
  domain: DomainOverrides = {},
): Promise<string> {
  return (await buildRequest(kind, message, signer, domain)).body
}

export interface Res {
  status: number
  headers: Headers
  text: string
  json: any
}

export async function call(
  s: { url: string },
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Res> {
  const r = await fetch(s.url + path, { method, ...(body !== undefined ? { body, headers } : {}) })
  const text = await r.text()
  let json: unknown
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  return { status: r.status, headers: r.headers, text, json }
}

export const post = (s: { url: string }, path: string, body: string) => call(s, 'POST', path, body)

export async function placeOrder(s: { url: string }, w: Wallet, f: OrderFields = {}): Promise<Res> {
  return post(s, '/order', await signedOrder(w, f))
}

/** Gives a wallet state (an accepted order) so that perp requests it signs are not refused as unknown. */
export async function giveState(s: { url: string }, w: Wallet): Promise<void> {
  const r = await placeOrder(s, w, { symbol: 'SOL-20261225-200-C', side: 'Buy', price: '1', size: '1', tif: 'gtc' })
  if (r.status !== 200 || r.json.status !== 'ACKED') throw new Error(`giveState: ${r.status} ${r.text}`)
}

export type PerpOrder = OrderWire<number>

export function perpOrderAction(orders: PerpOrder[]): Record<string, unknown> {
  return { type: 'order', orders, grouping: 'na' }
}

export async function signedPerp(
  action: Record<string, unknown>,
  signer: Hex,
  opts: { nonce?: bigint; vaultAddress?: Hex | null; isMainnet?: boolean; domain?: DomainOverrides; expiresAfter?: bigint } = {},
): Promise<string> {
  const n = opts.nonce ?? nonce()
  const sig = await signPerpAction(
    {
      action,
      nonce: n,
      vaultAddress: opts.vaultAddress ?? null,
      ...(opts.expiresAfter !== undefined ? { expiresAfter: opts.expiresAfter } : {}),
      isMainnet: opts.isMainnet ?? true,
    },
    signer,
    opts.domain,
  )
  const body: Record<string, unknown> = { action, nonce: '__NONCE__', signature: { r: sig.r, s: sig.s, v: sig.v } }
  if (opts.vaultAddress) body.vaultAddress = opts.vaultAddress
  if (opts.expiresAfter !== undefined) body.expiresAfter = '__EXP__'
  return JSON.stringify(body).replace('"__NONCE__"', n.toString()).replace('"__EXP__"', String(opts.expiresAfter))
}
