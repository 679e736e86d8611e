/**
 * Preflight of `oec check server --target URL`: a handful of requests before any case runs that
 * tell a wrong setup from a wrong server. A wrong base path, a host that answers 404 to
 * everything, an instrument the target does not list or a server signing under another domain
 * would otherwise fail a hundred cases for one reason; each is one line instead, naming the
 * likely cause and the flag that fixes it (exit 2). `--no-preflight` skips it.
 */
import type { FullContract } from '../../contract/index.ts'
import type { OperationId } from '../../contract/generated/types.ts'
import { PREFLIGHT_SKIP, PreflightError } from '../preflight-error.ts'
import type { PlaceOrderRequest } from '../../contract/generated/types.ts'
import type { BodyValue } from '../../signing/wire.ts'
import { HttpClient, type HttpExchange } from '../target/http.ts'
import { pathOf, route } from '../target/routes.ts'
import { signBody } from '../target/requests.ts'
import { walletFromKey } from '../target/wallets.ts'

export interface PreflightTarget {
  readonly url: string
  readonly domainName: string
  readonly chainId: number
  readonly symbols: readonly string[]
}

export interface PreflightOptions {
  readonly spec: FullContract
  readonly http: HttpClient
  readonly target: PreflightTarget
  /** The key of the wallet that places the one preflight order. */
  readonly privateKey: `0x${string}`
  readonly nonce: bigint
  readonly timeoutMs: number
  readonly headers?: Readonly<Record<string, string>> | undefined
}

const SKIP = PREFLIGHT_SKIP

function brief(e: HttpExchange): string {
  if (!e.response) return `no answer (${e.error ?? 'unknown error'})`
  const json = e.response.json as Record<string, unknown> | undefined
  const code = typeof json?.code === 'string' ? ` ${json.code}` : ''
  return `HTTP ${e.response.status}${code}`
}

function has(spec: FullContract, id: OperationId): boolean {
  return spec.operations.some((o) => o.operationId === id)
}

/** Runs every step in order; resolves when the target looks like a server of this contract set up as the flags say. */
export async function preflight(o: PreflightOptions): Promise<void> {
  await operationsAnswer(o)
  await healthy(o)
  await symbolsListed(o)
  await orderAccepted(o)
}

/** Some operation of the contract answers with anything but 404; otherwise the base URL is wrong. */
async function operationsAnswer({ spec, http, target, timeoutMs, headers }: PreflightOptions): Promise<void> {
  const answers = await Promise.all(spec.operations.map((op) => http.send(op.method, op.path, op.requestSchema ? { body: '{}' } : {})))
  if (answers.some((e) => e.response && e.response.status !== 404)) return
  const better = await baseWithHealth(spec, target.url, timeoutMs, headers)
  const cause = better
    ? `the base path is wrong: ${better} answers ${route({ spec }, 'getHealth').path}: use --target ${better}`
    : `is --target the API's base URL (the one the spec's paths are relative to)? Fix the host or path in --target`
  throw new PreflightError(`every operation of the contract answers 404 at ${target.url}: ${cause}${SKIP}`)
}

/** The origin or a shorter path of `url` where the health operation answers 200, if any. */
async function baseWithHealth(
  spec: FullContract,
  url: string,
  timeoutMs: number,
  headers?: Readonly<Record<string, string>>,
): Promise<string | undefined> {
  if (!has(spec, 'getHealth')) return undefined
  const u = new URL(url)
  const parts = u.pathname.split('/').filter(Boolean)
  for (let n = parts.length - 1; n >= 0; n--) {
    const base = `${u.origin}${n ? `/${parts.slice(0, n).join('/')}` : ''}`
    const client = new HttpClient(base, timeoutMs, headers)
    try {
      const e = await client.send('GET', route({ spec }, 'getHealth').path)
      if (e.response?.status === 200) return base
    } finally {
      client.close()
    }
  }
  return undefined
}

/** The health operation does not say the target is not ready (a missing one is for the checks to report). */
async function healthy({ spec, http, target }: PreflightOptions): Promise<void> {
  if (!has(spec, 'getHealth')) return
  const e = await http.send('GET', route({ spec }, 'getHealth').path)
  if (e.response && e.response.status >= 500)
    throw new PreflightError(
      `${target.url} is not ready: GET ${route({ spec }, 'getHealth').path} answers ${brief(e)}: wait for it to start${SKIP}`,
    )
}

/** Every --symbol is an instrument the target lists (its order book is not the missing-instrument envelope). */
async function symbolsListed({ spec, http, target }: PreflightOptions): Promise<void> {
  if (!has(spec, 'getOrderbook')) return
  const books = await Promise.all(target.symbols.map((symbol) => http.send('GET', pathOf({ spec }, 'getOrderbook', { symbol }))))
  const unlisted = target.symbols.filter((_, i) => {
    const json = books[i]!.response?.json as { result?: unknown; error?: unknown } | undefined
    return json !== undefined && json.result === null && json.error !== null && json.error !== undefined
  })
  if (unlisted.length === 0) return
  const which = unlisted.length === 1 ? `the symbol ${unlisted[0]}` : `the symbols ${unlisted.join(', ')}`
  throw new PreflightError(
    `${target.url} does not list ${which} (GET ${route({ spec }, 'getOrderbook').path} answers not found): pass instruments it lists with --symbol (or "symbols" in the config)${SKIP}`,
  )
}

/** One order, signed under the configured domain and chain, is accepted: a refused signature means another domain. */
async function orderAccepted({ spec, http, target, privateKey, nonce }: PreflightOptions): Promise<void> {
  if (!has(spec, 'placeOrder')) return
  const wallet = walletFromKey(privateKey)
  const symbol = target.symbols[0] ?? ''
  // A resting buy far below any ask, as the checks place (named by the spec's request type: a typo does not compile).
  const values = {
    wallet: wallet.address,
    symbol,
    side: 'Buy',
    size: '1',
    price: '1',
    tif: 'gtc',
    route: 'book_only',
    client_id: `oec-preflight-${nonce}`,
    nonce,
  } satisfies Partial<Record<keyof PlaceOrderRequest, BodyValue>>
  const entries: [string, BodyValue][] = Object.entries(values)
  const body = await signBody(spec, 'PlaceOrder', entries, privateKey, { domain: { name: target.domainName, chainId: target.chainId } })
  const { method, path } = route({ spec }, 'placeOrder')
  const e = await http.send(method, path, { body: body.text })
  const status = e.response?.status
  const json = e.response?.json as { status?: unknown; reason?: unknown; code?: unknown } | undefined
  if (status === 200 && json?.status !== 'REJECTED') return
  if (status === 401 || status === 403)
    throw new PreflightError(
      `${target.url} refuses an order signed for the domain "${target.domainName}" on chain ${target.chainId} (${brief(e)}): it signs under another domain; set --domain-name and --chain-id (or domainName, chainId in the config)${SKIP}`,
    )
  if (status === 200)
    throw new PreflightError(
      `${target.url} rejects a plain order in ${symbol} (reason: ${String(json?.reason ?? 'none given')}): pass an instrument it trades with --symbol${SKIP}`,
    )
  const said =
    typeof json === 'object' && json !== null && 'message' in json
      ? `: ${String((json as { message: unknown }).message).slice(0, 160)}`
      : ''
  throw new PreflightError(
    `${target.url} refuses a well-formed signed order in ${symbol} (${brief(e)} at ${method} ${path}${said}): does it run another version of the contract? Pass its spec with --spec${SKIP}`,
  )
}
