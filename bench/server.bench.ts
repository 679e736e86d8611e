/**
 * Reference server throughput and cost: signed POST /order requests per second on loopback,
 * against `oec serve` (the real CLI, its own process) and, in the same run, a bare node:http
 * server answering a fixed 200 to the same bodies. The load generator (autocannon) runs in a
 * process of its own too: the bench process only spawns, waits and reads /proc, so neither
 * server shares a process with its client. Bodies are pre-signed, one unique nonce each, spread
 * over many Default-tier wallets so that no rate limit bites.
 *
 * Two cores shared by client and server hide a server's cost behind the client's, so beside
 * req/s the bench reports the server process's CPU time (user + system, from /proc) per signed
 * order answered, and, measured in the same run, the CPU cost of verifying one order in-process
 * (the body's message, EIP-712 digest, recovery, signer compared with the wallet): the ratio of
 * the two is what the server adds around signing.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { addressOf, parseBody, type Hex } from '../src/signing/index.ts'
import { buildRequest, messageFromBody, verifyOptions } from '../test/helpers/shipped.ts'
import type { BenchSection } from './types.ts'
import { median, processCpuMicros } from './measure.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OEC = fileURLToPath(new URL('../bin/oec.js', import.meta.url))
const INSTRUMENTS = ['BTC-20261225-100000-C', 'BTC-20261225-100000-P', 'ETH-20261225-4000-C', 'ETH-20261225-4000-P', 'SOL-20261225-200-C']
const PER_WALLET = 50 // under 60 orders/min and the 100 open-order cap of the Default tier
const WARMUP = 3_000
const MEASURED = 20_000
const CONNECTIONS = 16
const VERIFY_ROUNDS = 5

const BARE = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/json' }); s.end('{"status":"ACKED"}') }) }).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port) })`

/**
 * The load generator, a process of its own: sends each body of a JSON file once, in order, over
 * CONNECTIONS keep-alive connections, and prints autocannon's figures as one JSON line. Requests
 * per second are answers over the whole run's wall time: autocannon's own average is a mean of
 * whole-second buckets, too coarse for a run of a few seconds.
 * argv: url, bodies file, connections.
 */
const LOADGEN = `const [url, file, connections] = process.argv.slice(1)
const bodies = JSON.parse(require('node:fs').readFileSync(file, 'utf8'))
let next = 0
const start = process.hrtime.bigint()
require('autocannon')({
  url: url + '/order', connections: Number(connections), amount: bodies.length,
  requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (r) => ({ ...r, body: bodies[next++ % bodies.length] }) }],
}).then((r) => console.log(JSON.stringify({ rps: (r['2xx'] + r.non2xx) / (Number(process.hrtime.bigint() - start) / 1e9), p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], other: r.non2xx, errors: r.errors })), (e) => { console.error(e); process.exit(1) })`

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
  /** Server CPU (user + system) over the run, in µs. */
  serverCpu: number
}

/** Runs the load generator in its own process against `url`, reading the server's CPU before and after. */
async function hammer(server: ChildProcess, url: string, bodiesFile: string): Promise<Run> {
  const cpu0 = processCpuMicros(server.pid!)
  const child = spawn(process.execPath, ['-e', LOADGEN, url, bodiesFile, String(CONNECTIONS)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  const serverCpu = processCpuMicros(server.pid!) - cpu0
  if (code !== 0) throw new Error(`bench: the load generator exited ${code}`)
  return { ...(JSON.parse(out) as Omit<Run, 'serverCpu'>), serverCpu }
}

/**
 * CPU µs to verify one order in-process, as the server must: the body's typed message, the
 * EIP-712 digest (string memo on, as in the server), recovery and the signer compared with the
 * wallet. Bodies are parsed beforehand (the server's parse is part of what it adds). Median of
 * VERIFY_ROUNDS rounds over distinct orders, process CPU time (user + system) per order.
 */
function verifyCost(bodies: readonly string[]): number {
  const parsed = bodies.map((text) => {
    const body = parseBody(text)
    if (!body.ok) throw new Error('bench: a pre-signed body does not parse')
    const v = body.value as { wallet: string; signature: string }
    return { body, wallet: v.wallet.toLowerCase(), signature: v.signature }
  })
  const per = Math.floor(parsed.length / VERIFY_ROUNDS)
  const samples: number[] = []
  for (let r = 0; r < VERIFY_ROUNDS; r++) {
    const start = process.cpuUsage()
    for (let i = r * per; i < (r + 1) * per; i++) {
      const p = parsed[i]!
      const v = verifyOptions('PlaceOrder', messageFromBody('PlaceOrder', p.body), p.signature)
      if (!v.ok || v.signer.toLowerCase() !== p.wallet) throw new Error('bench: not authorized')
    }
    const used = process.cpuUsage(start)
    samples.push((used.user + used.system) / per)
  }
  return median(samples)
}

export default async function main(): Promise<BenchSection[]> {
  const t0 = performance.now()
  const warm = await presign(WARMUP, 0)
  const bodies = await presign(MEASURED, Math.ceil(WARMUP / PER_WALLET))
  const signSecs = (performance.now() - t0) / 1000
  const dir = mkdtempSync(join(os.tmpdir(), 'oec-bench-server-'))
  const warmFile = join(dir, 'warm.json')
  const bodiesFile = join(dir, 'bodies.json')
  writeFileSync(warmFile, JSON.stringify(warm))
  writeFileSync(bodiesFile, JSON.stringify(bodies))

  try {
    const bare = await launch(['-e', BARE])
    await hammer(bare.child, bare.url, warmFile)
    const b = await hammer(bare.child, bare.url, bodiesFile)
    await stop(bare.child)

    // OEC_BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" profiles the server under this load.
    const nodeArgs = (process.env.OEC_BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)
    const ref = await launch([...nodeArgs, OEC, 'serve', '--port', '0'])
    await hammer(ref.child, ref.url, warmFile)
    const load = os.loadavg()[0]!
    const r = await hammer(ref.child, ref.url, bodiesFile)
    await stop(ref.child)

    // Verification measured last, on the measured orders, with no server running.
    const verifyUs = verifyCost(bodies)

    const ratio = r.rps / b.rps
    const cpuPerOrder = r.serverCpu / r.ok
    const bareCpu = b.serverCpu / b.ok
    const cpuRatio = cpuPerOrder / verifyUs
    const fmt = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`
    const us = (n: number) => `${n.toFixed(1)} µs`
    return [
      {
        title: `Reference server: signed POST /order on loopback (autocannon in its own process, ${CONNECTIONS} connections, ${MEASURED.toLocaleString('en-US')} pre-signed orders)`,
        rows: [
          { name: 'oec serve (verify + validate + match)', value: fmt(r.rps), ratio: `${ratio.toFixed(2)}× bare node:http` },
          { name: 'bare node:http fixed 200', value: fmt(b.rps) },
          { name: 'oec serve latency p50 / p99', value: `${r.p50} ms / ${r.p99} ms` },
          { name: 'bare node:http latency p50 / p99', value: `${b.p50} ms / ${b.p99} ms` },
          { name: 'oec serve CPU per signed order', value: us(cpuPerOrder), ratio: `${cpuRatio.toFixed(2)}× in-process verification` },
          { name: 'in-process verification CPU per order', value: us(verifyUs), ratio: '(message + digest + recover + compare)' },
          { name: 'bare node:http CPU per request', value: us(bareCpu) },
        ],
        notes: [
          `target ≥ 0.40× bare: ${ratio >= 0.4 ? 'met' : 'MISSED'} (${ratio.toFixed(2)}×)`,
          `target server CPU per order ≤ 2× in-process verification: ${cpuRatio <= 2 ? 'met' : 'MISSED'} (${cpuRatio.toFixed(2)}×)`,
          `oec serve answered ${r.ok} × 2xx, ${r.other} × non-2xx, ${r.errors} errors (every order should be ACKED)`,
          `load average ${load.toFixed(2)} at the start of the measured oec serve run; server CPU from /proc (10 ms ticks) over the run`,
          `${(WARMUP + MEASURED).toLocaleString('en-US')} bodies signed in ${signSecs.toFixed(1)} s before the runs; ${WARMUP.toLocaleString('en-US')} warm-up requests per server`,
        ],
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
