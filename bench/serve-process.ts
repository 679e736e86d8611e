/**
 * What the long-run benches share: the reference server in a process of its own (the compiled
 * library, started with --expose-gc so that its live heap can be read after a full collection),
 * pre-signed order bodies, and a load generator (autocannon) that sends each body once.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { addressOf, type Hex } from '../src/signing/index.ts'
import { buildRequest } from '../test/helpers/shipped.ts'

type Autocannon = (
  opts: Record<string, unknown>,
  done: (err: Error | null, r: { '2xx': number; non2xx: number; errors: number }) => void,
) => { on(event: 'response', f: () => void): void }
// autocannon ships no types; the two calls used here are typed above.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

const SERVER_MODULE = pathToFileURL(fileURLToPath(new URL('../dist/src/server/index.js', import.meta.url))).href

/**
 * The child: starts the server with the options it is given (argv[2], JSON) and answers `heap`
 * messages with the live heap after two full collections.
 */
const CHILD = `const { startServer } = await import(${JSON.stringify(SERVER_MODULE)})
const s = await startServer(JSON.parse(process.argv[2]))
process.on('message', async (m) => {
  if (m === 'heap') { globalThis.gc(); globalThis.gc(); process.send({ heap: process.memoryUsage().heapUsed }) }
  if (m === 'stop') { await s.close(); process.exit(0) }
})
process.send({ url: s.url })`

export interface ServerProcess {
  readonly url: string
  readonly child: ChildProcess
  /** Live heap in bytes after full collections. */
  heap(): Promise<number>
  stop(): Promise<void>
}

export async function startServerProcess(options: Record<string, unknown>, file: string): Promise<ServerProcess> {
  writeFileSync(file, CHILD)
  const child = fork(file, [JSON.stringify(options)], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url))
    child.once('exit', (code) => reject(new Error(`bench: the server process exited ${code}`)))
  })
  return {
    url,
    child,
    heap: () =>
      new Promise((resolve) => {
        child.once('message', (m: { heap: number }) => resolve(m.heap))
        child.send('heap')
      }),
    stop: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit')
        child.once('exit', () => resolve())
        child.send('stop')
      }),
  }
}

/** A deterministic bench key (never real funds). */
export function benchKey(i: number): Hex {
  return `0x${(0xbe1000n + BigInt(i)).toString(16).padStart(64, '0')}` as Hex
}

/**
 * `perWallet` signed `ioc` Buy orders for each of `wallets` wallets (indexes from `firstWallet`).
 * Nothing rests: each is accepted and finished at once, so the live state a run leaves is only
 * what the server keeps per wallet and per consumed nonce.
 */
export async function iocOrders(wallets: number, perWallet: number, firstWallet = 0, symbol = 'BTC-20261225-100000-C'): Promise<string[]> {
  const bodies: string[] = []
  for (let w = 0; w < wallets; w++) {
    const key = benchKey(firstWallet + w)
    const wallet = addressOf(key)
    for (let i = 0; i < perWallet; i++) {
      const { body } = await buildRequest(
        'PlaceOrder',
        {
          wallet,
          symbol,
          side: 'Buy',
          size: '1',
          price: '1',
          tif: 'ioc',
          route: 'book_only',
          clientId: `s${i}`,
          nonce: BigInt(Date.now()) * 1000n + BigInt(i),
        },
        key,
      )
      bodies.push(body)
    }
  }
  return bodies
}

export interface LoadRun {
  /** Answers per second between the first and the last answer. */
  rps: number
  ok: number
  other: number
  errors: number
}

/** Sends each body once, in order, over `connections` keep-alive connections. */
export function sendAll(url: string, bodies: readonly string[], connections = 16): Promise<LoadRun> {
  let next = 0
  let first = 0n
  let last = 0n
  let answers = 0
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}/order`,
        connections,
        amount: bodies.length,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            setupRequest: (r: Record<string, unknown>) => ({ ...r, body: bodies[next++ % bodies.length] }),
          },
        ],
      },
      (err, r) => {
        if (err) return reject(err)
        resolve({ rps: (answers - 1) / (Number(last - first) / 1e9), ok: r['2xx'], other: r.non2xx, errors: r.errors })
      },
    )
    instance.on('response', () => {
      last = process.hrtime.bigint()
      if (answers++ === 0) first = last
    })
  })
}
