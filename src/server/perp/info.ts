/**
 * POST /info: the venue's read requests that its SDKs make to map an asset name to the index
 * an order carries (`a`). The index is the position in the server's instrument list, as the
 * venue's perp universe is. Which request types exist comes from the spec's request schema.
 */
import { deref, type JsonObject } from '../../contract/index.ts'
import type { ServerContext } from '../context.ts'
import type { Handler, HandlerFactory } from '../handlers/types.ts'
import { json } from '../reply.ts'

/**
 * Sizes and prices are exact decimals here, with no lot size; the venue's SDKs round a size to
 * szDecimals and a price to 6 - szDecimals decimals, so 4 leaves both usable. Options carry no
 * leverage, hence 1.
 */
const SZ_DECIMALS = 4
const MAX_LEVERAGE = 1

const ANSWERS: Record<string, (ctx: ServerContext) => unknown> = {
  meta: (ctx) => ({ universe: ctx.exchange.instruments.map((name) => ({ name, szDecimals: SZ_DECIMALS, maxLeverage: MAX_LEVERAGE })) }),
  // No spot markets, and only the default perp dex, which the venue lists as null.
  spotMeta: () => ({ universe: [], tokens: [] }),
  perpDexs: () => [null],
}

export const perpInfo: HandlerFactory = (ctx, op) => {
  const validator = ctx.validators.body(op.operationId)!
  const schema = deref(ctx.spec.doc, op.requestSchema) as JsonObject
  const types = ((deref(ctx.spec.doc, (schema.properties as JsonObject).type) as JsonObject).enum ?? []) as string[]
  for (const t of types) if (!ANSWERS[t]) throw new Error(`the reference server has no answer for the spec's info type ${t}`)
  const handler: Handler = (req) => {
    const problem = validator.check(req.body!.value)
    if (problem) return ctx.catalog.reply('invalid_field', problem.message)
    const { type } = req.body!.value as { type: string }
    return json(200, ANSWERS[type]!(ctx))
  }
  return handler
}
