/**
 * The explorer's signed request bodies, one builder per request kind (an order, a cancel, an
 * agent's approval or revoke, a perp action), and the assumed rules an acceptance rests on. Every
 * command builds its bodies here, so that a burst sends the very text its single step would.
 */
import type { RuleId } from '../../contract/generated/rules.ts'
import type { Hex, OptionsKind } from '../../signing/index.ts'
import { RawJson, signBody, signPerpBody, type BodyEntries, type BodyValue } from '../target/requests.ts'
import type { Placed } from './ledger.ts'
import { AGENTS, type OrderSpec, type SignerPick, type SigMistake, type Step, type SymbolPick } from './steps.ts'
import type { World } from './world.ts'

/** An order id nobody issued. */
export const UNKNOWN_ID = '987654321987'

export function symbolOf(w: World, pick: SymbolPick): string {
  const s = w.pair.symbols
  if (typeof pick === 'number') return s[pick % s.length]!
  if (pick === 'unlisted') return w.pair.missingSymbol
  if (pick === 'lower') return s[0]!.toLowerCase()
  return 'BTC-2026-1-X'
}

/** The perp asset index of the n-th traded instrument, as the target numbers its instruments. */
export function assetOf(w: World, n: number): number {
  return w.pair.assets[n % w.pair.symbols.length]!
}

export function signerKey(w: World, wallet: number, pick: SignerPick): Hex {
  if (pick === 'self') return w.wallets[wallet]!.privateKey
  if (pick === 'stranger') return w.stranger.privateKey
  return w.agents[pick.agent % AGENTS]!.privateKey
}

/** Signs an options body, with a signing mistake if asked (the price changed after, the wrong chain, a JSON number). */
export async function sign(w: World, kind: OptionsKind, entries: BodyEntries, key: Hex, mistake: SigMistake = 'none'): Promise<string> {
  const price = entries.find(([k]) => k === 'price')?.[1]
  const after: Record<string, BodyValue> =
    mistake === 'stale'
      ? { price: `${String(price)}1` }
      : mistake === 'number' && typeof price === 'string'
        ? { price: new RawJson(price) }
        : {}
  const domain = { name: w.pair.domainName, chainId: mistake === 'chain' ? w.pair.chainId + 1 : w.pair.chainId }
  return (await signBody(w.pair.spec, kind, entries, key, { domain, after })).text
}

/** An order's fields as sent (route null: omitted from the body and the typed data). */
export interface OrderFields {
  readonly wallet: string
  readonly symbol: string
  readonly side: string
  readonly size: string
  readonly price: string
  readonly tif: string
  readonly route: string | null
  readonly clientId: string
  readonly nonce: bigint
}

/** A drawn order of a sequence wallet as the fields it sends. */
export function orderFields(w: World, wallet: number, o: OrderSpec, nonce: bigint, clientId: string): OrderFields {
  const { side, size, price, tif, route } = o
  return { wallet: w.wallets[wallet]!.address, symbol: symbolOf(w, o.symbol), side, size, price, tif, route, clientId, nonce }
}

export function orderBody(w: World, f: OrderFields, key: Hex, mistake: SigMistake = 'none'): Promise<string> {
  const e: BodyEntries = [
    ['wallet', f.wallet],
    ['symbol', f.symbol],
    ['side', f.side],
    ['size', f.size],
    ['price', f.price],
    ['tif', f.tif],
  ]
  if (f.route !== null) e.push(['route', f.route])
  e.push(['client_id', f.clientId], ['nonce', f.nonce])
  return sign(w, 'PlaceOrder', e, key, mistake)
}

/** What a cancel names on one side: that side's id of the order, or its client id (one nobody placed if none). */
export function cancelTarget(by: 'oid' | 'cloid', p: Placed | undefined, side: 'target' | 'oracle'): string {
  return by === 'oid' ? (p?.[side] ?? UNKNOWN_ID) : (p?.clientId ?? 'never-placed')
}

/** A cancel of an order of `account` by order id or by client id. */
export function cancelBody(w: World, account: string, by: 'oid' | 'cloid', id: string, nonce: bigint, key: Hex): Promise<string> {
  const kind: OptionsKind = by === 'oid' ? 'CancelOrder' : 'CancelOrderByClientId'
  return sign(w, kind, [['wallet', account], by === 'oid' ? ['order_id', id] : ['client_id', id], ['nonce', nonce]], key)
}

/** An approval or revoke of an agent, signed by the wallet. */
export function agentBody(w: World, op: 'approve' | 'revoke', agent: string, nonce: bigint, key: Hex): Promise<string> {
  return sign(
    w,
    op === 'approve' ? 'ApproveAgent' : 'RevokeAgent',
    [
      ['agent', agent],
      ['nonce', nonce],
    ],
    key,
  )
}

/** A perp action signed on the perp chain, for a vault if one is named. */
export function perpBody(
  w: World,
  action: Record<string, unknown>,
  key: Hex,
  nonce: bigint,
  vault: number | undefined,
  expiresAfter?: bigint,
): Promise<string> {
  return signPerpBody(w.pair.spec, action, key, {
    nonce,
    isMainnet: w.pair.isMainnet,
    domain: { chainId: w.pair.perpChainId },
    ...(vault !== undefined ? { vaultAddress: w.wallets[vault]!.address } : {}),
    expiresAfter,
  })
}

/** The perp account a request acts for (the vault; an agent's one approving wallet; else the signer), as a wallet index or address. */
export function perpAccount(w: World, step: Extract<Step, { op: 'perp-order' | 'perp-cancel' }>): { address: string; wallet: number } {
  if (step.vault !== undefined) return { address: w.wallets[step.vault]!.address, wallet: step.vault }
  if ('wallet' in step.signer) return { address: w.wallets[step.signer.wallet]!.address, wallet: step.signer.wallet }
  const owners = w.ledger.owners(step.signer.agent % AGENTS)
  if (owners.length === 1) return { address: w.wallets[owners[0]!]!.address, wallet: owners[0]! }
  return { address: w.agents[step.signer.agent % AGENTS]!.address, wallet: -1 }
}

/** The key that signs a perp request: the wallet's or the agent's. */
export function perpSigner(w: World, step: Extract<Step, { op: 'perp-order' | 'perp-cancel' }>): { address: string; privateKey: Hex } {
  return 'wallet' in step.signer ? w.wallets[step.signer.wallet]! : w.agents[step.signer.agent % AGENTS]!
}

/** The assumed rule an order's acceptance rests on, if any. */
export function orderAssumption(w: World, o: OrderSpec, clientId: string): RuleId | undefined {
  if (o.symbol === 'malformed' || o.symbol === 'lower') return 'SVC-2'
  if (o.symbol === 'unlisted' || o.size === '0' || o.price === '0') return 'PO-12'
  if (o.route === 'rfq_only') return 'ROUTE-5'
  if (o.route === null) return 'ROUTE-4'
  if (w.ledger.placed.some((p) => p.clientId === clientId)) return 'EP-9'
  return undefined
}

/** Cancel by client id of a client id used twice picks one of them: which one the seed does not say. */
export function cancelAssumption(w: World, by: 'oid' | 'cloid', p: Placed | undefined): RuleId | undefined {
  if (by === 'cloid' && p && w.ledger.placed.filter((q) => q.clientId === p.clientId).length > 1) return 'EP-9'
  return undefined
}
