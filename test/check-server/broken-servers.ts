/**
 * Deliberately broken servers, one per rule family, each built from the reference server by
 * swapping one `ServerDeps` seam or a config value, or by putting a rewriting HTTP proxy in
 * front of it. Every one runs on loopback with a SimulatedClock the runner advances.
 */
import http from 'node:http'
import { isLosslessNumber, parse as losslessParse, stringify as losslessStringify } from 'lossless-json'
import type { DomainOverrides, OptionsMessage } from '../../src/signing/index.ts'
import { hashTypedData } from 'viem'
import { recoverSignature } from '../../src/signing/signature.ts'
import { contract, optionsDomain, recoverPerpSigner, verifyOptions } from '../helpers/shipped.ts'
import { positionsSetup, unlimitedSetup } from '../../src/check/server/runner.ts'
import type { CheckSelector } from '../../src/check/server/registry.ts'
import { shippedContract } from '../../src/contract/index.ts'
import {
  DEFAULT_INSTRUMENTS,
  SimulatedClock,
  createAgentStore,
  createRateLimiter,
  startServer,
  defaultConfig,
  type ServerConfig,
  type ServerDeps,
  type RateLimiter,
} from '../../src/server/index.ts'

export interface Target {
  readonly url: string
  readonly clock: SimulatedClock
  readonly symbols: readonly string[]
  /** Wallets of a known tier the server was configured with. */
  readonly tierWallets?: { privateKey: `0x${string}`; tier: string }[]
  close(): Promise<void>
}

export async function reference(config: Partial<ServerConfig> = {}, deps: Partial<ServerDeps> = {}): Promise<Target> {
  const clock = new SimulatedClock(Date.UTC(2026, 0, 5, 12, 0, 0))
  const server = await startServer({ config: { ...config, log: false }, deps: { clock, ...deps } })
  return { url: server.url, clock, symbols: server.config.instruments, close: () => server.close() }
}

// ---------------------------------------------------------------- proxy

export interface ProxyRequest {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  body: string
}
export interface ProxyResponse {
  status: number
  headers: Record<string, string>
  body: string
}
interface Rewrite {
  /** Write the body after the headers of a HEAD response too (as a raw socket write). */
  headBody?: boolean
  /** Change the request, or answer it directly (at once, or after an `await`). */
  request?(req: ProxyRequest): ProxyRequest | ProxyResponse | Promise<ProxyRequest | ProxyResponse>
  response?(req: ProxyRequest, res: ProxyResponse): ProxyResponse
}

function isResponse(x: ProxyRequest | ProxyResponse): x is ProxyResponse {
  return 'status' in x
}

/** A limiter that charges a k-item batch as one order (or one cancel): the real one, capped at 1 per charge. */
export function batchCountedOnce(): RateLimiter {
  const real = createRateLimiter(60)
  return {
    charge: (w, cost, limits, now) =>
      real.charge(w, Object.fromEntries(Object.entries(cost).map(([k, n]) => [k, Math.min(n ?? 0, 1)])), limits, now),
    status: real.status,
  }
}

/** A proxy that answers 409 nonce_reused to any (wallet, nonce) it has already forwarded, whatever the outcome. */
export function nonceConsumedOnFailure(): Promise<Target> {
  const seen = new Set<string>()
  return proxied({
    request: (r) => {
      if (r.method !== 'POST' || r.path !== '/order') return r
      let key: string | undefined
      rewriteObjects(r.body, (o) => {
        if (typeof o.wallet === 'string' && o.nonce !== undefined) key = `${o.wallet.toLowerCase()}:${String(o.nonce)}`
      })
      if (key === undefined) return r
      if (seen.has(key)) return jsonResponse(409, { code: 'nonce_reused', message: 'nonce already used' })
      seen.add(key)
      return r
    },
  })
}

/** An HTTP proxy in front of a correct reference server that rewrites requests and responses. */
export async function proxied(rewrite: Rewrite, config: Partial<ServerConfig> = {}): Promise<Target> {
  const upstream = await reference(config)
  const base = new URL(upstream.url)
  const agent = new http.Agent({ keepAlive: true })
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const incoming: ProxyRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      const changed = rewrite.request ? await rewrite.request(incoming) : incoming
      const reply = (r: ProxyResponse) => {
        const out = rewrite.response ? rewrite.response(incoming, r) : r
        if (req.method === 'HEAD' && rewrite.headBody) {
          // Node never sends a body after HEAD; a broken server does, written straight onto the socket.
          const body = out.body || '{"code":"not_found","message":"no such path"}'
          const head = [
            `HTTP/1.1 ${out.status} X`,
            ...Object.entries(out.headers).map(([k, v]) => `${k}: ${v}`),
            `content-length: ${Buffer.byteLength(body)}`,
            'connection: close',
          ]
          req.socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
          return
        }
        res.writeHead(out.status, { ...out.headers, 'content-length': String(Buffer.byteLength(out.body)) })
        res.end(req.method === 'HEAD' ? undefined : out.body)
      }
      if (isResponse(changed)) return reply(changed)
      const headers = { ...changed.headers, host: base.host, 'content-length': String(Buffer.byteLength(changed.body)) }
      delete headers['transfer-encoding']
      // A kept-alive socket the upstream closed as this request went out fails at once: sent
      // again on a fresh socket, as a client library does, so the proxy adds no failure of its own.
      const send = (retry: boolean) => {
        const up = http.request(
          { host: base.hostname, port: base.port, method: changed.method, path: changed.path, headers, agent },
          (ur) => {
            const body: Buffer[] = []
            ur.on('data', (c: Buffer) => body.push(c))
            ur.on('end', () => {
              const h: Record<string, string> = {}
              for (const [k, v] of Object.entries(ur.headers))
                if (v !== undefined && k !== 'content-length' && k !== 'connection' && k !== 'keep-alive')
                  h[k] = Array.isArray(v) ? v.join(', ') : v
              reply({ status: ur.statusCode ?? 502, headers: h, body: Buffer.concat(body).toString('utf8') })
            })
          },
        )
        up.on('error', () => {
          if (retry && up.reusedSocket) return send(false)
          reply({
            status: 502,
            headers: { 'content-type': 'application/json' },
            body: '{"code":"bad_gateway","message":"upstream failed"}',
          })
        })
        up.end(changed.body)
      }
      send(true)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    clock: upstream.clock,
    symbols: upstream.symbols,
    async close() {
      agent.destroy()
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
      await upstream.close()
    },
  }
}

export const jsonResponse = (status: number, body: unknown): ProxyResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

/** Applies `f` to every object in a lossless parse of the body (items of bulk bodies included). */
export function rewriteObjects(text: string, f: (o: Record<string, unknown>) => void): string {
  let doc: unknown
  try {
    doc = losslessParse(text)
  } catch {
    return text
  }
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object' && !isLosslessNumber(v)) {
      f(v as Record<string, unknown>)
      Object.values(v).forEach(walk)
    }
  }
  try {
    walk(doc)
    return losslessStringify(doc) ?? text
  } catch {
    // Nesting deeper than the stack: forwarded untouched, the server behind answers it.
    return text
  }
}

// ---------------------------------------------------------------- verifier seams

type Verify = typeof verifyOptions

/** A verifier that, when the signer is not the wallet, also tries other domains: a server that ignores part of the domain. */
function lenientDomains(candidates: DomainOverrides[]): Verify {
  return (kind, message, signature, opts = {}) => {
    const first = verifyOptions(kind, message, signature, opts)
    const wallet = typeof message.wallet === 'string' ? message.wallet.toLowerCase() : undefined
    if (!first.ok || wallet === undefined || first.signer.toLowerCase() === wallet) return first
    for (const d of candidates) {
      const r = verifyOptions(kind, message, signature, { ...opts, domain: { ...opts.domain, ...d } })
      if (r.ok && r.signer.toLowerCase() === wallet) return r
    }
    return first
  }
}

function withMessage(f: (kind: string, m: OptionsMessage) => OptionsMessage): Verify {
  return (kind, message, signature, opts) => verifyOptions(kind, f(kind, message), signature, opts)
}

/** Strips trailing zeros: "100.0" → "100", "1.50" → "1.5". */
const normalize = (s: string) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s)

// ---------------------------------------------------------------- the broken servers

/** POST /order's 200 body without its `status`: it no longer says whether the order was taken. */
const withoutOrderStatus: ServerDeps['transformReply'] = (r, rc) => {
  if (rc.operationId !== 'placeOrder' || r.status !== 200) return r
  const { status: _s, ...rest } = r.body as Record<string, unknown>
  return { ...r, body: rest }
}

/** Post-only ignored: after the signature is checked, every `Alo` order of the action is read as `Gtc`. */
function aloAsGtc(action: unknown): void {
  const orders = (action as { orders?: unknown } | undefined)?.orders
  if (!Array.isArray(orders)) return
  for (const o of orders) {
    const limit = (o as { t?: { limit?: { tif?: unknown } } }).t?.limit
    if (limit?.tif === 'Alo') limit.tif = 'Gtc'
  }
}

/** Drops the X-RateLimit-* headers from replies with one of these statuses. */
function withoutRateHeadersOn(statuses: readonly number[]): ServerDeps['transformReply'] {
  return (reply) =>
    statuses.includes(reply.status)
      ? { ...reply, headers: Object.fromEntries(Object.entries(reply.headers).filter(([k]) => !/^x-ratelimit-/i.test(k))) }
      : reply
}

const isCapRefusal = (v: unknown): v is Record<string, unknown> & { message?: unknown } =>
  (v as { code?: unknown } | null)?.code === 'limit_exceeded'

/** Drops `error` and `message` from every cap refusal: the 422 body (answered as `as`) and bulk slots. */
function capRefusalsWithout(as: 'http' | 'rejected', only: 'single' | 'slots'): ServerDeps['transformReply'] {
  const strip = ({ error: _e, message: _m, ...rest }: Record<string, unknown>) => rest
  return (reply) => {
    const body = reply.body as { results?: unknown[]; message?: unknown } | undefined
    if (only === 'single' && isCapRefusal(body)) {
      return as === 'http' ? { ...reply, body: strip(body) } : { ...reply, status: 200, body: { status: 'REJECTED', reason: body.message } }
    }
    if (only === 'slots' && Array.isArray(body?.results))
      return { ...reply, body: { ...body, results: body.results.map((s) => (isCapRefusal(s) ? strip(s) : s)) } }
    return reply
  }
}

export interface BrokenServer {
  readonly name: string
  /** How it is broken, in one line. */
  readonly how: string
  /** The check that must fail. */
  readonly caughtBy: CheckSelector
  /** The outcome it gets: 'fail' (a stated rule), or 'warn' for an assumed one. */
  readonly outcome?: 'fail' | 'warn'
  /** Checks to run (a subset keeps the suite fast). */
  readonly only: readonly CheckSelector[]
  start(): Promise<Target>
}

export const BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'number price accepted',
    how: 'a proxy turns JSON-number size/price into strings before the server sees them',
    caughtBy: 'auth.number-price',
    only: ['auth.number-price', 'mutate.place-order/price.type-number', 'mutate.place-order/size.type-number'],
    start: () =>
      proxied({
        request: (r) => ({
          ...r,
          body: rewriteObjects(r.body, (o) => {
            for (const k of ['size', 'price']) if (isLosslessNumber(o[k])) o[k] = String(o[k])
          }),
        }),
      }),
  },
  {
    name: 'chain ID ignored',
    how: 'the verifier also accepts signatures under chain IDs 1, 998 and 1337',
    caughtBy: 'auth.chain-id',
    only: ['auth.chain-id'],
    start: () => reference({}, { verifyOptions: lenientDomains([{ chainId: 1 }, { chainId: 998 }, { chainId: 1337 }]) }),
  },
  {
    name: 'nonce reuse allowed',
    how: 'the nonce store never remembers a nonce',
    caughtBy: 'nonce.reuse-after-success',
    only: ['nonce.reuse-after-success'],
    start: () => reference({}, { nonces: { has: () => false, consume: () => {} } }),
  },
  {
    name: 'nonce consumed on failure',
    how: 'a proxy answers 409 nonce_reused to any (wallet, nonce) it has already forwarded, whatever the outcome',
    caughtBy: 'nonce.retry-after-failure',
    only: ['nonce.retry-after-failure'],
    start: nonceConsumedOnFailure,
  },
  {
    name: 'agent not checked',
    how: 'every signer counts as an approved agent of every wallet',
    caughtBy: 'auth.unapproved-agent',
    only: ['auth.unapproved-agent'],
    start: () => {
      const agents = createAgentStore()
      return reference({}, { agents: { ...agents, isApproved: () => true } })
    },
  },
  {
    name: 'revoke ignored',
    how: 'POST /revoke-agent answers "revoked" but the approval stays',
    caughtBy: 'auth.agent-revoke',
    only: ['auth.agent-revoke'],
    start: () => {
      const agents = createAgentStore()
      return reference({}, { agents: { ...agents, revoke: (owner, agent) => agents.isApproved(owner, agent) } })
    },
  },
  {
    name: 'route struct wrong when omitted',
    how: 'an order without route is verified as the 9-field PlaceOrder with route best_execution',
    caughtBy: 'route.omitted',
    only: ['route.omitted'],
    start: () =>
      reference(
        {},
        {
          verifyOptions: withMessage((kind, m) => (kind === 'PlaceOrder' && m.route === undefined ? { ...m, route: 'best_execution' } : m)),
        },
      ),
  },
  {
    name: 'decimal strings normalized before verifying',
    how: 'size and price are normalized ("100.0" → "100") before the signature is checked',
    caughtBy: 'auth.string-format',
    only: ['auth.string-format'],
    start: () =>
      reference(
        {},
        {
          verifyOptions: withMessage((kind, m) =>
            kind === 'PlaceOrder' ? { ...m, size: normalize(String(m.size)), price: normalize(String(m.price)) } : m,
          ),
        },
      ),
  },
  {
    name: '61 orders allowed',
    how: 'the Default tier allows 61 orders per minute',
    caughtBy: 'rl.order-limit',
    only: ['rl.order-limit'],
    start: () => {
      const tiers = structuredClone(defaultConfig(contract).tiers)
      tiers.default = { ...tiers.default!, ordersPerMinute: 61 }
      return reference({ tiers })
    },
  },
  {
    name: 'categories shared',
    how: 'cancels are counted in the order category',
    caughtBy: 'rl.categories',
    only: ['rl.categories'],
    start: () => {
      const real = createRateLimiter(60)
      const shared: RateLimiter = {
        charge: (w, cost, limits, now) =>
          real.charge(w, { ...cost, orders: (cost.orders ?? 0) + (cost.cancels ?? 0), cancels: 0 }, limits, now),
        status: (w, category, limit, now) =>
          category === 'cancels' ? real.status(w, 'orders', limit, now) : real.status(w, category, limit, now),
      }
      return reference({}, { rateLimiter: shared })
    },
  },
  {
    name: 'headers missing',
    how: 'X-RateLimit-* headers are dropped from error responses',
    caughtBy: 'rl.headers',
    only: ['rl.headers'],
    start: () =>
      reference(
        {},
        {
          transformReply: (reply) => {
            if (reply.status < 400) return reply
            const headers = Object.fromEntries(Object.entries(reply.headers).filter(([k]) => !/^x-ratelimit-/i.test(k)))
            return { ...reply, headers }
          },
        },
      ),
  },
  {
    name: 'Retry-After missing',
    how: 'the 429 has no Retry-After header',
    caughtBy: 'rl.order-limit',
    only: ['rl.order-limit'],
    start: () =>
      reference(
        {},
        {
          transformReply: (reply) => ({
            ...reply,
            headers: Object.fromEntries(Object.entries(reply.headers).filter(([k]) => k.toLowerCase() !== 'retry-after')),
          }),
        },
      ),
  },
  {
    name: 'batch counted once',
    how: 'a k-item batch is charged as one order (or one cancel)',
    caughtBy: 'rl.remaining',
    only: ['rl.remaining'],
    start: () => reference({}, { rateLimiter: batchCountedOnce() }),
  },
  {
    name: 'cap ignored',
    how: 'the open-order cap is never enforced',
    caughtBy: 'cap.open-orders',
    only: ['cap.open-orders'],
    start: () => {
      const tiers = structuredClone(defaultConfig(contract).tiers)
      tiers.default = { ...tiers.default!, maxOpenOrders: 1_000_000 }
      return reference({ tiers })
    },
  },
  {
    name: 'positions cap ignored',
    how: 'the positions cap of the Tier 1 wallet is never enforced',
    caughtBy: 'cap.positions',
    only: ['cap.positions'],
    start: async () => {
      const setup = positionsSetup(shippedContract(), DEFAULT_INSTRUMENTS)
      const tiers = Object.fromEntries(
        Object.entries(defaultConfig(contract).tiers).map(([id, t]) => [
          id,
          { ...t, maxPositions: t.maxPositions > 0 ? 1_000_000 : t.maxPositions },
        ]),
      )
      // The runner still believes the spec's cap; the server enforces none.
      const t = await reference({ tiers, instruments: setup.instruments, walletTiers: setup.walletTiers })
      return { ...t, tierWallets: [setup.wallet] }
    },
  },
  {
    name: 'max positions -1 read as a cap',
    how: 'the market-maker tier (max positions -1) is capped at 20 positions',
    caughtBy: 'cap.unlimited-positions',
    only: ['cap.unlimited-positions'],
    start: async () => {
      const setup = positionsSetup(shippedContract(), DEFAULT_INSTRUMENTS)
      const unlimited = unlimitedSetup(shippedContract())!
      const tiers = Object.fromEntries(
        Object.entries(defaultConfig(contract).tiers).map(([id, t]) => [
          id,
          { ...t, maxPositions: t.maxPositions === -1 ? 20 : t.maxPositions },
        ]),
      )
      const t = await reference({ tiers, instruments: setup.instruments, walletTiers: unlimited.walletTiers })
      return { ...t, tierWallets: [unlimited.wallet] }
    },
  },
  {
    name: 'a refused batch consumes budget',
    how: 'a batch that would cross the order limit is refused but still uses up the window',
    caughtBy: 'rl.batch-crossing',
    outcome: 'warn',
    only: ['rl.batch-crossing'],
    start: () => {
      const real = createRateLimiter(60)
      return reference(
        {},
        {
          rateLimiter: {
            charge(w, cost, limits, now) {
              const r = real.charge(w, cost, limits, now)
              if (!r.ok) {
                // Charge what still fits before refusing: the refused batch eats the rest of the window.
                const left = real.status(w, r.category, limits[r.category], now).remaining
                if (left > 0) real.charge(w, { [r.category]: left }, limits, now)
              }
              return r
            },
            status: real.status,
          },
        },
      )
    },
  },
  {
    name: 'orderbook 404 instead of 13020',
    how: 'a proxy turns the JSON-RPC 13020 envelope into HTTP 404 not_found',
    caughtBy: 'err.orderbook-missing',
    only: ['err.orderbook-missing'],
    start: () =>
      proxied({
        response: (req, res) => {
          if (!req.path.startsWith('/orderbook') || !res.body.includes('13020')) return res
          return jsonResponse(404, { code: 'not_found', message: 'no such instrument' })
        },
      }),
  },
  {
    name: 'HEAD answered with a body',
    how: 'a proxy writes the GET body after the headers of HEAD responses',
    caughtBy: 'err.head',
    only: ['err.head'],
    start: () => proxied({ headBody: true }),
  },
  {
    name: 'error body without code',
    how: 'error bodies carry only message (and the legacy error field)',
    caughtBy: 'err.body-shape',
    only: ['err.body-shape'],
    start: () =>
      reference(
        {},
        {
          transformReply: (reply) => {
            if (reply.status < 400 || !reply.body || typeof reply.body !== 'object') return reply
            const { code: _code, ...rest } = reply.body as Record<string, unknown>
            return { ...reply, body: rest }
          },
        },
      ),
  },
  {
    name: 'nonce precision lost',
    how: 'a proxy re-serializes bodies through JSON.parse, rounding nonces to doubles',
    caughtBy: 'nonce.precision-2p53',
    only: ['nonce.precision-2p53', 'nonce.uint64-max'],
    start: () =>
      proxied({
        request: (r) => {
          try {
            return { ...r, body: r.body ? JSON.stringify(JSON.parse(r.body)) : r.body }
          } catch {
            return r
          }
        },
      }),
  },
  {
    name: 'domain name ignored',
    how: 'the verifier also accepts the perp name and case variants of the domain name',
    caughtBy: 'auth.domain',
    only: ['auth.domain'],
    start: () => reference({}, { verifyOptions: lenientDomains([{ name: 'Exchange' }, { name: 'service' }, { name: 'SERVICE' }]) }),
  },
  {
    name: 'client ID not covered by the signature',
    how: 'the server verifies PlaceOrder with clientId left empty, whatever client_id says',
    caughtBy: 'auth.client-id-signed',
    only: ['auth.client-id-signed'],
    start: () => reference({}, { verifyOptions: withMessage((kind, m) => (kind === 'PlaceOrder' ? { ...m, clientId: '' } : m)) }),
  },
  {
    name: '5xx on malformed JSON',
    how: 'a proxy answers 500 internal_error to a body that is not JSON',
    caughtBy: 'robust.malformed',
    only: ['robust.malformed'],
    start: () =>
      proxied({
        request: (r) => {
          if (!r.body) return r
          try {
            JSON.parse(r.body)
            return r
          } catch {
            return jsonResponse(500, { code: 'internal_error', message: 'Unexpected token in JSON' })
          }
        },
      }),
  },
  {
    name: 'perp verified under chainId 999',
    how: 'perp Agent signatures are recovered under chainId 999 instead of 1337',
    caughtBy: 'perp.chain-id-999',
    only: ['perp.chain-id-999', 'perp.order-accepted'],
    start: () =>
      reference(
        {},
        {
          recoverPerpSigner: (input, sig, opts = {}) =>
            recoverPerpSigner(input, sig, { ...opts, domain: { ...opts.domain, chainId: 999 } }),
        },
      ),
  },
  {
    name: 'perp signatures cached',
    how: 'a perp signature that once recovered is trusted again for any message (a cache keyed by r and s)',
    caughtBy: 'perp.replay',
    only: ['perp.replay', 'perp.order-accepted'],
    start: () => {
      const seen = new Map<string, ReturnType<typeof recoverPerpSigner>>()
      return reference(
        {},
        {
          recoverPerpSigner: (input, sig, opts) => {
            const key = `${sig.r}:${sig.s}`
            const hit = seen.get(key)
            if (hit) return hit
            const r = recoverPerpSigner(input, sig, opts)
            if (r.ok) seen.set(key, r)
            return r
          },
        },
      )
    },
  },
  {
    name: 'perp refusals as HTTP errors',
    how: 'POST /exchange refuses with HTTP 401 {code, message} instead of the venue envelope, so the venue SDKs see a transport failure',
    caughtBy: 'perp.chain-id-999',
    outcome: 'warn',
    only: ['perp.chain-id-999'],
    start: () =>
      reference(
        {},
        {
          transformReply: (reply, rc) => {
            const body = reply.body as { status?: unknown; response?: unknown } | undefined
            if (rc.path !== '/exchange' || body?.status !== 'err') return reply
            return { ...reply, status: 401, body: { code: 'signature_verification_failed', message: body.response } }
          },
        },
      ),
  },
  {
    name: 'perp agent books to itself',
    how: "an approved agent's perp order without vaultAddress is booked to the agent, not to the wallet that approved it",
    caughtBy: 'perp.agent-account',
    outcome: 'warn',
    only: ['perp.agent-account'],
    start: () => {
      const agents = createAgentStore()
      return reference({}, { agents: { ...agents, owners: () => [] } })
    },
  },
  {
    name: 'perp integers as doubles',
    how: 'action integers go through a JS number before hashing, so o = 2^53+1 hashes as 2^53',
    caughtBy: 'perp.exact-integers',
    outcome: 'warn',
    only: ['perp.exact-integers'],
    start: () => {
      const rounded = (v: unknown): unknown =>
        typeof v === 'bigint'
          ? BigInt(Number(v)) === v
            ? v
            : BigInt(Number(v))
          : Array.isArray(v)
            ? v.map(rounded)
            : v && typeof v === 'object'
              ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)]))
              : v
      return reference(
        {},
        { recoverPerpSigner: (input, sig, opts) => recoverPerpSigner({ ...input, action: rounded(input.action) }, sig, opts) },
      )
    },
  },
  {
    name: 'no POST /info',
    how: 'POST /info answers every request with an empty object, so an SDK cannot map a name to an asset index',
    caughtBy: 'perp.info-meta',
    outcome: 'warn',
    only: ['perp.info-meta'],
    start: () => reference({}, { transformReply: (reply, rc) => (rc.path === '/info' ? { ...reply, status: 200, body: {} } : reply) }),
  },
  {
    name: 'high-s accepted',
    how: 'malleable (high-s) signatures are accepted',
    caughtBy: 'auth.signature-encoding',
    outcome: 'warn',
    only: ['auth.signature-encoding'],
    start: () => reference({}, { verifyOptions: (kind, m, sig, opts = {}) => verifyOptions(kind, m, sig, { ...opts, allowHighS: true }) }),
  },
  {
    name: 'verified signatures cached',
    how: 'the verifier remembers each signature it verified and answers the same signer for any message under it',
    caughtBy: 'auth.replay',
    only: ['auth.replay'],
    start: () => {
      const seen = new Map<string, ReturnType<Verify>>()
      return reference(
        {},
        {
          verifyOptions: (kind, m, sig, opts) => {
            const hit = seen.get(sig)
            if (hit) return hit
            const r = verifyOptions(kind, m, sig, opts)
            if (r.ok) seen.set(sig, r)
            return r
          },
        },
      )
    },
  },
  {
    name: 'no deprecation notice',
    how: 'an order without route carries no header that the same order with route lacks',
    caughtBy: 'route.omitted',
    only: ['route.omitted'],
    start: () =>
      reference(
        {},
        {
          transformReply: (r) => ({
            ...r,
            headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => !['deprecation', 'sunset'].includes(k.toLowerCase()))),
          }),
        },
      ),
  },
  {
    name: 'deprecation notice under its own name',
    how: 'the route-omitted notice is an X-Route-Deprecated header (present only then, but not a name the toolkit assumed)',
    caughtBy: 'route.omitted',
    outcome: 'warn',
    only: ['route.omitted'],
    start: () =>
      reference(
        {},
        {
          transformReply: (r) => {
            if (r.headers.Deprecation === undefined) return r
            const { Deprecation: _d, Sunset: _s, ...rest } = r.headers
            return { ...r, headers: { ...rest, 'X-Route-Deprecated': 'true' } }
          },
        },
      ),
  },
  {
    name: 'number price refused as invalid_field',
    how: 'a JSON-number size or price gets 400 invalid_field instead of the stated signature failure',
    caughtBy: 'auth.number-price',
    outcome: 'warn',
    only: ['auth.number-price'],
    start: () =>
      proxied({
        request: (r) => {
          let number = false
          rewriteObjects(r.body, (o) => {
            if (isLosslessNumber(o.size) || isLosslessNumber(o.price)) number = true
          })
          return number ? jsonResponse(400, { code: 'invalid_field', message: 'invalid field "price": must be string' }) : r
        },
      }),
  },
  {
    name: 'order result without status',
    how: 'POST /order answers 200 with the order id but no status',
    caughtBy: 'auth.direct-order',
    only: ['auth.direct-order'],
    start: () => reference({}, { transformReply: withoutOrderStatus }),
  },
  {
    name: 'order result without status, replayed vectors',
    how: 'POST /order answers 200 with the order id but no status; a valid vector is not thereby accepted',
    caughtBy: 'vectors.place-order-valid',
    only: ['vectors.place-order-valid'],
    start: () => reference({}, { transformReply: withoutOrderStatus }),
  },
  {
    name: 'REJECTED without reason',
    how: 'a REJECTED order result carries no reason',
    caughtBy: 'err.rejected-reason',
    only: ['err.rejected-reason'],
    start: () =>
      reference(
        {},
        {
          transformReply: (r, rc) => {
            if (rc.operationId !== 'placeOrder' || (r.body as { status?: unknown } | undefined)?.status !== 'REJECTED') return r
            const { reason: _r, ...rest } = r.body as Record<string, unknown>
            return { ...r, body: rest }
          },
        },
      ),
  },
  {
    name: 'orderbook 400 for a malformed symbol',
    how: 'GET /orderbook of a symbol outside the grammar gets 400 invalid_field instead of the 13020 envelope',
    caughtBy: 'err.orderbook-unlisted',
    outcome: 'warn',
    only: ['err.orderbook-unlisted'],
    start: () =>
      proxied({
        request: (r) => {
          if (!r.path.startsWith('/orderbook')) return r
          const symbol = new URL(r.path, 'http://x').searchParams.get('symbol')
          return symbol !== null && !/^[A-Z0-9]+-[0-9]{8}-[0-9.]+-[CP]$/.test(symbol)
            ? jsonResponse(400, { code: 'invalid_field', message: 'invalid query parameter "symbol"' })
            : r
        },
      }),
  },
  {
    name: 'CancelOrder nonce hashed as uint256',
    how: 'CancelOrder is verified with its nonce typed uint256 instead of uint64',
    caughtBy: 'vectors.struct-mismatch',
    only: ['vectors.struct-mismatch'],
    start: () =>
      reference(
        {},
        {
          verifyOptions: (kind, m, sig, opts = {}) => {
            if (kind !== 'CancelOrder') return verifyOptions(kind, m, sig, opts)
            const types = {
              CancelOrder: [
                { name: 'wallet', type: 'address' },
                { name: 'orderId', type: 'string' },
                { name: 'nonce', type: 'uint256' },
              ],
            } as const
            const digest = hashTypedData({
              domain: optionsDomain(opts.domain),
              types,
              primaryType: 'CancelOrder',
              message: m as { wallet: `0x${string}`; orderId: string; nonce: bigint },
            })
            return recoverSignature(Buffer.from(digest.slice(2), 'hex'), sig, false)
          },
        },
      ),
  },
  {
    name: 'perp agent of several wallets booked to the first',
    how: 'an agent approved by two wallets that sends no vaultAddress trades for the first wallet that approved it',
    caughtBy: 'perp.agent-several-wallets',
    outcome: 'warn',
    only: ['perp.agent-several-wallets'],
    start: () => {
      const agents = createAgentStore()
      return reference({}, { agents: { ...agents, owners: (a) => agents.owners(a).slice(0, 1) } })
    },
  },
  {
    name: 'perp Alo crosses',
    how: 'an Alo order is executed as Gtc, so one that would cross fills',
    caughtBy: 'perp.alo-post-only',
    outcome: 'warn',
    only: ['perp.alo-post-only'],
    start: () =>
      reference(
        {},
        {
          recoverPerpSigner: (input, sig, opts) => {
            const r = recoverPerpSigner(input, sig, opts)
            aloAsGtc(input.action)
            return r
          },
        },
      ),
  },
  {
    name: 'orderbook 13020 without a symbol',
    how: 'GET /orderbook with no symbol parameter answers the 13020 envelope instead of 400 invalid_field',
    caughtBy: 'err.orderbook-unlisted',
    outcome: 'warn',
    only: ['err.orderbook-unlisted'],
    start: () =>
      proxied({
        request: (r) =>
          r.path === '/orderbook' ? jsonResponse(200, { jsonrpc: '2.0', result: null, error: { code: 13020, message: 'not_found' } }) : r,
      }),
  },
  {
    name: 'rate-limit headers missing on 413 and 415',
    how: 'the oversized-body and wrong-media-type refusals of rate-limited endpoints carry no X-RateLimit-* headers',
    caughtBy: 'rl.headers-refusals',
    only: ['rl.headers-refusals', 'rl.headers'],
    start: () => reference({}, { transformReply: withoutRateHeadersOn([413, 415]) }),
  },
  {
    name: 'cap refusal without error',
    how: 'the 422 of an order over the open-order cap has a code but neither the legacy error nor a message',
    caughtBy: 'cap.open-orders',
    only: ['cap.open-orders'],
    start: () => reference({}, { transformReply: capRefusalsWithout('http', 'single') }),
  },
  {
    name: 'cap refused as a bare REJECTED',
    how: 'an order over the open-order cap is 200 {status: REJECTED, reason} without error and message',
    caughtBy: 'cap.open-orders',
    only: ['cap.open-orders'],
    start: () => reference({}, { transformReply: capRefusalsWithout('rejected', 'single') }),
  },
  {
    name: 'bulk cap slot without error',
    how: 'a bulk item over the open-order cap gets a REJECTED slot with code and reason but no error and message',
    caughtBy: 'cap.open-orders/bulk-slot',
    only: ['cap.open-orders'],
    start: () => reference({}, { transformReply: capRefusalsWithout('http', 'slots') }),
  },
  {
    name: 'POST /info answers only meta',
    how: 'POST /info refuses every type but meta, spotMeta and perpDexs with 400, so an SDK that builds its asset map from metaAndAssetCtxs cannot start',
    caughtBy: 'perp.info-sdk-reads',
    outcome: 'warn',
    only: ['perp.info-sdk-reads'],
    start: () =>
      proxied({
        request: (r) => {
          if (r.path !== '/info') return r
          const type = (JSON.parse(r.body) as { type?: string }).type
          return ['meta', 'spotMeta', 'perpDexs'].includes(type ?? '')
            ? r
            : jsonResponse(400, { code: 'invalid_field', message: 'invalid field "type": must be one of "meta", "spotMeta", "perpDexs"' })
        },
      }),
  },
]
