/**
 * Bounded growth of `oec serve --data`: 500,000 orders (crossing pairs that fill, from 16 wallets
 * that count their nonces up, each nonce consumed) through the store's own API with `--retain
 * 10000`, the size of data.mdb sampled every 50,000 orders. Past the first retain's worth,
 * forgotten orders free their pages and LMDB reuses them, and each wallet's consumed nonces are
 * one run: the file stops growing. Peers: the same run keeping every order (what the store did
 * before `--retain` applied to it), 100,000 orders; and sparse nonces (milliseconds, with gaps),
 * 100,000 orders, where each consumed nonce is still a record of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { openGrowthRun } from '../test/helpers/store-growth.ts'
import type { BenchSection } from './types.ts'

const ORDERS = 500_000
const RETAIN = 10_000
const SAMPLE = 50_000
const PEER_ORDERS = 100_000

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

export default async function main(): Promise<BenchSection[]> {
  const dir = mkdtempSync(join(os.tmpdir(), 'oec-bench-growth-'))
  try {
    const bounded = openGrowthRun(join(dir, 'bounded'), RETAIN)
    const sizes: number[] = []
    const t0 = performance.now()
    while (bounded.placed < ORDERS) {
      await bounded.place(SAMPLE)
      sizes.push(bounded.fileBytes())
    }
    const secs = (performance.now() - t0) / 1000
    await bounded.data.close()
    // Steady state: from the first sample (10,000 retained long since) to the last.
    const steady = (sizes.at(-1)! - sizes[0]!) / (ORDERS - SAMPLE)

    const all = openGrowthRun(join(dir, 'all'), undefined)
    await all.place(PEER_ORDERS)
    const allPerOrder = all.fileBytes() / PEER_ORDERS
    await all.data.close()

    const sparse = openGrowthRun(join(dir, 'sparse'), RETAIN, 'sparse')
    await sparse.place(SAMPLE)
    const sparseFirst = sparse.fileBytes()
    await sparse.place(PEER_ORDERS - SAMPLE)
    const sparsePerOrder = (sparse.fileBytes() - sparseFirst) / (PEER_ORDERS - SAMPLE)
    await sparse.data.close()

    return [
      {
        title: `--data store growth: ${ORDERS.toLocaleString('en-US')} orders, --retain ${RETAIN.toLocaleString('en-US')} (store API, no HTTP)`,
        rows: [
          ...sizes.map((s, i) => ({ name: `data.mdb after ${((i + 1) * SAMPLE).toLocaleString('en-US')} orders`, value: mb(s) })),
          {
            name: 'bytes per order at steady state (--retain 10000)',
            value: `${Math.round(steady)} B`,
            ratio: steady > 0 ? `${(allPerOrder / steady).toFixed(1)}× less than keeping every order` : 'the file does not grow',
          },
          {
            name: `bytes per order with sparse nonces (--retain 10000, ${PEER_ORDERS.toLocaleString('en-US')} orders)`,
            value: `${Math.round(sparsePerOrder)} B`,
          },
          {
            name: `bytes per order keeping every order (${PEER_ORDERS.toLocaleString('en-US')} orders)`,
            value: `${Math.round(allPerOrder)} B`,
          },
          { name: 'orders stored per second (bounded run)', value: `${Math.round(ORDERS / secs).toLocaleString('en-US')}/s` },
        ],
        notes: [
          'consumed nonces are stored as runs per wallet: a wallet counting its nonces up is one record, so the file plateaus; sparse nonces (gaps between them) are one record each, since nonces are unique per wallet forever (the contract) and a replay of a forgotten order stays refused',
        ],
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
