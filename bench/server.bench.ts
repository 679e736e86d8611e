/**
 * Reference server throughput: signed POST /order requests per second on loopback, measured with
 * autocannon against `oec serve` (the real CLI, its own process) and, in the same run, against a
 * bare node:http server answering a fixed 200 to the same bodies. Bodies are pre-signed, one
 * unique nonce each, spread over many Default-tier wallets so that no rate limit bites.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { addressOf, type Hex } from '../src/signing/index.ts'
import { buildRequest } from '../test/helpers/shipped.ts'
import type { BenchSection } from './types.ts'

/** The slice of autocannon's API used here (the package ships no types). */
interface AutocannonResult {
  requests: { average: number }
  latency: { p50: number; p99: number }
  '2xx': number
  non2xx: number
  errors: number
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OEC = fileURLToPath(new URL('../bin/oec.js', import.meta.url))
const INSTRUMENTS = ['BTC-20261225-100000-C', 'BTC-20261225-100000-P', 'ETH-20261225-4000-C', 'ETH-20261225-4000-P', 'SOL-20261225-200-C']
const PER_WALLET = 50 // under 60 orders/min and the 100 open-order cap of the Default tier
const WARMUP = 3_000
const MEASURED = 20_000
const CONNECTIONS = 16

const BARE = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/json' }); s.end('{"status":"ACKED"}') }) }).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port) })`

async function presign(count: number, offset: number): Promise<string[]> {
  const bodies: string[] = []
  for (let i = 0; i < count; i++) {
    const walletIndex = offset + Math.floor(i / PER_WALLET)
    const key = `0x${(0xbe0000n + BigInt(walletIndex)).toString(16).padStart(64, '0')}` as Hex
    const { body } = await buildRequest(
      'PlaceOrder',
      {
        wallet: addressOf(key),
        symbol: INSTRUMENTS[walletIndex % INSTRUMENTS.length]!,
        side: 'Buy',
        size: '1',
        price: `${1 + (i % 50)}.5`,
        tif: 'gtc',
        route: 'book_only',
        clientId: `b${i}`,
        nonce: BigInt(i + 1),
      },
      key,
    )
    bodies.push(body)
  }
  return bodies
}

function launch(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout!.on('data', (d) => {
      out += d
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve({ child, url: m[1]! })
    })
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)))
  })
}

async function stop(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit')
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

interface Run {
  rps: number
  p50: number
  p99: number
  ok: number
  other: number
  errors: number
}

/** Sends each body once, in order, over CONNECTIONS keep-alive connections. */
async function hammer(url: string, bodies: readonly string[]): Promise<Run> {
  let next = 0
  const result = await autocannon({
    url: `${url}/order`,
    connections: CONNECTIONS,
    amount: bodies.length,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req: Record<string, unknown>) => ({ ...req, body: bodies[next++ % bodies.length] }),
      },
    ],
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    other: result.non2xx,
    errors: result.errors,
  }
}

export default async function main(): Promise<BenchSection[]> {
  const t0 = performance.now()
  const warm = await presign(WARMUP, 0)
  const bodies = await presign(MEASURED, Math.ceil(WARMUP / PER_WALLET))
  const signSecs = (performance.now() - t0) / 1000

  const bare = await launch(['-e', BARE])
  await hammer(bare.url, warm)
  const b = await hammer(bare.url, bodies)
  await stop(bare.child)

  const ref = await launch([OEC, 'serve', '--port', '0'])
  await hammer(ref.url, warm)
  const r = await hammer(ref.url, bodies)
  await stop(ref.child)

  const ratio = r.rps / b.rps
  const fmt = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`
  return [
    {
      title: `Reference server: signed POST /order on loopback (autocannon, ${CONNECTIONS} connections, ${MEASURED.toLocaleString('en-US')} pre-signed orders)`,
      rows: [
        { name: 'oec serve (verify + validate + match)', value: fmt(r.rps), ratio: `${ratio.toFixed(2)}× bare node:http` },
        { name: 'bare node:http fixed 200', value: fmt(b.rps) },
        { name: 'oec serve latency p50 / p99', value: `${r.p50} ms / ${r.p99} ms` },
        { name: 'bare node:http latency p50 / p99', value: `${b.p50} ms / ${b.p99} ms` },
      ],
      notes: [
        `target ≥ 0.30× bare: ${ratio >= 0.3 ? 'met' : 'MISSED'} (${ratio.toFixed(2)}×)`,
        `oec serve answered ${r.ok} × 2xx, ${r.other} × non-2xx, ${r.errors} errors (every order should be ACKED)`,
        `${(WARMUP + MEASURED).toLocaleString('en-US')} bodies signed in ${signSecs.toFixed(1)} s before the runs; ${WARMUP.toLocaleString('en-US')} warm-up requests per server`,
      ],
    },
  ]
}
