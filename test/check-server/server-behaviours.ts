/**
 * Every behaviour the reference server implements (a pass over src/server), each with the server
 * checks that would fail or warn when a server gets it wrong. server-behaviours.test.ts fails when
 * a module of src/server is in no row, when a row names no check, or when a check it names is
 * not in the registry. `reference` rows are the server's own choices where the contract leaves
 * a server free (no other server is held to them), with the reason.
 */
import type { CheckSelector } from '../../src/check/server/registry.ts'

export interface Behaviour {
  readonly what: string
  /** Modules under src/server that implement it. */
  readonly modules: readonly string[]
  readonly checks: readonly CheckSelector[]
  /** Set instead of checks: why no server but this one is held to it. */
  readonly reference?: string
}

export const SERVER_BEHAVIOURS: readonly Behaviour[] = [
  { what: 'bodies over 64 KiB: 413, headers kept', modules: ['http.ts'], checks: ['robust.malformed/oversize', 'rl.headers-refusals'] },
  {
    what: 'a non-JSON Content-Type: 415; a missing one read as JSON',
    modules: ['http.ts'],
    checks: ['robust.malformed/wrong-content-type', 'rl.headers-refusals'],
  },
  {
    what: 'lossless JSON parsing; invalid JSON, UTF-8, duplicate keys, deep nesting refused with a 4xx',
    modules: ['http.ts', 'validate.ts'],
    checks: ['robust.malformed', 'nonce.precision-2p53', 'nonce.uint64-max'],
  },
  {
    what: 'rate-limit headers on every response of a rate-limited endpoint (the anonymous window when no wallet is known; 500 too)',
    modules: ['http.ts', 'context.ts'],
    checks: ['rl.headers', 'rl.headers-refusals', 'rl.reset'],
  },
  { what: "a 500 only for the server's own faults", modules: ['http.ts'], checks: ['robust.malformed', 'err.orderbook-unlisted'] },
  { what: 'HEAD without a body', modules: ['http.ts', 'router.ts'], checks: ['err.head'] },
  {
    what: 'routes from spec.operations; 404 and 405 with Allow',
    modules: ['router.ts', 'handlers/index.ts'],
    checks: ['err.catalog-codes', 'err.body-shape'],
  },
  {
    what: 'error bodies from the catalog: code, message, legacy error',
    modules: ['catalog.ts', 'reply.ts'],
    checks: ['err.body-shape', 'err.catalog-codes'],
  },
  {
    what: 'unknown fields, bad types and grammar refused with invalid_field',
    modules: ['validate.ts', 'symbols.ts'],
    checks: ['mutate.place-order', 'mutate.cancel-order', 'mutate.approve-agent'],
  },
  {
    what: 'signer recovery under the options domain; the signer is the wallet or an approved agent',
    modules: ['auth.ts', 'verify-batch.ts'],
    checks: ['auth.direct-order', 'auth.agent-order', 'auth.unapproved-agent', 'auth.tampered', 'vectors.place-order-valid'],
  },
  {
    what: 'chain ID, domain name, version, struct (route omitted) and string formats signed exactly',
    modules: ['auth.ts'],
    checks: [
      'auth.chain-id',
      'auth.domain',
      'auth.route-struct',
      'auth.string-format',
      'auth.number-price',
      'auth.client-id-signed',
      'vectors.struct-mismatch',
    ],
  },
  {
    what: 'signature encodings: v 27/28 and 0/1, high-s refused',
    modules: ['auth.ts'],
    checks: ['auth.signature-encoding', 'vectors.signature-encoding'],
  },
  {
    what: 'one nonce namespace per wallet; consumed only by a state change; reuse 409; concurrent reuse at most once',
    modules: ['stores.ts', 'nonce-intervals.ts', 'orders.ts'],
    checks: ['nonce.reuse-after-success', 'nonce.retry-after-failure', 'nonce.gaps-decreasing', 'nonce.concurrent', 'auth.replay'],
  },
  {
    what: 'agent approval and revocation by the recovered owner; self-approval refused; unknown revoke 404',
    modules: ['handlers/agents.ts', 'stores.ts'],
    checks: [
      'auth.agent-revoke',
      'auth.agent-cannot-approve-for-owner',
      'auth.approve-self',
      'auth.revoke-unknown',
      'vectors.agent-approval',
    ],
  },
  {
    what: 'per-wallet fixed windows per category; 429 body, Retry-After, Remaining 0',
    modules: ['limits.ts', 'context.ts'],
    checks: ['rl.order-limit', 'rl.categories', 'rl.remaining', 'rl.reset'],
  },
  { what: 'only authenticated requests are charged', modules: ['context.ts', 'orders.ts'], checks: ['rl.unauthenticated-free'] },
  {
    what: 'a batch that would cross a limit: 429 as a whole, nothing consumed',
    modules: ['handlers/bulk.ts', 'limits.ts'],
    checks: ['rl.batch-crossing'],
  },
  {
    what: 'tiers and caps from config; max positions -1 unlimited',
    modules: ['config.ts'],
    checks: ['cap.positions', 'cap.unlimited-positions'],
  },
  {
    what: 'open-order and position caps before matching; limit_exceeded with the cap in every form',
    modules: ['matching-engine.ts', 'orders.ts', 'handlers/order.ts', 'handlers/bulk.ts'],
    checks: ['cap.open-orders', 'cap.positions'],
  },
  {
    what: 'POST /order: ACKED / REJECTED with a reason',
    modules: ['handlers/order.ts', 'orders.ts'],
    checks: ['auth.direct-order', 'err.rejected-reason'],
  },
  {
    what: 'route omitted: best_execution, the short struct, a deprecation header',
    modules: ['handlers/order.ts', 'orders.ts'],
    checks: ['route.omitted'],
  },
  {
    what: 'DELETE /order by order id or client id',
    modules: ['handlers/order.ts', 'orders.ts'],
    checks: ['vectors.cancel', 'mutate.cancel-order', 'mutate.cancel-order-by-client-id'],
  },
  {
    what: 'bulk endpoints: item by item, one wallet, maximum batch',
    modules: ['handlers/bulk.ts'],
    checks: ['bulk.max-batch', 'rl.remaining', 'rl.headers'],
  },
  {
    what: 'GET /orderbook: the JSON-RPC envelope; any unlisted symbol 13020; a missing symbol 400',
    modules: ['handlers/read.ts', 'symbols.ts'],
    checks: ['err.orderbook-missing', 'err.orderbook-unlisted'],
  },
  {
    what: 'GET /orders and GET /authorized-agents',
    modules: ['handlers/read.ts', 'handlers/agents.ts', 'order-types.ts'],
    checks: ['perp.agent-account', 'auth.agent-order'],
  },
  { what: 'GET /health', modules: ['handlers/read.ts'], checks: ['ops.health'] },
  { what: 'WebSocket order updates', modules: ['ws.ts', 'ws-broadcast.ts'], checks: ['ws.order-updates'] },
  {
    what: 'perp Agent signatures under Exchange/1/1337, source a/b, vault flag, expiresAfter',
    modules: ['perp/exchange.ts'],
    checks: [
      'perp.order-accepted',
      'perp.chain-id-999',
      'perp.options-domain',
      'perp.testnet-source',
      'perp.vault-unsigned',
      'vectors.perp-agent',
    ],
  },
  {
    what: 'perp actions hashed in the venue key order, integers exactly',
    modules: ['canonical.ts', 'perp/exact.ts'],
    checks: ['perp.key-order', 'perp.action-changed', 'perp.exact-integers'],
  },
  {
    what: 'perp account: vaultAddress, else the one approving wallet, several refused, else the signer; unknown signers refused',
    modules: ['perp/account.ts'],
    checks: ['perp.agent-account', 'perp.agent-several-wallets', 'perp.replay'],
  },
  {
    what: "perp refusals in the venue's envelope",
    modules: ['perp/envelope.ts', 'perp/exchange.ts'],
    checks: ['perp.chain-id-999', 'perp.replay'],
  },
  {
    what: 'perp order, cancel, cancelByCloid; Alo post-only',
    modules: ['perp/actions.ts'],
    checks: ['perp.order-accepted', 'perp.alo-post-only', 'perp.exact-integers'],
  },
  {
    what: "POST /info in the venue's shapes",
    modules: ['perp/info.ts', 'perp/info-answers.ts'],
    checks: ['perp.info-meta', 'perp.info-sdk-reads'],
  },
  {
    what: 'price-time priority matching, ioc / fok fills, rfq_only rejected, positions from fills',
    modules: ['matching-engine.ts', 'decimal.ts'],
    checks: [],
    reference:
      'order lifecycle and execution are "not shown" in the seed: another server may match differently; the reference server is held to it by test/server/matching.test.ts and book-model.test.ts',
  },
  {
    what: 'seams, configuration, clock and start-up',
    modules: ['deps.ts', 'clock.ts', 'server.ts', 'index.ts', 'handlers/types.ts', 'context.ts', 'config.ts'],
    checks: [],
    reference: 'how the reference server is built and configured, not behaviour on the wire',
  },
  {
    what: 'state kept across restarts with --data (LMDB), finished orders archived, --retain in memory',
    modules: ['archive.ts', 'persist/data-dir.ts', 'persist/kv.ts', 'persist/lock.ts', 'persist/header.ts', 'persist/verify.ts'],
    checks: [],
    reference:
      'persistence and retention are how this server runs as a sandbox, not behaviour the seed states; held to them by test/server/persistence.test.ts, store-guard.test.ts, full-disk.test.ts and retain.test.ts',
  },
  {
    what: 'connection cap, header and body timeouts (408), oversized headers (431), graceful SIGTERM (refused, never reset)',
    modules: ['connections.ts', 'listen-filter.ts'],
    checks: [],
    reference:
      "transport limits are the operator's choice, not the contract; held to them by test/server/connections.test.ts, shutdown.test.ts and shutdown-reconnect.test.ts",
  },
]
