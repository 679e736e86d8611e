/**
 * A long run of the reference server, in memory and with `--data`: 100,000 signed orders across
 * 10,000 wallets (10 each), each accepted and finished at once (ioc against an empty book). After
 * the run, the server's live heap (after full collections) minus its live heap before the run,
 * per accepted order: what a long-running sandbox keeps per order. And the signed orders/s of the
 * two modes on the same bodies' kind (every answer with --data waits for its commit), and of
 * --data --data-sync (every answer waits for the fsync of its commit).
 *
 * Target: ≤ 100 bytes of live heap per accepted order in both modes, and --data ≥ 0.5× the
 * in-memory throughput. OEC_SOAK_WALLETS scales the run down for a quick look.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { iocOrders, sendAll, startServerProcess, type LoadRun } from './serve-process.ts'
import type { BenchSection } from './types.ts'

const WALLETS = Number(process.env.OEC_SOAK_WALLETS ?? 10_000)
const PER_WALLET = 10
const WARM_WALLETS = 500

interface ModeRun {
  run: LoadRun
  heapBefore: number
  heapAfter: number
}

async function soak(mode: 'memory' | 'data' | 'data-sync', warm: string[], bodies: string[], dir: string): Promise<ModeRun> {
  const options = mode === 'memory' ? { port: 0 } : { port: 0, data: join(dir, `db-${mode}`), dataSync: mode === 'data-sync' }
  const server = await startServerProcess(options, join(dir, `child-${mode}.mjs`))
  try {
    await sendAll(server.url, warm)
    const heapBefore = await server.heap()
    const run = await sendAll(server.url, bodies)
    const heapAfter = await server.heap()
    return { run, heapBefore, heapAfter }
  } finally {
    await server.stop()
  }
}

export default async function main(): Promise<BenchSection[]> {
  const t0 = performance.now()
  const warm = await iocOrders(WARM_WALLETS, PER_WALLET, 1_000_000)
  const bodies = await iocOrders(WALLETS, PER_WALLET)
  const signSecs = (performance.now() - t0) / 1000
  const dir = mkdtempSync(join(os.tmpdir(), 'oec-bench-soak-'))
  try {
    const memory = await soak('memory', warm, bodies, dir)
    const data = await soak('data', warm, bodies, dir)
    const synced = await soak('data-sync', warm, bodies, dir)
    const perOrder = (m: ModeRun) => (m.heapAfter - m.heapBefore) / m.run.ok
    const fmtRps = (r: LoadRun) => `${Math.round(r.rps).toLocaleString('en-US')} orders/s`
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`
    const ratio = data.run.rps / memory.run.rps
    const mem = perOrder(memory)
    const disk = perOrder(data)
    return [
      {
        title: `Soak: ${bodies.length.toLocaleString('en-US')} signed orders across ${WALLETS.toLocaleString('en-US')} wallets (ioc, finished at once), 16 connections, server in its own process`,
        rows: [
          { name: 'in memory (--retain 10000): throughput', value: fmtRps(memory.run) },
          { name: '--data (LMDB): throughput', value: fmtRps(data.run), ratio: `${ratio.toFixed(2)}× in memory` },
          {
            name: '--data --data-sync: throughput',
            value: fmtRps(synced.run),
            ratio: `${(synced.run.rps / memory.run.rps).toFixed(2)}× in memory, ${(synced.run.rps / data.run.rps).toFixed(2)}× --data`,
          },
          {
            name: 'in memory: live heap per accepted order',
            value: `${mem.toFixed(1)} B`,
            ratio: `(${mb(memory.heapBefore)} → ${mb(memory.heapAfter)})`,
          },
          {
            name: '--data: live heap per accepted order',
            value: `${disk.toFixed(1)} B`,
            ratio: `(${mb(data.heapBefore)} → ${mb(data.heapAfter)})`,
          },
        ],
        notes: [
          `target --data ≥ 0.5× in-memory throughput: ${ratio >= 0.5 ? 'met' : 'MISSED'} (${ratio.toFixed(2)}×)`,
          `target ≤ 100 B live heap per accepted order: in memory ${mem <= 100 ? 'met' : 'MISSED'}, --data ${disk <= 100 ? 'met' : 'MISSED'}`,
          `answers: in memory ${memory.run.ok} × 2xx, ${memory.run.other} other, ${memory.run.errors} errors; --data ${data.run.ok} × 2xx, ${data.run.other} other, ${data.run.errors} errors; --data-sync ${synced.run.ok} × 2xx, ${synced.run.other} other, ${synced.run.errors} errors`,
          `in memory the heap includes the newest 10,000 finished orders (--retain); per order it is their cost spread over the run`,
          `${(bodies.length + warm.length).toLocaleString('en-US')} bodies signed in ${signSecs.toFixed(1)} s; ${warm.length.toLocaleString('en-US')} warm-up orders from other wallets before the first heap reading`,
        ],
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
