import type { ParsedBodyOk } from '../../signing/index.ts'
import type { Operation } from '../../contract/index.ts'
import type { RequestState, ServerContext } from '../context.ts'
import type { Reply } from '../reply.ts'

export interface Request {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  /** Present for operations with a request body (parsed losslessly, not yet validated). */
  readonly body?: ParsedBodyOk | undefined
  readonly state: RequestState
}

export type Handler = ((req: Request) => Reply | Promise<Reply>) & {
  /** Answers a body the edge refused as a bad field (duplicate key, nesting), when the operation has its own envelope. */
  readonly refuseBody?: (message: string) => Reply
  /** Changes no state though not a GET (POST /info): served while the store cannot commit. */
  readonly readOnly?: true
}

/** Builds an operation's handler once at start-up (validators compiled, kinds resolved). */
export type HandlerFactory = (ctx: ServerContext, op: Operation) => Handler
