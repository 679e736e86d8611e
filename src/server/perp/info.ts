/**
 * POST /info: the venue's read requests that its SDKs make at start-up and around order
 * placement (name → asset index maps, contexts, mids, books, an account's resting orders),
 * answered by info-answers.ts. Which request types exist comes from the spec's request schema;
 * the server refuses to start when the spec names one it cannot answer.
 */
import { deref, type JsonObject } from '../../contract/index.ts'
import type { Handler, HandlerFactory } from '../handlers/types.ts'
import { json } from '../reply.ts'
import { INFO_ANSWERS, type InfoRequest } from './info-answers.ts'

export const perpInfo: HandlerFactory = (ctx, op) => {
  const validator = ctx.validators.body(op.operationId)!
  const schema = deref(ctx.spec.doc, op.requestSchema) as JsonObject
  const types = ((deref(ctx.spec.doc, (schema.properties as JsonObject).type) as JsonObject).enum ?? []) as string[]
  for (const t of types) if (!INFO_ANSWERS[t]) throw new Error(`the reference server has no answer for the spec's info type ${t}`)
  const handler: Handler = (req) => {
    const problem = validator.check(req.body!.value)
    if (problem) return ctx.catalog.reply('invalid_field', problem.message)
    const request = req.body!.value as InfoRequest
    const { needs, answer } = INFO_ANSWERS[request.type]!
    if (needs && request[needs] === undefined)
      return ctx.catalog.reply('invalid_field', `invalid field "${needs}": required for type ${JSON.stringify(request.type)}`)
    return json(200, answer(ctx, request))
  }
  // A read: answered on a full disk too (the spec declares no 503 for it).
  return Object.assign(handler, { readOnly: true as const })
}
