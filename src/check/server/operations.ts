/** A check's request to an operation, through the check's context (recorded, with its header). */
import type { OperationId } from '../../contract/generated/types.ts'
import type { HttpExchange } from '../target/http.ts'
import { pathOf, route } from '../target/routes.ts'
import type { CheckContext } from './types.ts'

/** Sends a request to an operation: its own method and path, this body, this query. */
export function call(ctx: CheckContext, id: OperationId, body?: string, query?: Readonly<Record<string, string>>): Promise<HttpExchange> {
  return ctx.send(route(ctx, id).method, pathOf(ctx, id, query), body)
}
