/**
 * POST /exchange: perpetual-contract actions in the venue's request shape, answered in the
 * venue's envelope so that its SDKs work unchanged (DECISIONS, perp section). The signer is
 * recovered from the Agent signature under the perp domain over the action as read exactly;
 * the account is resolved as the venue does; nonces and rate limits are the account's, shared
 * with the options operations.
 */
import { readUint64, type Hex } from '../../signing/index.ts'
import { deref, isObject, type FullContract, type JsonObject } from '../../contract/index.ts'
import { canonicalize } from '../canonical.ts'
import type { HandlerFactory, Handler } from '../handlers/types.ts'
import { resolveAccount, authMessage } from './account.ts'
import { cancelPerpOrders, placePerpOrders, type ActionResult } from './actions.ts'
import { envelopeErr, envelopeOk } from './envelope.ts'
import { exactAt } from './exact.ts'

/** The action types the spec's request schema admits (the `type` const of each branch). */
function actionTypes(spec: FullContract, actionSchema: unknown): string[] {
  const s = deref(spec.doc, actionSchema) as JsonObject
  const branches = Array.isArray(s.oneOf) ? s.oneOf : [s]
  return branches.map((b) => {
    const props = (deref(spec.doc, b) as JsonObject).properties as JsonObject
    return String((props.type as JsonObject).const)
  })
}

export const perpExchange: HandlerFactory = (ctx, op) => {
  const validator = ctx.validators.body(op.operationId)!
  const perpDomain = ctx.spec.typedData.domains.perps
  const schema = deref(ctx.spec.doc, op.requestSchema) as JsonObject
  const actionSchema = (schema.properties as JsonObject).action
  const supported = actionTypes(ctx.spec, actionSchema)
  const execute: Record<string, (wallet: string, action: Record<string, unknown>, nonce: bigint) => ActionResult> = {
    order: (wallet, action, nonce) => placePerpOrders(ctx, wallet, action.orders as never, nonce),
    cancel: (wallet, action) => cancelPerpOrders(ctx, wallet, action.cancels as never),
    cancelByCloid: (wallet, action) => cancelPerpOrders(ctx, wallet, action.cancels as never),
  }
  for (const t of supported) if (!execute[t]) throw new Error(`the reference server cannot execute the spec's perp action type ${t}`)

  const handler: Handler = (req) => {
    const body = req.body!
    const v = body.value as Record<string, unknown>
    const type = isObject(v) && isObject(v.action) ? (v.action as Record<string, unknown>).type : undefined
    if (typeof type === 'string' && !supported.includes(type)) {
      return envelopeErr(`Unsupported action type ${JSON.stringify(type.slice(0, 40))}: this server accepts ${supported.join(', ')}`)
    }
    const problem = validator.check(body.value)
    if (problem) return envelopeErr(problem.message)
    const vault = (v.vaultAddress ?? null) as Hex | null
    if (vault) req.state.wallet = vault
    const nonce = readUint64(body, '/nonce')
    if (!nonce.ok) return envelopeErr(`invalid field "nonce": ${nonce.message.replace(/^nonce /, '')}`)
    let expiresAfter: bigint | null = null
    if (v.expiresAfter !== undefined && v.expiresAfter !== null) {
      const e = readUint64(body, '/expiresAfter')
      if (!e.ok) return envelopeErr(`invalid field "expiresAfter": ${e.message.replace(/^expiresAfter /, '')}`)
      expiresAfter = e.value
    }
    const exact = exactAt(body, '/action', v.action)
    if (!exact.ok) return envelopeErr(exact.message)
    const action = canonicalize(ctx.spec, actionSchema, exact.value) as Record<string, unknown>
    const category = type === 'order' ? 'orders' : 'cancels'
    req.state.category = category

    const r = ctx.deps.recoverPerpSigner(
      { action, nonce: nonce.value, vaultAddress: vault, expiresAfter, isMainnet: ctx.config.isMainnet !== false },
      v.signature as { r: string; s: string; v: number },
      { domain: { name: perpDomain?.name, chainId: ctx.config.perpChainId ?? perpDomain?.chainId } },
    )
    if (!r.ok) return envelopeErr(authMessage(ctx, null))
    const account = resolveAccount(ctx, r.signer, vault)
    if (!account.ok) return envelopeErr(account.message)
    const wallet = account.wallet
    req.state.wallet = wallet

    const items = (type === 'order' ? action.orders : action.cancels) as unknown[]
    const limited = ctx.charge(wallet, { api: 1, [category]: items.length }, category)
    if (limited) return limited
    const headers = ctx.rateHeaders(wallet, category)
    const now = ctx.deps.clock.now()
    if (expiresAfter !== null && expiresAfter < BigInt(now)) {
      return envelopeErr(`Request expired: expiresAfter ${expiresAfter} is before the server time ${now}`, headers)
    }
    const { nonces } = ctx.deps
    if (nonces.has(wallet, nonce.value)) return envelopeErr(`Invalid nonce: ${nonce.value} was already used by this account`, headers)

    const out = execute[type as string]!(wallet, action, nonce.value)
    if (out.changed) nonces.consume(wallet, nonce.value)
    return envelopeOk(type === 'order' ? 'order' : 'cancel', out.statuses, ctx.rateHeaders(wallet, category))
  }
  // Duplicate keys and over-deep nesting are refused at the edge; here they are bad fields too.
  return Object.assign(handler, { refuseBody: (message: string) => envelopeErr(message) })
}
