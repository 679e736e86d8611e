/**
 * WebSocket fan-out: signed orders/s of one wallet while 1, then 200 reading WebSocket clients
 * follow it (each order is one update to every subscriber). The subscribers run in a process of
 * their own, the server in another; rounds alternate 1 and 200 subscribers on the same server
 * and the ratio is the median of per-round ratios. Beside orders/s, the server process's CPU time
 * (from /proc) per order: on a shared box the orders/s ratio also measures whoever else runs, the
 * CPU ratio only what a subscriber costs the server.
 *
 * Target: orders/s with 200 subscribers ≥ 0.5× with one.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { addressOf } from '../src/signing/index.ts'
import { median, processCpuMicros } from './measure.ts'
import { benchKey, iocOrders, sendAll, startServerProcess } from './serve-process.ts'
import type { BenchSection } from './types.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const ORDERS_PER_ROUND = 1_000
const ROUNDS = 3
const MANY = 200
const WALLET_INDEX = 2_000_000

/** K sockets subscribed to one wallet, counting messages; prints "ready" once all are subscribed. argv: ws url, wallet, K. */
const SUBSCRIBERS = `const WebSocket = require('ws')
const [url, wallet, k] = process.argv.slice(1)
let ready = 0
let received = 0
for (let i = 0; i < Number(k); i++) {
  const ws = new WebSocket(url)
  ws.on('message', () => received++)
  ws.on('open', () => {
    ws.send(JSON.stringify({ method: 'subscribe', params: { channel: 'orders', wallet } }))
    ws.once('pong', () => { if (++ready === Number(k)) console.log('ready') })
    ws.ping()
  })
}
process.on('SIGTERM', () => { console.log(JSON.stringify({ received })); process.exit(0) })`

function subscribers(url: string, wallet: string, k: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SUBSCRIBERS, `${url.replace('http', 'ws')}/ws`, wallet, String(k)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    child.stdout!.on('data', (d) => String(d).includes('ready') && resolve(child))
    child.once('exit', (code) => reject(new Error(`bench: subscribers exited ${code}`)))
  })
}

async function stop(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit')
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

export default async function main(): Promise<BenchSection[]> {
  const wallet = addressOf(benchKey(WALLET_INDEX))
  const total = ORDERS_PER_ROUND * ROUNDS * 2 + 1_000
  const bodies = await iocOrders(1, total, WALLET_INDEX, 'ETH-20261225-4000-C')
  const dir = mkdtempSync(join(os.tmpdir(), 'oec-bench-fanout-'))
  // One wallet sends every order: a tier with room for them all.
  const tier = { ordersPerMinute: 1e9, cancelsPerMinute: 1e9, apiRequestsPerMinute: 1e9, maxOpenOrders: 1e9, maxPositions: -1 }
  const config = { tiers: { bench: tier }, walletTiers: { [wallet.toLowerCase()]: 'bench' } }
  const server = await startServerProcess({ port: 0, config }, join(dir, 'child.mjs'))
  try {
    let at = 0
    const slice = (n: number) => bodies.slice(at, (at += n))
    await sendAll(server.url, slice(1_000)) // warm-up
    const rows: { one: number; many: number; cpuOne: number; cpuMany: number }[] = []
    const pid = server.child.pid ?? 0
    for (let r = 0; r < ROUNDS; r++) {
      const round = { one: 0, many: 0, cpuOne: 0, cpuMany: 0 }
      for (const k of [1, MANY]) {
        const subs = await subscribers(server.url, wallet, k)
        const cpu = processCpuMicros(pid)
        const run = await sendAll(server.url, slice(ORDERS_PER_ROUND))
        // µs of server CPU per order: the updates are written by the end of the run's last turn.
        const perOrder = (processCpuMicros(pid) - cpu) / ORDERS_PER_ROUND
        await stop(subs)
        if (k === 1) Object.assign(round, { one: run.rps, cpuOne: perOrder })
        else Object.assign(round, { many: run.rps, cpuMany: perOrder })
      }
      rows.push(round)
    }
    const ratio = median(rows.map((x) => x.many / x.one))
    const cpuRatio = median(rows.map((x) => x.cpuOne / x.cpuMany))
    const us = (n: number) => `${Math.round(n)} µs`
    const fmt = (n: number) => `${Math.round(n).toLocaleString('en-US')} orders/s`
    return [
      {
        title: `WebSocket fan-out: one wallet's signed orders (${ORDERS_PER_ROUND.toLocaleString('en-US')} per run, ${ROUNDS} rounds, medians), every order an update to each subscriber`,
        rows: [
          { name: '1 reading subscriber', value: fmt(median(rows.map((x) => x.one))) },
          {
            name: `${MANY} reading subscribers`,
            value: fmt(median(rows.map((x) => x.many))),
            ratio: `${ratio.toFixed(2)}× one subscriber`,
          },
          { name: 'server CPU per order, 1 subscriber', value: us(median(rows.map((x) => x.cpuOne))) },
          {
            name: `server CPU per order, ${MANY} subscribers`,
            value: us(median(rows.map((x) => x.cpuMany))),
            ratio: `orders/s a server with a core of its own could keep: ${cpuRatio.toFixed(2)}× one subscriber`,
          },
        ],
        notes: [
          `target ${MANY} subscribers ≥ 0.5× one: ${ratio >= 0.5 ? 'met' : 'MISSED'} (${ratio.toFixed(2)}×; rounds ${rows.map((x) => (x.many / x.one).toFixed(2)).join(', ')})`,
          `the subscribers share the 2-core box with the server and the load generator: their reading is part of what slows the run`,
        ],
      },
    ]
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
