/**
 * The two embedded stores considered for `oec serve --data`, measured on the server's access
 * pattern: small writes committed in batches (the writes of the requests of one event-loop turn),
 * with and without an fsync per commit, and synchronous point reads (a nonce check on the order
 * path must not leave the synchronous turn). LMDB through `lmdb`, LevelDB through `classic-level`
 * (a dev dependency, installed for this comparison only).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { open } from 'lmdb'
import type { BenchSection } from './types.ts'

const WRITES = 100_000
const SYNCED_WRITES = 5_000
const BATCH = 16
const key = (i: number) => `n:0x${(i * 7919).toString(16).padStart(40, '0')}:${1_700_000_000_000 + i}`

async function lmdbRun(dir: string, n: number, sync: boolean): Promise<{ writeSecs: number; readUs: number }> {
  const db = open<number, string>({ path: join(dir, `lmdb-${sync}`), noSync: !sync, compression: false })
  const t0 = performance.now()
  let last: Promise<boolean> | undefined
  for (let i = 0; i < n; i++) {
    last = db.put(key(i), 1)
    if (i % BATCH === BATCH - 1) await last
  }
  await last
  const writeSecs = (performance.now() - t0) / 1000
  const t1 = performance.now()
  let found = 0
  for (let i = 0; i < n; i++) if (db.get(key(i)) !== undefined) found++
  const readUs = ((performance.now() - t1) * 1000) / n
  if (found !== n) throw new Error('bench: lmdb lost writes')
  await db.close()
  return { writeSecs, readUs }
}

async function levelRun(dir: string, n: number, sync: boolean): Promise<{ writeSecs: number; readUs: number }> {
  const db = new ClassicLevel<string, number>(join(dir, `level-${sync}`), { valueEncoding: 'json' })
  await db.open()
  const t0 = performance.now()
  let batch: { type: 'put'; key: string; value: number }[] = []
  for (let i = 0; i < n; i++) {
    batch.push({ type: 'put', key: key(i), value: 1 })
    if (batch.length === BATCH) {
      await db.batch(batch, { sync })
      batch = []
    }
  }
  if (batch.length) await db.batch(batch, { sync })
  const writeSecs = (performance.now() - t0) / 1000
  const t1 = performance.now()
  let found = 0
  for (let i = 0; i < n; i++) if (db.getSync(key(i)) !== undefined) found++
  const readUs = ((performance.now() - t1) * 1000) / n
  if (found !== n) throw new Error('bench: classic-level lost writes')
  await db.close()
  return { writeSecs, readUs }
}

export default async function main(): Promise<BenchSection[]> {
  const dir = mkdtempSync(join(os.tmpdir(), 'oec-bench-store-'))
  try {
    const lm = await lmdbRun(dir, WRITES, false)
    const lv = await levelRun(dir, WRITES, false)
    const lmSync = await lmdbRun(dir, SYNCED_WRITES, true)
    const lvSync = await levelRun(dir, SYNCED_WRITES, true)
    const perSec = (n: number, secs: number) => `${Math.round(n / secs).toLocaleString('en-US')} writes/s`
    return [
      {
        title: `Embedded stores: ${BATCH} writes per commit (one event-loop turn of requests), synchronous point reads`,
        rows: [
          {
            name: 'lmdb: committed writes, no fsync',
            value: perSec(WRITES, lm.writeSecs),
            ratio: `${(lv.writeSecs / lm.writeSecs).toFixed(2)}× classic-level`,
          },
          { name: 'classic-level: committed writes, no fsync', value: perSec(WRITES, lv.writeSecs) },
          {
            name: 'lmdb: committed writes, fsync per commit',
            value: perSec(SYNCED_WRITES, lmSync.writeSecs),
            ratio: `${(lvSync.writeSecs / lmSync.writeSecs).toFixed(2)}× classic-level`,
          },
          { name: 'classic-level: committed writes, fsync per commit', value: perSec(SYNCED_WRITES, lvSync.writeSecs) },
          {
            name: 'lmdb: synchronous point read',
            value: `${lm.readUs.toFixed(2)} µs`,
            ratio: `${(lv.readUs / lm.readUs).toFixed(2)}× faster than classic-level`,
          },
          { name: 'classic-level: synchronous point read (getSync)', value: `${lv.readUs.toFixed(2)} µs` },
        ],
        notes: [
          `${WRITES.toLocaleString('en-US')} keys shaped like the server's nonce keys; fsync rows over ${SYNCED_WRITES.toLocaleString('en-US')} writes`,
        ],
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
