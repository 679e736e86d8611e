/**
 * The seams of the server. Every piece of behaviour a conformance check targets sits behind one
 * of these, so the runner's test suite builds a deliberately broken server by swapping a single
 * dependency (a verifier that ignores the chain ID, a nonce store that forgets, a limiter that
 * counts a batch once, a reply filter that drops a header) instead of forking the server.
 */
import { parseBody, type ParsedBodyOk, type Signing } from '../signing/index.ts'
import type { Clock } from './clock.ts'
import { systemClock } from './clock.ts'
import type { OrderArchive } from './archive.ts'
import { MatchingEngine, type EngineObserver, type Order } from './matching-engine.ts'
import { createRateLimiter, type RateLimiter } from './limits.ts'
import type { Reply } from './reply.ts'
import { createAgentStore, createNonceStore, type AgentStore, type NonceStore } from './stores.ts'

/** What the server builds its matching engine from: its instruments, where order changes go, the archive, the journal. */
export interface EngineParts {
  readonly instruments: readonly string[]
  /** Called on every order change (the WebSocket feed). */
  readonly onChange: (o: Order) => void
  readonly archive: OrderArchive
  /** With `--data`: the journal that records every change. */
  readonly observer: EngineObserver | undefined
}

/** The server's own matching engine. */
export const createEngine = (parts: EngineParts): MatchingEngine =>
  new MatchingEngine(parts.instruments, parts.onChange, parts.archive, parts.observer)

/** One structured line per request. */
export interface RequestLog {
  time: string
  method: string
  path: string
  status: number
  ms: number
  /** The error `code` of an error reply. */
  code?: string
  /** The trading wallet the request was counted against, when identified. */
  wallet?: string
}

export interface ReplyContext {
  readonly method: string
  readonly path: string
  /** The spec operation answered, if the path and method matched one. */
  readonly operationId?: string
}

export interface ServerDeps {
  /** Time for rate-limit windows, `created_at` and perp `expiresAfter`. */
  clock: Clock
  /** Lossless body parser (nonce exact, duplicate keys and deep nesting refused). */
  parseBody: typeof parseBody
  /** Options-domain signature verification (PlaceOrder, cancels, agents). */
  verifyOptions: Signing['verifyOptions']
  /** Perp Agent-signature recovery (POST /exchange). */
  recoverPerpSigner: Signing['recoverPerpSigner']
  /** Consumed nonces per wallet. */
  nonces: NonceStore
  /** Agent approvals. */
  agents: AgentStore
  /** Per-wallet fixed-window counters. */
  rateLimiter: RateLimiter
  /** Request log sink; the default writes JSON lines to stderr when `config.log` is on. */
  logger: (entry: RequestLog) => void
  /** Builds the matching engine (books, orders, positions) from the server's parts; a fault fixture passes one with a method changed. */
  engine: (parts: EngineParts) => MatchingEngine
  /** Last look at every reply before it is written (identity by default). */
  transformReply: (reply: Reply, context: ReplyContext) => Reply
  /** Development only (`oec serve --explain`): a diagnosis added to signature refusals as `explain`. */
  explainRefusal?: (
    body: ParsedBodyOk,
    wallet: string,
    context: { authorized(address: string): boolean; known(address: string): boolean },
  ) => unknown
}

/** The default request log when logging is off: the HTTP edge skips building entries for it. */
export const noRequestLog = (_entry: RequestLog): void => {}

/** The default seams; signature checks are the contract's own (`signingFor(contract)`). */
export function defaultDeps(signing: Signing, windowSeconds: number, log: boolean): ServerDeps {
  return {
    clock: systemClock,
    parseBody,
    verifyOptions: signing.verifyOptions,
    recoverPerpSigner: signing.recoverPerpSigner,
    nonces: createNonceStore(),
    agents: createAgentStore(),
    rateLimiter: createRateLimiter(windowSeconds),
    logger: log ? (entry) => process.stderr.write(`${JSON.stringify(entry)}\n`) : noRequestLog,
    transformReply: (reply) => reply,
    engine: createEngine,
  }
}
