/**
 * POST /exchange: perpetual-contract orders in the external venue's request shape. The signer is
 * recovered from the Agent signature under the perp domain; the wallet is `vaultAddress` when
 * given, else the signer; it is authorized as for options. A signer the server has never seen is
 * refused (a tampered request without a vault recovers to some fresh address that would
 * otherwise "own" it). Shares the nonce namespace, the rate limits and the books.
 */
import type { Hex } from '../../signing/index.ts'
import { readUint64 } from '../../signing/index.ts'
import { deref, type JsonObject } from '../../contract/index.ts'
import { authorizedFor, refusal } from '../auth.ts'
import { canonicalize } from '../canonical.ts'
import { formatDec } from '../decimal.ts'
import { averagePrice } from '../exchange.ts'
import type { OrderInput } from '../exchange.ts'
import { executeOrder } from '../orders.ts'
import { json } from '../reply.ts'
import type { HandlerFactory } from './types.ts'

interface PerpOrderWire {
  a: number
  b: boolean
  p: string
  s: string
  r: boolean
  t: { limit: { tif: 'Gtc' | 'Ioc' | 'Alo' } }
  c?: string
}

/** Venue time-in-force → options tif and route (Alo = add liquidity only: a book-only gtc). */
const TIF: Record<string, { tif: string; route: string }> = {
  Gtc: { tif: 'gtc', route: 'best_execution' },
  Ioc: { tif: 'ioc', route: 'best_execution' },
  Alo: { tif: 'gtc', route: 'book_only' },
}

export const perpExchange: HandlerFactory = (ctx, op) => {
  const validator = ctx.validators.body(op.operationId)!
  const perpDomain = ctx.spec.typedData.domains.perps
  const schema = deref(ctx.spec.doc, op.requestSchema) as JsonObject
  const actionSchema = (schema.properties as JsonObject).action
  return (req) => {
    const body = req.body!
    const problem = validator.check(body.value)
    if (problem) return ctx.catalog.reply('invalid_field', problem.message)
    const v = body.value as { action: Record<string, unknown>; signature: { r: string; s: string; v: number }; vaultAddress?: string | null; expiresAfter?: number }
    const vault = (v.vaultAddress ?? null) as Hex | null
    if (vault) req.state.wallet = vault
    const nonce = readUint64(body, '/nonce')
    if (!nonce.ok) return ctx.catalog.reply('invalid_field', `invalid field "nonce": ${nonce.message.replace(/^nonce /, '')}`)
    let expiresAfter: bigint | null = null
    if (v.expiresAfter !== undefined) {
      const e = readUint64(body, '/expiresAfter')
      if (!e.ok) return ctx.catalog.reply('invalid_field', `invalid field "expiresAfter": ${e.message.replace(/^expiresAfter /, '')}`)
      expiresAfter = e.value
    }
    const isCancel = v.action.type === 'cancel'
    const category = isCancel ? 'cancels' : 'orders'
    req.state.category = category

    const r = ctx.deps.recoverPerpSigner(
      { action: canonicalize(ctx.spec, actionSchema, v.action) as Record<string, unknown>, nonce: nonce.value, vaultAddress: vault, expiresAfter, isMainnet: ctx.config.isMainnet !== false },
      v.signature,
      { domain: { name: perpDomain?.name, chainId: ctx.config.perpChainId ?? perpDomain?.chainId } },
    )
    if (!r.ok) return refusal(ctx, null).reply
    const signer = r.signer
    const wallet = vault ?? signer
    req.state.wallet = wallet
    if (!ctx.known(signer) || !authorizedFor(ctx, signer, wallet)) return refusal(ctx, signer).reply

    const items = (isCancel ? v.action.cancels : v.action.orders) as unknown[]
    const limited = ctx.charge(wallet, { api: 1, [category]: items.length }, category)
    if (limited) return limited
    const headers = ctx.rateHeaders(wallet, category)
    if (expiresAfter !== null && expiresAfter < BigInt(ctx.deps.clock.now())) {
      return json(200, { status: 'err', response: `Request expired: expiresAfter ${expiresAfter} is before the server time ${ctx.deps.clock.now()}` }, headers)
    }
    const { nonces } = ctx.deps
    if (nonces.has(wallet, nonce.value)) return ctx.catalog.reply('nonce_reused', `nonce ${nonce.value} was already used by this wallet`, {}, headers)

    let changed = false
    const statuses: unknown[] = []
    if (isCancel) {
      for (const c of items as { a: number; o: number }[]) {
        const symbol = ctx.exchange.instruments[c.a]
        const order = ctx.exchange.order(String(c.o))
        if (symbol === undefined) {
          statuses.push({ error: `unknown asset index ${c.a}` })
          continue
        }
        if (order && order.input.symbol !== symbol) {
          statuses.push({ error: `order ${c.o} is not in asset ${c.a}` })
          continue
        }
        const out = ctx.exchange.cancel(wallet, { orderId: String(c.o) })
        if (out.kind === 'canceled') {
          changed = true
          statuses.push('success')
        } else statuses.push({ error: `Order was never placed, already canceled, or filled: ${out.reason}` })
      }
    } else {
      for (const o of items as PerpOrderWire[]) {
        const symbol = ctx.exchange.instruments[o.a]
        if (symbol === undefined) {
          statuses.push({ error: `unknown asset index ${o.a} (this server lists ${ctx.exchange.instruments.length} instruments)` })
          continue
        }
        const mode = TIF[o.t.limit.tif]!
        const input: OrderInput = { wallet, symbol, side: o.b ? 'Buy' : 'Sell', size: o.s, price: o.p, tif: mode.tif, route: mode.route, clientId: o.c ?? '' }
        // One nonce covers the whole action: check it once above, consume it once below.
        const out = executeOrder(ctx, { input, nonce: nonce.value }, false)
        if (out.kind === 'accepted') {
          changed = true
          const ord = out.order
          const oid = Number(ord.id)
          if (ord.status === 'OPEN') statuses.push({ resting: { oid } })
          else if (ord.filled.coef > 0n) statuses.push({ filled: { totalSz: formatDec(ord.filled), avgPx: averagePrice(ord), oid } })
          else statuses.push({ error: 'Order could not immediately match against any resting orders.' })
        } else statuses.push({ error: out.kind === 'rejected' ? out.reason : out.message })
      }
    }
    if (changed) nonces.consume(wallet, nonce.value)
    return json(200, { status: 'ok', response: { type: isCancel ? 'cancel' : 'order', data: { statuses } } }, ctx.rateHeaders(wallet, category))
  }
}
