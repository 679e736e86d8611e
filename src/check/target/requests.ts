/**
 * Builds signed request bodies for the runner. The body is kept as ordered entries of exact
 * JSON text, so a check can send a nonce digit for digit, a price as a JSON number, a field
 * that was not signed, or a value signed differently from the one sent; the typed-data field
 * names come from the spec (`x-eip712.messages`, e.g. body `client_id` ↔ typed `clientId`).
 */
import { signingFor, type DomainOverrides, type Hex, type OptionsKind, type OptionsMessage, type Signer } from '../../signing/index.ts'
import type { FullContract } from '../../contract/index.ts'
import { bodyText, jsonText, RawJson, type BodyEntries, type BodyValue } from '../../signing/wire.ts'

export { bodyText, jsonText, RawJson, type BodyEntries, type BodyValue }

export interface SignOptions {
  readonly domain?: DomainOverrides
  /** Typed values to sign instead of the body's (a mismatch); `undefined` drops the field from the signed message. */
  readonly signed?: Readonly<Record<string, string | bigint | undefined>>
  /** Body values replaced after signing (the signature stays the one over the original values). */
  readonly after?: Readonly<Record<string, BodyValue | undefined>>
  /** Signature text to send instead of the real one. */
  readonly signature?: (real: Hex) => BodyValue
}

export interface SignedBody {
  readonly text: string
  readonly entries: BodyEntries
  readonly message: OptionsMessage
  readonly signature: Hex
}

/** The typed message the spec maps from these body values (strings and bigint nonces only: anything else is left unsigned). */
export function messageOf(spec: FullContract, kind: OptionsKind, entries: readonly (readonly [string, BodyValue])[]): OptionsMessage {
  const byBody = new Map(entries)
  const message: Record<string, string | bigint> = {}
  for (const f of signingFor(spec).kindFields(kind)) {
    const v = byBody.get(f.body)
    if (typeof v === 'string' || typeof v === 'bigint') message[f.name] = v
  }
  return message
}

/** Signs the body values as `kind` and returns the body text with `signature` appended. */
export async function signBody(
  spec: FullContract,
  kind: OptionsKind,
  entries: readonly (readonly [string, BodyValue])[],
  signer: Signer,
  options: SignOptions = {},
): Promise<SignedBody> {
  const message: Record<string, string | bigint> = { ...messageOf(spec, kind, entries) }
  // A field the spec signs but the check does not set (a newer spec than the check) is signed and sent with a schema value.
  const filled = signingFor(spec).missingFields(kind, message)
  for (const f of filled) message[f.name] = f.value
  // A field the body already carries in another JSON type (a price sent as a number) is signed, not sent twice.
  entries = [...entries, ...filled.filter((f) => !entries.some(([k]) => k === f.body)).map((f): [string, BodyValue] => [f.body, f.value])]
  for (const [k, v] of Object.entries(options.signed ?? {})) {
    if (v === undefined) delete message[k]
    else message[k] = v
  }
  const { signature } = await signingFor(spec).signOptions(kind, message, signer, options.domain)
  const out: BodyEntries = []
  for (const [k, v] of entries) {
    if (options.after && k in options.after) {
      const replaced = options.after[k]
      if (replaced !== undefined) out.push([k, replaced])
    } else out.push([k, v])
  }
  for (const [k, v] of Object.entries(options.after ?? {})) {
    if (v !== undefined && !entries.some(([e]) => e === k)) out.push([k, v])
  }
  out.push(['signature', options.signature ? options.signature(signature) : signature])
  return { text: bodyText(out), entries: out, message, signature }
}

// ---------------------------------------------------------------- perps

export interface PerpOrderSpec {
  readonly asset: number
  readonly isBuy: boolean
  readonly price: string
  readonly size: string
  readonly tif?: string
  readonly cloid?: string
}

/** A perp order action in the venue's key order (type, orders, grouping; a, b, p, s, r, t[, c]). */
export function perpOrderAction(orders: readonly PerpOrderSpec[]): Record<string, unknown> {
  return {
    type: 'order',
    orders: orders.map((o) => ({
      a: o.asset,
      b: o.isBuy,
      p: o.price,
      s: o.size,
      r: false,
      t: { limit: { tif: o.tif ?? 'Gtc' } },
      ...(o.cloid ? { c: o.cloid } : {}),
    })),
    grouping: 'na',
  }
}

export interface PerpBodyOptions {
  readonly nonce: bigint
  readonly vaultAddress?: Hex
  readonly isMainnet: boolean
  readonly domain?: DomainOverrides
  /** Sign over this action instead of the one sent. */
  readonly signedAction?: Record<string, unknown>
  /** Sign without the vault address but send it. */
  readonly vaultUnsigned?: boolean
  /** Milliseconds after which the action may not be carried out: signed and sent. */
  readonly expiresAfter?: bigint | undefined
}

export async function signPerpBody(
  spec: FullContract,
  action: Record<string, unknown>,
  signer: Signer,
  o: PerpBodyOptions,
): Promise<string> {
  const signedVault = o.vaultUnsigned ? null : (o.vaultAddress ?? null)
  const sig = await signingFor(spec).signPerpAction(
    {
      action: o.signedAction ?? action,
      nonce: o.nonce,
      vaultAddress: signedVault,
      isMainnet: o.isMainnet,
      ...(o.expiresAfter !== undefined ? { expiresAfter: o.expiresAfter } : {}),
    },
    signer,
    o.domain,
  )
  const entries: BodyEntries = [
    ['action', action as BodyValue],
    ['nonce', o.nonce],
    ['signature', { r: sig.r, s: sig.s, v: sig.v }],
  ]
  if (o.vaultAddress) entries.push(['vaultAddress', o.vaultAddress])
  if (o.expiresAfter !== undefined) entries.push(['expiresAfter', o.expiresAfter])
  return bodyText(entries)
}
