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
 * the two is what the server adds around signing. The orders go in rounds, each sent to the bare
 * server, verified in-process, sent to oec serve, verified again, then sent to the stubbed server,
 * and every ratio is a median of per-round ratios: a ratio of two figures taken minutes apart on
 * a shared box measures the box's drift.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { addressOf, parseBody, type Hex } from '../src/signing/index.ts'
import { buildRequest, messageFromBody, verifyOptions } from '../test/helpers/shipped.ts'
import type { BenchSection } from './types.ts'
import { median, processCpuMicros } from './measure.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OEC = fileURLToPath(new URL('../bin/oec.js', import.meta.url))
const INSTRUMENTS = ['BTC-20261225-100000-C', 'BTC-20261225-100000-P', 'ETH-20261225-4000-C', 'ETH-20261225-4000-P', 'SOL-20261225-200-C']
const PER_WALLET = 50 // under 60 orders/min and the 100 open-order cap of the Default tier
const WARMUP = 6_000
const MEASURED = 28_000
const CONNECTIONS = 16
const ROUNDS = 7

const BARE = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/json' }); s.end('{"status":"ACKED"}') }) }).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port) })`

/**
 * The same reference server with verification stubbed through its `deps` seam (the signer is the
 * body's wallet): what the server costs around signing, in the same run. Never a product mode;
 * argv: the server module's URL.
 */
const STUBBED = `const { startServer } = await import(process.argv[1])
const s = await startServer({ port: 0, deps: { verifyOptions: (_kind, message) => ({ ok: true, signer: message.wallet, digest: '0x' }) } })
process.on('SIGTERM', () => s.close().then(() => process.exit(0)))
console.log('listening on ' + s.url)`
const SERVER_MODULE = pathToFileURL(fileURLToPath(new URL('../dist/src/server/index.js', import.meta.url))).href

/**
 * The load generator, a process of its own: sends each body of a JSON file once, in order, over
 * CONNECTIONS keep-alive connections, and prints autocannon's figures as one JSON line. Requests
 * per second are answers between the first and the last answer (autocannon's own average is a
 * mean of whole-second buckets, too coarse for a round of a second or two, and the process's
 * start is not the server's work).
 * argv: url, bodies file, connections.
 */
const LOADGEN = `const [url, file, connections] = process.argv.slice(1)
const bodies = JSON.parse(require('node:fs').readFileSync(file, 'utf8'))
let next = 0
let first = 0n
let last = 0n
let answers = 0
const instance = require('autocannon')({
  url: url + '/order', connections: Number(connections), amount: bodies.length,
  requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (r) => ({ ...r, body: bodies[next++ % bodies.length] }) }],
}, (e, r) => {
  if (e) { console.error(e); process.exit(1) }
  console.log(JSON.stringify({ rps: (answers - 1) / (Number(last - first) / 1e9), p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], other: r.non2xx, errors: r.errors }))
})
instance.on('response', () => {
  last = process.hrtime.bigint()
  if (answers++ === 0) first = last
})`

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

interface Launched {
  child: ChildProcess
  url: string
}

function launch(args: string[]): Promise<Launched> {
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
  if (child.exitCode !== null || child.signalCode !== null) return
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

/** Server CPU per answered request, in µs. */
const cpuPer = (r: Run) => r.serverCpu / r.ok

/** Runs the load generator in its own process against the server, reading its CPU before and after. */
async function hammer({ child: server, url }: Launched, bodiesFile: string): Promise<Run> {
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
 * wallet. Bodies are parsed beforehand (the server's parse is part of what it adds). Process CPU
 * time (user + system) per order over the given orders.
 */
function verifyCost(bodies: readonly string[]): number {
  const parsed = bodies.map((text) => {
    const body = parseBody(text)
    if (!body.ok) throw new Error('bench: a pre-signed body does not parse')
    const v = body.value as { wallet: string; signature: string }
    return { body, wallet: v.wallet.toLowerCase(), signature: v.signature }
  })
  const start = process.cpuUsage()
  for (const p of parsed) {
    const v = verifyOptions('PlaceOrder', messageFromBody('PlaceOrder', p.body), p.signature)
    if (!v.ok || v.signer.toLowerCase() !== p.wallet) throw new Error('bench: not authorized')
  }
  const used = process.cpuUsage(start)
  return (used.user + used.system) / parsed.length
}

const SERVERS = ['bare', 'oec', 'stubbed'] as const
type ServerName = (typeof SERVERS)[number]

/** One round: the same orders to the bare server, to oec serve (verified in-process just before and after), to the stubbed server. */
type Round = Record<ServerName, Run> & { verifyUs: number }

export default async function main(): Promise<BenchSection[]> {
  const t0 = performance.now()
  const warm = await presign(WARMUP, 0)
  const bodies = await presign(MEASURED, Math.ceil(WARMUP / PER_WALLET))
  const signSecs = (performance.now() - t0) / 1000
  const dir = mkdtempSync(join(os.tmpdir(), 'oec-bench-server-'))
  const warmFile = join(dir, 'warm.json')
  writeFileSync(warmFile, JSON.stringify(warm))
  const per = Math.floor(MEASURED / ROUNDS)
  const slices = Array.from({ length: ROUNDS }, (_, r) => bodies.slice(r * per, (r + 1) * per))
  const sliceFiles = slices.map((slice, r) => {
    const file = join(dir, `round-${r}.json`)
    writeFileSync(file, JSON.stringify(slice))
    return file
  })

  // OEC_BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" profiles the server under this load.
  const nodeArgs = (process.env.OEC_BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const argv: Record<ServerName, string[]> = {
    bare: ['-e', BARE],
    oec: [...nodeArgs, OEC, 'serve', '--port', '0'],
    stubbed: ['--input-type=module', '-e', STUBBED, SERVER_MODULE],
  }
  const started: Partial<Record<ServerName, Launched>> = {}
  try {
    for (const name of SERVERS) started[name] = await launch(argv[name])
    const servers = started as Record<ServerName, Launched>
    for (const name of SERVERS) await hammer(servers[name], warmFile)
    // The in-process side warms up too: its first pass pays for JIT compilation the servers
    // have already paid for in their warm-up.
    verifyCost(warm)
    const load = os.loadavg()[0]!
    // Rounds interleave the measurements, so that the machine's drift in speed (a shared box's
    // neighbours, frequency) moves both sides of every ratio alike.
    const rounds: Round[] = []
    for (let r = 0; r < ROUNDS; r++) {
      const runs = {} as Record<ServerName, Run>
      // Verification is timed just before and just after oec serve's run and the two averaged,
      // so that the ratio's two sides are taken around the same seconds.
      let verifyUs = 0
      for (const name of SERVERS) {
        if (name === 'oec') verifyUs += verifyCost(slices[r]!) / 2
        runs[name] = await hammer(servers[name], sliceFiles[r]!)
        if (name === 'oec') verifyUs += verifyCost(slices[r]!) / 2
      }
      rounds.push({ ...runs, verifyUs })
    }

    const m = (f: (x: Round) => number) => median(rounds.map(f))
    const ratio = m((x) => x.oec.rps / x.bare.rps)
    const cpuRatios = rounds.map((x) => cpuPer(x.oec) / x.verifyUs)
    const cpuRatio = median(cpuRatios)
    const ok = rounds.reduce((n, x) => n + x.oec.ok, 0)
    const other = rounds.reduce((n, x) => n + x.oec.other, 0)
    const errors = rounds.reduce((n, x) => n + x.oec.errors, 0)
    const fmt = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`
    const us = (n: number) => `${n.toFixed(1)} µs`
    const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×`
    return [
      {
        title: `Reference server: signed POST /order on loopback (autocannon in its own process, ${CONNECTIONS} connections, ${MEASURED.toLocaleString('en-US')} pre-signed orders in ${ROUNDS} interleaved rounds, medians)`,
        rows: [
          { name: 'oec serve (verify + validate + match)', value: fmt(m((x) => x.oec.rps)), ratio: `${ratio.toFixed(2)}× bare node:http` },
          { name: 'bare node:http fixed 200', value: fmt(m((x) => x.bare.rps)) },
          { name: 'oec serve latency p50 / p99', value: `${m((x) => x.oec.p50)} ms / ${m((x) => x.oec.p99)} ms` },
          { name: 'bare node:http latency p50 / p99', value: `${m((x) => x.bare.p50)} ms / ${m((x) => x.bare.p99)} ms` },
          {
            name: 'oec serve CPU per signed order',
            value: us(m((x) => cpuPer(x.oec))),
            ratio: `${cpuRatio.toFixed(2)}× in-process verification`,
          },
          {
            name: 'in-process verification CPU per order',
            value: us(m((x) => x.verifyUs)),
            ratio: '(message + digest + recover + compare)',
          },
          { name: 'bare node:http CPU per request', value: us(m((x) => cpuPer(x.bare))) },
          {
            name: 'oec serve, verification stubbed, CPU per order',
            value: us(m((x) => cpuPer(x.stubbed))),
            ratio: `${m((x) => cpuPer(x.stubbed) / x.verifyUs).toFixed(2)}× in-process verification (the server's own work)`,
          },
          {
            name: 'verification inside the loaded server',
            value: us(m((x) => cpuPer(x.oec) - cpuPer(x.stubbed))),
            ratio: `${m((x) => (cpuPer(x.oec) - cpuPer(x.stubbed)) / x.verifyUs).toFixed(2)}× in-process verification`,
          },
        ],
        notes: [
          `target ≥ 0.40× bare: ${ratio >= 0.4 ? 'met' : 'MISSED'} (${ratio.toFixed(2)}×; rounds ${range(rounds.map((x) => x.oec.rps / x.bare.rps))})`,
          `target server CPU per order ≤ 2× in-process verification: ${cpuRatio <= 2 ? 'met' : 'MISSED'} (${cpuRatio.toFixed(2)}×; rounds ${range(cpuRatios)})`,
          `oec serve answered ${ok} × 2xx, ${other} × non-2xx, ${errors} errors (every order should be ACKED)`,
          `load average ${load.toFixed(2)} after the warm-up; server CPU from /proc (10 ms ticks) per round; a round is ${per.toLocaleString('en-US')} orders to bare, verified in-process, to oec serve, verified again, to the stubbed server`,
          `${(WARMUP + MEASURED).toLocaleString('en-US')} bodies signed in ${signSecs.toFixed(1)} s before the runs; ${WARMUP.toLocaleString('en-US')} warm-up requests per server`,
        ],
      },
    ]
  } finally {
    await Promise.all(Object.values(started).map((s) => stop(s.child)))
    rmSync(dir, { recursive: true, force: true })
  }
}
