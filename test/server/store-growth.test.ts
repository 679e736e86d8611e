/**
 * Bounded growth under `--data`: finished orders past `--retain` leave the store (oldest finished
 * first, as in memory mode), LMDB reuses their pages, and a wallet's consumed nonces are runs, so
 * with wallets that count their nonces up the file stops growing; a forgotten order's replay is
 * still refused and its id is never given again, across a restart too. Versions 1 and 2 of the
 * store are migrated. The same store driven to 500,000 orders is
 * `npm run bench -- store-growth`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { open, type RootDatabase } from 'lmdb'
import { afterAll, describe, expect, it } from 'vitest'
import { HEADER_FILE } from '../../src/server/persist/header.ts'
import { openGrowthRun, type GrowthRun } from '../helpers/store-growth.ts'
import { startServe } from '../helpers/cli.ts'
import { call, signedOrder, wallet } from './helpers.ts'

const root = mkdtempSync(join(tmpdir(), 'oec-growth-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const STEP = 6000
const STEPS = 4
const RETAIN = 1000

/** Bytes the file grew per order over the steps after the first (the steady state). */
async function growth(dir: string, retain: number | undefined): Promise<{ perOrder: number; run: ReturnType<typeof openGrowthRun> }> {
  const run = openGrowthRun(dir, retain)
  await run.place(STEP)
  const first = run.fileBytes()
  for (let i = 1; i < STEPS; i++) await run.place(STEP)
  return { perOrder: (run.fileBytes() - first) / ((STEPS - 1) * STEP), run }
}

/** A store of 100 orders made to look as format `version` wrote it: `rewrite` edits its records. */
async function olderStore(
  name: string,
  version: number,
  rewrite: (db: RootDatabase<unknown, string>, run: GrowthRun) => Promise<void>,
): Promise<{ dir: string }> {
  const dir = join(root, name)
  const run = openGrowthRun(dir, undefined)
  await run.place(100)
  await run.data.close()
  const db = open<unknown, string>({ path: dir, noSubdir: false, compression: false })
  await rewrite(db, run)
  await db.close()
  const header = JSON.parse(readFileSync(join(dir, HEADER_FILE), 'utf8')) as Record<string, unknown>
  writeFileSync(join(dir, HEADER_FILE), JSON.stringify({ ...header, version }))
  return { dir }
}

const headerVersion = (dir: string) => (JSON.parse(readFileSync(join(dir, HEADER_FILE), 'utf8')) as { version: number }).version

describe('finished orders past --retain leave the store', () => {
  it('the file grows by a fraction of what it does without retain, and the forgotten orders are gone', async () => {
    const all = await growth(join(root, 'all'), undefined)
    await all.run.data.close()
    const bounded = await growth(join(root, 'bounded'), RETAIN)
    const { run } = bounded
    try {
      // Without retain every order's record stays (several hundred bytes); with it, pages freed by
      // the forgotten orders are reused.
      expect(all.perOrder).toBeGreaterThan(400)
      expect(bounded.perOrder).toBeLessThan(all.perOrder / 3)
      const total = STEP * STEPS
      expect(run.data.archive.horizon()).toEqual({ complete: false, retain: RETAIN, forgottenThrough: String(total - RETAIN) })
      // The oldest are gone from the store, the newest `retain` are there.
      expect(run.engine.order('1')).toBeUndefined()
      expect(run.engine.order(String(total - RETAIN))).toBeUndefined()
      expect(run.engine.order(String(total - RETAIN + 1))?.status).toBe('FILLED')
      // A forgotten order's nonce stays consumed.
      const early = run.nonceOf(0)
      expect(run.data.nonces.has(early.wallet, early.nonce)).toBe(true)
    } finally {
      await run.data.close()
    }
    // After a restart: the horizon, the consumed nonce, and the next id past every id given.
    const again = openGrowthRun(join(root, 'bounded'), RETAIN)
    try {
      expect(again.data.archive.horizon().forgottenThrough).toBe(String(STEP * STEPS - RETAIN))
      expect(again.data.nonces.has(again.nonceOf(0).wallet, again.nonceOf(0).nonce)).toBe(true)
      const next = again.engine.place(
        {
          wallet: again.nonceOf(0).wallet,
          symbol: again.engine.instruments[0]!,
          side: 'Buy',
          size: '1',
          price: '1',
          tif: 'gtc',
          route: 'book_only',
          clientId: 'next',
        },
        { maxOpenOrders: 10, maxPositions: -1 },
        Date.now(),
      )
      expect(next.kind === 'accepted' && next.order.seq).toBe(STEP * STEPS + 1)
    } finally {
      await again.data.close()
    }
  }, 60_000)

  it('retain 0 keeps no finished order and still gives every id once', async () => {
    const run = openGrowthRun(join(root, 'zero'), 0)
    await run.place(200)
    await run.data.close()
    const again = openGrowthRun(join(root, 'zero'), 0)
    try {
      expect(again.data.archive.horizon().forgottenThrough).toBe('200')
      expect(again.engine.order('200')).toBeUndefined()
      await again.place(2)
      expect(again.data.archive.horizon().forgottenThrough).toBe('202')
    } finally {
      await again.data.close()
    }
  }, 30_000)

  it('a version-1 store is migrated: its finished orders enter the queue and retain bounds them', async () => {
    // What version 1 wrote: no queue, no `!forgotten`.
    const { dir } = await olderStore('v1', 1, async (db) => {
      for (const key of db.getKeys({ start: 'f:', end: 'f:\uffff' })) await db.remove(key)
    })
    const again = openGrowthRun(dir, 10)
    try {
      await again.place(2)
      expect(again.data.archive.horizon().forgottenThrough).toBe('92')
      expect(again.engine.order('92')).toBeUndefined()
      expect(again.engine.order('93')?.status).toBe('FILLED')
    } finally {
      await again.data.close()
    }
    expect(headerVersion(dir)).toBe(3)
  }, 30_000)

  it('a version-2 store is migrated: its one-record-a-nonce entries become runs, every nonce still consumed', async () => {
    // What version 2 wrote: `n:<wallet>:<nonce>` → 1 for each consumed nonce.
    const { dir } = await olderStore('v2', 2, async (db, run) => {
      const runs = [...db.getKeys({ start: 'n:', end: 'n:\uffff' })]
      expect(runs.length).toBe(16)
      for (const key of runs) await db.remove(key)
      for (let i = 0; i < 100; i++) {
        const { wallet, nonce } = run.nonceOf(i)
        await db.put(`n:${wallet}:${nonce}`, 1)
      }
    })
    const again = openGrowthRun(dir, undefined)
    try {
      for (let i = 0; i < 100; i++) expect(again.data.nonces.has(again.nonceOf(i).wallet, again.nonceOf(i).nonce)).toBe(true)
      expect(again.data.nonces.has(again.nonceOf(100).wallet, again.nonceOf(100).nonce)).toBe(false)
    } finally {
      await again.data.close()
    }
    expect(headerVersion(dir)).toBe(3)
    // One run a wallet on disk, and a restart after the migration reads the same.
    const after = open<unknown, string>({ path: dir, noSubdir: false, compression: false, readOnly: true })
    const keys = [...after.getKeys({ start: 'n:', end: 'n:\uffff' })]
    await after.close()
    expect(keys.length).toBe(16)
    const third = openGrowthRun(dir, undefined)
    try {
      expect(third.data.nonces.has(third.nonceOf(99).wallet, third.nonceOf(99).nonce)).toBe(true)
    } finally {
      await third.data.close()
    }
  }, 30_000)
})

describe('the data file stops growing', () => {
  it('60,000 orders with --retain 1000 and wallets counting their nonces up: the file plateaus', async () => {
    const run = openGrowthRun(join(root, 'plateau'), RETAIN)
    const sizes: number[] = []
    try {
      for (let i = 0; i < 10; i++) {
        await run.place(STEP)
        sizes.push(run.fileBytes())
      }
    } finally {
      await run.data.close()
    }
    // From 12,000 orders on (retain reached long since), 48,000 more orders add under 10% to the
    // file, under 3 B an order: LMDB's page slack, against several hundred bytes an order kept.
    const plateau = sizes[1]!
    expect(sizes.at(-1)!, sizes.join(' ')).toBeLessThan(plateau * 1.1)
    expect((sizes.at(-1)! - plateau) / (8 * STEP), sizes.join(' ')).toBeLessThan(3)
  }, 60_000)

  it('sparse nonces (milliseconds) still cost one record each: the honest limit', async () => {
    const run = openGrowthRun(join(root, 'sparse'), RETAIN, 'sparse')
    try {
      await run.place(STEP)
      const first = run.fileBytes()
      await run.place(2 * STEP)
      expect((run.fileBytes() - first) / (2 * STEP)).toBeGreaterThan(50)
    } finally {
      await run.data.close()
    }
  }, 60_000)
})

describe('a forgotten order over HTTP, the real binary with --data --retain 2', () => {
  it('its replay is refused (409), before and after a restart, and its id is not given again', async () => {
    const dir = join(root, 'http')
    const w = wallet()
    const bodies: string[] = []
    const ids: string[] = []
    const s = startServe(['--port', '0', '--data', dir, '--retain', '2'])
    const a = await s.ready
    try {
      for (let i = 0; i < 5; i++) {
        const body = await signedOrder(w, { clientId: `f${i}`, tif: 'ioc', price: '1' })
        const res = await call(a, 'POST', '/order', body)
        expect(res.status).toBe(200)
        bodies.push(body)
        ids.push((res.json as { order_id: string }).order_id)
      }
      const listed = (await call(a, 'GET', `/orders?wallet=${w.address}`)).json as { orders: { order_id: string }[] }
      expect(listed.orders.map((o) => o.order_id)).toEqual(ids.slice(3))
      expect((await call(a, 'POST', '/order', bodies[0]!)).status).toBe(409)
    } finally {
      s.child.kill('SIGTERM')
      expect(await a.exit).toBe(0)
    }
    const t = startServe(['--port', '0', '--data', dir, '--retain', '2'])
    const b = await t.ready
    try {
      for (const body of bodies) expect((await call(b, 'POST', '/order', body)).status).toBe(409)
      const res = await call(b, 'POST', '/order', await signedOrder(w, { clientId: 'after', tif: 'ioc', price: '1' }))
      expect(Number((res.json as { order_id: string }).order_id)).toBe(Number(ids[4]) + 1)
    } finally {
      t.child.kill('SIGTERM')
      await b.exit
    }
  }, 60_000)
})
