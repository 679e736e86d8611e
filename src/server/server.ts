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
import { Exchange, type Order } from './exchange.ts'
import { handlers } from './handlers/index.ts'
import { guardConnections } from './connections.ts'
import { createListener } from './http.ts'
import { buildRouter } from './router.ts'
import { attachWebSocket } from './ws.ts'

export interface StartOptions {
  config?: Partial<ServerConfig>
  deps?: Partial<ServerDeps>
  host?: string
  /** 0 (the default) picks a free port. */
  port?: number
  /** The contract to serve: a compiled contract or a spec file path; default the shipped spec. It needs every layer. */
  spec?: Contract | string
}

export interface RunningServer {
  /** `http://host:port`, no trailing slash. */
  url: string
  port: number
  config: ServerConfig
  clock: Clock
  close(): Promise<void>
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const spec = contractFor(opts.spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'the reference server')
  const config = checkConfig(mergeConfig(defaultConfig(spec), (opts.config ?? {}) as Record<string, unknown>, 'config'), spec, 'config')
  const signing = signingFor(spec)
  const deps: ServerDeps = { ...defaultDeps(signing, spec.rateLimits.windowSeconds, config.log === true), ...opts.deps }
  let feed: { publish(o: Order): void } = { publish: () => {} }
  const exchange = new Exchange(config.instruments, (o) => feed.publish(o))
  const ctx = createContext(spec, signing, config, deps, exchange)
  const router = buildRouter(ctx, handlers)
  const server = createServer({
    keepAliveTimeout: config.keepAliveTimeoutMs,
    headersTimeout: Math.min(config.headerTimeoutMs, config.requestTimeoutMs),
    requestTimeout: config.requestTimeoutMs,
    // Node checks both timeouts on this period (30 s by default): a few checks per timeout.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.headerTimeoutMs / 4))),
  })
  const guard = guardConnections(server, ctx.catalog, config.maxConnections)
  server.on('request', createListener(ctx, router, guard))
  const ws = attachWebSocket(server, ctx)
  feed = ws
  const host = opts.host ?? '127.0.0.1'
  const port = opts.port ?? 0

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      ws.close()
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
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  const urlHost = host.includes(':') ? `[${host}]` : host
  let closing: Promise<void> | undefined
  return {
    url: `http://${urlHost}:${actualPort}`,
    port: actualPort,
    config,
    clock: deps.clock,
    close() {
      // Every request already received is answered; a request cannot outlast the request timeout.
      closing ??= (async () => {
        ws.close()
        await guard.drain(config.requestTimeoutMs + 1000)
      })()
      return closing
    },
  }
}
