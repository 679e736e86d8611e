/**
 * `startServer`: the reference server as a library object, in-process on any port (0 for an
 * ephemeral one), with the clock and every other seam injectable.
 */
import { createServer } from 'node:http'
import { InputError } from '../errors.ts'
import { contractFor, type Contract } from '../contract/index.ts'
import { signingFor } from '../signing/index.ts'
import type { Clock } from './clock.ts'
import { checkConfig, defaultConfig, mergeConfig, type ServerConfig } from './config.ts'
import { createContext } from './context.ts'
import { defaultDeps, type ServerDeps } from './deps.ts'
import { createMemoryArchive } from './archive.ts'
import { toRecord, type Order } from './order-types.ts'
import { createRateLimiter } from './limits.ts'
import { handlers } from './handlers/index.ts'
import { guardConnections } from './connections.ts'
import { armHandshakeFilter } from './listen-filter.ts'
import { createDispatch, createEdge, createListener, type InProcessRequest, type InProcessResponse } from './http.ts'
import { buildRouter } from './router.ts'
import { attachWebSocket, type OrderFeed } from './ws.ts'

export interface StartOptions {
  config?: Partial<ServerConfig>
  deps?: Partial<ServerDeps>
  host?: string
  /** 0 (the default) picks a free port. */
  port?: number
  /** The contract to serve: a compiled contract or a spec file path; default the shipped spec. It needs every layer. */
  spec?: Contract | string
  /**
   * A directory for the server's state (created if missing): nonces, orders, agents, positions and
   * the current rate windows survive a restart, and nothing is answered before it is committed.
   * Without it the state lives in memory and a restart forgets it (old signatures replay).
   */
  data?: string
  /** With `data`: fsync every commit (survives power loss, not only the process dying), at a cost in throughput. */
  dataSync?: boolean
}

export interface RunningServer {
  /** `http://host:port`, no trailing slash. */
  url: string
  /** The data directory, or undefined when the state lives in memory only. */
  data: string | undefined
  port: number
  config: ServerConfig
  clock: Clock
  /** Answer a request in this process, without a socket: the same answer as over HTTP, minus connection limits. */
  dispatch(req: InProcessRequest): Promise<InProcessResponse>
  close(): Promise<void>
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const spec = contractFor(opts.spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'the reference server')
  const config = checkConfig(mergeConfig(defaultConfig(spec), (opts.config ?? {}) as Record<string, unknown>, 'config'), spec, 'config')
  const signing = signingFor(spec)
  // Loaded only with --data: memory mode does not load the native database module.
  const data = opts.data
    ? (await import('./persist/data-dir.ts')).openDataDir(opts.data, `${config.domainName}/${config.chainId}`, {
        sync: opts.dataSync === true,
        retain: config.retain,
      })
    : undefined
  const base = defaultDeps(signing, config.rateWindowSeconds, config.log === true)
  const deps: ServerDeps = {
    ...base,
    ...(data ? { nonces: data.nonces, agents: data.agents, rateLimiter: createRateLimiter(config.rateWindowSeconds, data.windows) } : {}),
    ...opts.deps,
  }
  let feed: Pick<OrderFeed, 'publish' | 'follows' | 'deliver'> = { publish: () => {}, follows: () => false, deliver: () => {} }
  // With --data an update is pushed once its change is committed, as an HTTP answer is.
  const publish = data
    ? (o: Order) => {
        if (!feed.follows(o.walletKey)) return
        const record = toRecord(o)
        const committed = data.settled()
        if (committed)
          committed.then(
            () => feed.deliver(o.walletKey, record),
            () => {},
          )
        else feed.deliver(o.walletKey, record)
      }
    : (o: Order) => feed.publish(o)
  const engine = deps.engine({
    instruments: config.instruments,
    onChange: publish,
    archive: data ? data.archive : createMemoryArchive(config.retain),
    observer: data ? data.observer : undefined,
  })
  data?.restore(engine)
  const ctx = createContext(spec, signing, config, deps, engine)
  const router = buildRouter(ctx, handlers)
  const server = createServer({
    keepAliveTimeout: config.keepAliveTimeoutMs,
    headersTimeout: Math.min(config.headerTimeoutMs, config.requestTimeoutMs),
    requestTimeout: config.requestTimeoutMs,
    // Node checks both timeouts on this period (30 s by default): a few checks per timeout.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.headerTimeoutMs / 4))),
  })
  const guard = guardConnections(server, ctx.catalog, config.maxConnections)
  const edge = createEdge(ctx, router, data)
  server.on('request', createListener(ctx, router, edge, guard))
  const ws = attachWebSocket(server, ctx)
  feed = ws
  const host = opts.host ?? '127.0.0.1'
  const port = opts.port ?? 0

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      ws.close()
      void data?.close()
      if (err.code === 'EADDRINUSE')
        reject(new InputError(`port ${port} on ${host} is already in use (pick another with --port, or 0 for any free port)`))
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
        reject(new InputError(`cannot listen on ${host}: no such local address`))
      else if (err.code === 'EACCES') reject(new InputError(`not allowed to listen on ${host}:${port} (ports below 1024 need privileges)`))
      else reject(new InputError(`cannot listen on ${host}:${port}: ${err.message}`))
    }
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve()
    })
  })
  armHandshakeFilter(server)
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  const urlHost = host.includes(':') ? `[${host}]` : host
  let closing: Promise<void> | undefined
  return {
    url: `http://${urlHost}:${actualPort}`,
    data: opts.data,
    port: actualPort,
    config,
    clock: deps.clock,
    dispatch: createDispatch(ctx, router, edge),
    close() {
      // Every request already received is answered; a request cannot outlast the request timeout.
      closing ??= (async () => {
        ws.close()
        await guard.drain(config.requestTimeoutMs + 1000)
        await data?.close()
      })()
      return closing
    },
  }
}
