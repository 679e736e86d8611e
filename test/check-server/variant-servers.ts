/**
 * Assumption-variant servers, the dual of the broken servers: each is the reference server with
 * one *other* reasonable choice where the seed is silent. A correct runner gives every one zero
 * failures (warnings are its way of saying "the toolkit assumed otherwise"). Each is built like
 * the broken servers: one `ServerDeps` seam, a config value, or a rewriting proxy in front.
 */
import { parse as losslessParse } from 'lossless-json'
import { positionsSetup, unlimitedSetup } from '../../src/check/server/runner.ts'
import { shippedContract } from '../../src/contract/index.ts'
import type { KnownErrorCode } from '../../src/contract/generated/errors.ts'
import type { OperationId } from '../../src/contract/generated/types.ts'
import { DEFAULT_INSTRUMENTS, createAgentStore, type RateLimiter, type ServerConfig, type ServerDeps } from '../../src/server/index.ts'
import type { Reply } from '../../src/server/reply.ts'
import { signed, signedOrder, call, post, placeOrder, wallet, type Res } from '../server/helpers.ts'
import { verifyOptions } from '../helpers/shipped.ts'
import { jsonResponse, proxied, reference, rewriteObjects, type ProxyRequest, type ProxyResponse, type Target } from './broken-servers.ts'

export interface VariantServer {
  readonly name: string
  /** The other choice it makes, in one line. */
  readonly how: string
  start(): Promise<Target>
  /** A request that shows the choice in effect (true), so a variant that silently fell back to the reference proves nothing. */
  effect(t: Target): Promise<boolean>
}

/** The reference server with the cap and unlimited-positions wallets a full run needs. */
async function full(config: Partial<ServerConfig> = {}, deps: Partial<ServerDeps> = {}): Promise<Target> {
  const positions = positionsSetup(shippedContract(), DEFAULT_INSTRUMENTS)
  const unlimited = unlimitedSetup(shippedContract())!
  const t = await reference(
    { instruments: positions.instruments, walletTiers: { ...positions.walletTiers, ...unlimited.walletTiers }, ...config },
    deps,
  )
  return { ...t, tierWallets: [positions.wallet, unlimited.wallet] }
}

async function fullProxied(rewrite: Parameters<typeof proxied>[0]): Promise<Target> {
  const positions = positionsSetup(shippedContract(), DEFAULT_INSTRUMENTS)
  const unlimited = unlimitedSetup(shippedContract())!
  const t = await proxied(rewrite, {
    instruments: positions.instruments,
    walletTiers: { ...positions.walletTiers, ...unlimited.walletTiers },
  })
  return { ...t, tierWallets: [positions.wallet, unlimited.wallet] }
}

const codeOf = (r: Reply): string | undefined => {
  const c = (r.body as { code?: unknown } | undefined)?.code
  return typeof c === 'string' ? c : undefined
}

/** A reply filter for the replies of some operations. */
function onReplies(ops: readonly OperationId[], f: (r: Reply) => Reply): ServerDeps['transformReply'] {
  return (reply, rc) => (rc.operationId !== undefined && (ops as readonly string[]).includes(rc.operationId) ? f(reply) : reply)
}

const OPTION_WRITES: readonly OperationId[] = [
  'placeOrder',
  'cancelOrder',
  'placeOrders',
  'replaceOrders',
  'cancelOrders',
  'cancelOrdersByClientId',
  'approveAgent',
  'revokeAgent',
]

/** The batch property of each bulk path and method. */
const BATCH: Readonly<Record<string, string>> = {
  'POST /bulk_order': 'orders',
  'PUT /bulk_order': 'replacements',
  'DELETE /bulk_order': 'cancels',
  'DELETE /bulk_order_cloid': 'cancels',
}

/** Codes of a whole-batch refusal that stay whole-batch refusals in every reading (transport, size, mixed wallets, limits). */
const WHOLE_BATCH: readonly KnownErrorCode[] = [
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
  'batch_too_large',
  'rate_limit_exceeded',
]

function allBadAsRejectedSlots(req: ProxyRequest, res: ProxyResponse): ProxyResponse {
  const prop = BATCH[`${req.method} ${req.path.split('?')[0]}`]
  if (!prop || res.status < 400 || res.status === 429) return res
  let body: { code?: string; message?: string }
  let items: unknown
  try {
    body = JSON.parse(res.body) as typeof body
    items = (losslessParse(req.body) as Record<string, unknown>)[prop]
  } catch {
    return res
  }
  if (!Array.isArray(items) || items.length === 0 || (WHOLE_BATCH as readonly string[]).includes(body.code ?? '')) return res
  if (typeof body.message === 'string' && body.message.includes('same wallet')) return res
  const slot = { status: 'REJECTED', reason: body.message ?? 'rejected' }
  const results = items.map(() => (prop === 'replacements' ? { cancel: slot, order: slot } : slot))
  return { status: 200, headers: res.headers, body: JSON.stringify({ results }) }
}

/** Body keys any options request may carry; a server that ignores the rest drops them before reading. */
const KNOWN_KEYS = new Set([
  'wallet',
  'symbol',
  'side',
  'size',
  'price',
  'tif',
  'route',
  'client_id',
  'nonce',
  'signature',
  'order_id',
  'agent',
  'orders',
  'replacements',
  'cancels',
  'cancel',
  'order',
])

const AGENT_PATHS = new Set(['/approve-agent', '/revoke-agent'])

/** Other words for the assumed codes; the stated `invalid_field` and `signature_verification_failed` stay. */
const RENAMED: Partial<Record<KnownErrorCode, string>> = {
  nonce_reused: 'nonce_already_used',
  not_found: 'no_such_resource',
  unauthorized: 'forbidden_signer',
  batch_too_large: 'too_many_items',
  invalid_json: 'malformed_json',
  payload_too_large: 'body_too_large',
  unsupported_media_type: 'bad_content_type',
  method_not_allowed: 'wrong_method',
  rate_limit_exceeded: 'too_many_requests',
  limit_exceeded: 'cap_reached',
}

/** Windows that start at a wallet's first request in a category, not at the epoch minute. */
function firstRequestWindows(windowSeconds: number): RateLimiter {
  const windowMs = windowSeconds * 1000
  const windows = new Map<string, { start: number; used: number }>()
  const current = (wallet: string, category: string, nowMs: number, open: boolean) => {
    const key = `${wallet}:${category}`
    let w = windows.get(key)
    if (w && nowMs >= w.start + windowMs) w = undefined
    if (!w) {
      w = { start: nowMs, used: 0 }
      if (open) windows.set(key, w)
    }
    return w
  }
  return {
    charge(wallet, cost, limits, nowMs) {
      const entries = Object.entries(cost).filter(([, n]) => (n ?? 0) > 0) as [keyof typeof limits, number][]
      for (const [cat, n] of entries) {
        const w = current(wallet, cat, nowMs, false)
        if (w.used + n > limits[cat]) return { ok: false, category: cat, limit: limits[cat], reset: (w.start + windowMs) / 1000 }
      }
      for (const [cat, n] of entries) current(wallet, cat, nowMs, true).used += n
      return { ok: true }
    },
    status(wallet, category, limit, nowMs) {
      const w = current(wallet, category, nowMs, false)
      return { limit, remaining: Math.max(0, limit - w.used), reset: (w.start + windowMs) / 1000 }
    },
  }
}

/** An order past the Default tier's open-order cap: 100 resting orders first, in windows of 50 (the order limit is 60). */
async function overCap(t: Target): Promise<Res> {
  const w = wallet()
  for (let i = 0; i < 100; i++) {
    if (i % 50 === 0) t.clock.advance(60_000)
    await placeOrder(t, w, { price: '1' })
  }
  return placeOrder(t, w, { price: '1' })
}

/** A batch of n valid orders of one wallet. */
async function batchOf(t: Target, n: number): Promise<Res> {
  const w = wallet()
  const items = await Promise.all(Array.from({ length: n }, () => signedOrder(w, { price: '1' })))
  return call(t, 'POST', '/bulk_order', `{"orders":[${items.join(',')}]}`)
}

export const VARIANT_SERVERS: readonly VariantServer[] = [
  {
    name: 'all-bad batch as REJECTED slots',
    how: 'a batch in which no item passes is answered 200 with every slot REJECTED, not refused as a whole',
    effect: async (t) => {
      const r = await post(t, '/bulk_order', `{"orders":[${await signedOrder(wallet(), {}, { chainId: 1 })}]}`)
      return r.status === 200 && r.json.results?.[0]?.status === 'REJECTED'
    },
    start: () => fullProxied({ response: allBadAsRejectedSlots }),
  },
  {
    name: '403 for every auth refusal',
    how: 'every signature refusal is 403 unauthorized with the Unauthorized message',
    effect: async (t) => (await post(t, '/order', await signedOrder(wallet(), {}, {}, wallet().key))).status === 403,
    start: () =>
      full(
        {},
        {
          transformReply: onReplies(OPTION_WRITES, (r) =>
            codeOf(r) === 'signature_verification_failed'
              ? {
                  ...r,
                  status: 403,
                  body: { ...(r.body as object), code: 'unauthorized', message: 'Unauthorized: signer not authorized for wallet' },
                }
              : r,
          ),
        },
      ),
  },
  {
    name: '401 for every auth refusal',
    how: 'every unauthorized signer is 401 signature_verification_failed with its stated message',
    effect: async (t) => {
      const known = wallet()
      await placeOrder(t, known)
      return (await post(t, '/order', await signedOrder(wallet(), {}, {}, known.key))).status === 401
    },
    start: () =>
      full(
        {},
        {
          transformReply: onReplies(OPTION_WRITES, (r) =>
            codeOf(r) === 'unauthorized'
              ? {
                  ...r,
                  status: 401,
                  body: { ...(r.body as object), code: 'signature_verification_failed', message: 'Signature verification failed' },
                }
              : r,
          ),
        },
      ),
  },
  {
    name: 'revoking an unknown agent answers 200',
    how: 'POST /revoke-agent of an agent that is not approved is a successful no-op',
    effect: async (t) => {
      const w = wallet()
      return (await post(t, '/revoke-agent', await signed('RevokeAgent', { agent: wallet().address, nonce: 1n }, w.key))).status === 200
    },
    start: () => {
      const agents = createAgentStore()
      return full({}, { agents: { ...agents, revoke: (owner, agent) => (agents.revoke(owner, agent), true) } })
    },
  },
  {
    name: 'caps refused with 200 REJECTED',
    how: 'an order over a cap is an HTTP 200 REJECTED result with error limit_exceeded, and a reason and message that state the cap',
    effect: async (t) => (await overCap(t)).status === 200,
    start: () =>
      full(
        {},
        {
          transformReply: onReplies(['placeOrder'], (r) =>
            codeOf(r) === 'limit_exceeded'
              ? { ...r, status: 200, body: { status: 'REJECTED', reason: (r.body as { message: string }).message, ...(r.body as object) } }
              : r,
          ),
        },
      ),
  },
  {
    name: 'caps refused with 403',
    how: 'an order over a cap gets 403 (error limit_exceeded, a message with the cap)',
    effect: async (t) => (await overCap(t)).status === 403,
    start: () => full({}, { transformReply: (r) => (codeOf(r) === 'limit_exceeded' ? { ...r, status: 403 } : r) }),
  },
  {
    name: 'other words for assumed codes',
    how: 'assumed codes have other names (nonce_already_used, too_many_items, ...); invalid_field, signature_verification_failed and every legacy error stay',
    effect: async (t) => (await post(t, '/order', '{')).json.code === 'malformed_json',
    start: () =>
      full(
        {},
        {
          transformReply: (r) => {
            const code = codeOf(r)
            const renamed = code !== undefined ? RENAMED[code as KnownErrorCode] : undefined
            return renamed ? { ...r, body: { ...(r.body as object), code: renamed } } : r
          },
        },
      ),
  },
  {
    name: 'deprecation header named Warning',
    how: 'an order without route carries `Warning: 299 - "route omitted"` instead of Deprecation and Sunset',
    effect: async (t) => {
      const r = await placeOrder(t, wallet(), { route: undefined })
      return r.headers.get('warning') !== null && r.headers.get('deprecation') === null
    },
    start: () =>
      full(
        {},
        {
          transformReply: (r) => {
            if (r.headers.Deprecation === undefined) return r
            const { Deprecation: _d, Sunset: _s, ...rest } = r.headers
            return { ...r, headers: { ...rest, Warning: '299 - "route omitted: send route, it may become required"' } }
          },
        },
      ),
  },
  {
    name: 'windows from the first request',
    how: "rate-limit windows start at a wallet's first request in a category, not at the epoch minute",
    effect: async (t) => {
      t.clock.advance(10_000)
      const r = await placeOrder(t, wallet())
      return Number(r.headers.get('x-ratelimit-reset')) % 60 !== 0
    },
    start: () => full({}, { rateLimiter: firstRequestWindows(60) }),
  },
  {
    name: 'v 0/1 refused',
    how: 'a signature whose v byte is 0 or 1 is refused (only 27/28 accepted)',
    effect: async (t) => {
      const body = await signedOrder(wallet())
      const raw = body.replace(
        /("signature":"0x[0-9a-f]{128})(1b|1c)"/,
        (_m, head: string, v: string) => `${head}${v === '1b' ? '00' : '01'}"`,
      )
      return raw !== body && (await post(t, '/order', raw)).status === 401
    },
    start: () =>
      full(
        {},
        {
          verifyOptions: (kind, m, sig, opts) =>
            /(00|01)$/i.test(sig) ? { ok: false, reason: 'bad_v', message: 'v must be 27 or 28' } : verifyOptions(kind, m, sig, opts),
        },
      ),
  },
  {
    name: 'unknown body fields ignored',
    how: 'fields an options request does not define are dropped before the body is read',
    effect: async (t) => (await post(t, '/order', (await signedOrder(wallet())).replace('{', '{"note":"x",'))).json.status === 'ACKED',
    start: () =>
      fullProxied({
        request: (r) =>
          r.path.startsWith('/exchange') || r.path.startsWith('/info')
            ? r
            : {
                ...r,
                body: rewriteObjects(r.body, (o) => {
                  for (const k of Object.keys(o)) if (!KNOWN_KEYS.has(k)) delete o[k]
                }),
              },
      }),
  },
  {
    name: 'wallet on approve-agent ignored',
    how: 'an extra `wallet` field on approve-agent and revoke-agent is ignored',
    effect: async (t) => {
      const w = wallet()
      const body = (await signed('ApproveAgent', { agent: wallet().address, nonce: 1n }, w.key)).replace('{', `{"wallet":"${w.address}",`)
      return (await post(t, '/approve-agent', body)).status === 200
    },
    start: () =>
      fullProxied({
        request: (r) =>
          AGENT_PATHS.has(r.path)
            ? {
                ...r,
                body: rewriteObjects(r.body, (o) => {
                  delete o.wallet
                }),
              }
            : r,
      }),
  },
  {
    name: 'self-approval accepted',
    how: 'a wallet approving itself as its own agent gets 200 approved (a harmless no-op)',
    effect: async (t) => {
      const w = wallet()
      return (await post(t, '/approve-agent', await signed('ApproveAgent', { agent: w.address, nonce: 1n }, w.key))).status === 200
    },
    start: () =>
      fullProxied({
        response: (req, res) => {
          if (req.path !== '/approve-agent' || res.status !== 400 || !res.body.includes('own agent')) return res
          let agent: unknown
          rewriteObjects(req.body, (o) => {
            agent ??= o.agent
          })
          return {
            ...jsonResponse(200, { wallet: agent, agent, status: 'approved' }),
            headers: { ...res.headers, 'content-type': 'application/json' },
          }
        },
      }),
  },
  {
    name: 'route required after the sunset',
    how: 'an order without route gets 400 invalid_field (the seed says it may become required)',
    effect: async (t) => (await placeOrder(t, wallet(), { route: undefined })).status === 400,
    start: () => full({ routeRequired: true }),
  },
  {
    name: 'maximum batch 20',
    how: 'the bulk endpoints take at most 20 items',
    effect: async (t) => (await batchOf(t, 21)).json.code === 'batch_too_large',
    start: () => full({ maxBatch: 20 }),
  },
  {
    name: 'maximum batch 100',
    how: 'the bulk endpoints take up to 100 items',
    effect: async (t) => (await batchOf(t, 51)).status === 200,
    start: () => full({ maxBatch: 100 }),
  },
  {
    name: 'unknown symbol refused with 400',
    how: 'an order in a well-formed symbol the server does not list gets 400 invalid_field, not 200 REJECTED',
    effect: async (t) => (await placeOrder(t, wallet(), { symbol: 'OECMISSING-20301231-1-C' })).status === 400,
    start: () =>
      full(
        {},
        {
          transformReply: onReplies(['placeOrder'], (r) => {
            const b = r.body as { status?: string; reason?: string } | undefined
            if (r.status !== 200 || b?.status !== 'REJECTED' || !b.reason?.startsWith('unknown instrument')) return r
            return { ...r, status: 400, body: { code: 'invalid_field', message: `invalid field "symbol": ${b.reason}` } }
          }),
        },
      ),
  },
]
