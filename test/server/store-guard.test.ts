/**
 * `oec serve --data DIR` refuses what it cannot serve safely, against the real binary: a second
 * server on the same DIR, a store whose file was truncated, deleted, swapped for another program's
 * database or written by another format version, and a matrix of damaged files. Each refusal is
 * one line and exit 2, and no refused store ever serves (so a replay of an old order is never
 * ACKED); a damaged file that still opens keeps every acknowledged order and refuses its replay.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { open } from 'lmdb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runOec, startServe } from '../helpers/cli.ts'
import { call, signedOrder, wallet, type Wallet } from './helpers.ts'

const root = mkdtempSync(join(tmpdir(), 'oec-guard-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

interface Acked {
  wallet: Wallet
  body: string
  orderId: string
}

/** A store with `n` acknowledged orders, its server stopped by SIGTERM. */
let store: string
const acked: Acked[] = []
beforeAll(async () => {
  store = join(root, 'store')
  const s = startServe(['--port', '0', '--data', store])
  const a = await s.ready
  for (let i = 0; i < 40; i++) {
    const w = wallet()
    const body = await signedOrder(w, { clientId: `g${i}`, price: `${1 + (i % 5)}`, side: i % 2 ? 'Sell' : 'Buy' })
    const res = await call(a, 'POST', '/order', body)
    expect(res.status).toBe(200)
    acked.push({ wallet: w, body, orderId: (res.json as { order_id: string }).order_id })
  }
  s.child.kill('SIGTERM')
  expect(await a.exit).toBe(0)
}, 60_000)

function copy(name: string): string {
  const dir = join(root, name)
  cpSync(store, dir, { recursive: true })
  return dir
}

/** The user-facing lines of a refusal (the start-up notes are not printed before it). */
const lines = (stderr: string) => stderr.split('\n').filter((l) => l !== '')

/** Starts a server on `dir`: refused (exit 2, one line) or serving every acknowledged order, never a replay ACKED. */
async function refusedOrIntact(dir: string): Promise<'refused' | 'intact'> {
  const s = startServe(['--port', '0', '--data', dir])
  let served: Awaited<typeof s.ready>
  try {
    served = await s.ready
  } catch (err) {
    // startServe rejects with the exit code and stderr once the process has ended.
    const m = /^oec serve exited (\S+): ([\s\S]*)$/.exec((err as Error).message)
    expect(m?.[1], String(err)).toBe('2')
    expect(lines(m![2]!)).toHaveLength(1)
    return 'refused'
  }
  try {
    for (const x of acked) {
      const listed = await call(served, 'GET', `/orders?wallet=${x.wallet.address}`)
      expect((listed.json as { orders: { order_id: string }[] }).orders.map((o) => o.order_id)).toContain(x.orderId)
      const replay = await call(served, 'POST', '/order', x.body)
      expect(replay.status, `replay of ${x.orderId}`).toBe(409)
    }
    return 'intact'
  } finally {
    s.child.kill('SIGTERM')
    await served.exit
  }
}

async function refusal(dir: string): Promise<string> {
  const run = await runOec(['serve', '--port', '0', '--data', dir], { timeoutMs: 30_000 })
  expect(run.stdout).not.toContain('listening')
  expect(run.code).toBe(2)
  expect(lines(run.stderr)).toHaveLength(1)
  return run.stderr
}

describe('one owner per --data DIR', () => {
  it('a second server on the same DIR exits 2 with one line naming the first one’s pid', async () => {
    const dir = copy('locked')
    const first = startServe(['--port', '0', '--data', dir])
    const a = await first.ready
    try {
      const line = await refusal(dir)
      expect(line).toContain(`pid ${first.child.pid}`)
      // The first one still serves.
      expect((await call(a, 'GET', `/orders?wallet=${acked[0]!.wallet.address}`)).status).toBe(200)
    } finally {
      first.child.kill('SIGKILL')
      await a.exit
    }
    // kill -9 leaves the lock file; its pid is dead, so the next server starts.
    expect(await refusedOrIntact(dir)).toBe('intact')
  }, 60_000)
})

describe('a store that is not this store is refused in one line', () => {
  it.each([
    ['truncated to 0 bytes', (d: string) => truncateSync(join(d, 'data.mdb'), 0), /damaged store/],
    ['data.mdb deleted', (d: string) => rmSync(join(d, 'data.mdb')), /data\.mdb is missing/],
    ['header deleted', (d: string) => rmSync(join(d, 'oec-store.json')), /not an oec store/],
    [
      'another format version',
      (d: string) => {
        const h = JSON.parse(readFileSync(join(d, 'oec-store.json'), 'utf8')) as Record<string, unknown>
        writeFileSync(join(d, 'oec-store.json'), JSON.stringify({ ...h, version: 99 }))
      },
      /format version 99/,
    ],
    ['a truncated header', (d: string) => truncateSync(join(d, 'oec-store.json'), 20), /truncated or not JSON/],
    [
      'another program’s LMDB database in place of data.mdb',
      async (d: string) => {
        const other = join(root, `foreign-${Math.random()}`)
        const db = open<unknown, string>({ path: other, noSubdir: false })
        for (let i = 0; i < 100; i++) await db.put(`key${i}`, { some: 'value', i })
        await db.close()
        cpSync(join(other, 'data.mdb'), join(d, 'data.mdb'))
      },
      /does not hold this store/,
    ],
  ])(
    '%s',
    async (name, damage, why) => {
      const dir = copy(`case-${name.replace(/\W+/g, '-')}`)
      await damage(dir)
      // Refused, so no replay can be answered; and a second start on the same DIR is refused too.
      expect(await refusal(dir)).toMatch(why)
      expect(await refusedOrIntact(dir)).toBe('refused')
    },
    60_000,
  )

  it('a foreign directory with data and no header is refused', async () => {
    const dir = join(root, 'foreign-dir')
    const db = open<unknown, string>({ path: dir, noSubdir: false })
    await db.put('x', 1)
    await db.close()
    expect(await refusal(dir)).toMatch(/not an oec store \(no oec-store\.json/)
  }, 30_000)
})

describe('a crash matrix of damaged data files: refused in one line, or intact', () => {
  const PAGE = 4096
  // A fixed generator: the same bytes every run.
  let seed = 40
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
  const scribble = (file: string, at: number, length: number) => {
    const fd = openSync(file, 'r+')
    writeSync(fd, Buffer.from(Array.from({ length }, () => Math.floor(rand() * 256))), 0, length, at)
    closeSync(fd)
  }
  const cases: [string, (file: string, size: number) => void][] = [
    ['truncated to one page', (f) => truncateSync(f, PAGE)],
    ['truncated to half', (f, size) => truncateSync(f, Math.floor(size / 2 / PAGE) * PAGE)],
    ['truncated mid-page', (f, size) => truncateSync(f, size - 1000)],
    ['meta page 0 scribbled', (f) => scribble(f, 0, PAGE)],
    ['both meta pages scribbled', (f) => scribble(f, 0, 2 * PAGE)],
    ['page 2 scribbled', (f) => scribble(f, 2 * PAGE, PAGE)],
    ['page 3 scribbled', (f) => scribble(f, 3 * PAGE, PAGE)],
    ['last page scribbled', (f, size) => scribble(f, size - PAGE, PAGE)],
    ['random bytes over the whole file', (f, size) => scribble(f, 0, size)],
    [
      'a few bytes in every page',
      (f, size) => {
        for (let at = 0; at < size; at += PAGE) scribble(f, at + 100 + Math.floor(rand() * 3000), 8)
      },
    ],
  ]
  it.each(cases)(
    '%s',
    async (name, damage) => {
      const dir = copy(`crash-${name.replace(/\W+/g, '-')}`)
      const file = join(dir, 'data.mdb')
      damage(file, statSync(file).size)
      expect(['refused', 'intact']).toContain(await refusedOrIntact(dir))
    },
    60_000,
  )

  // Reading every record never reads the free list's own pages: a file scribbled there used to
  // start, then answer every write 503 (a commit that failed) or die under it ("last page
  // scribbled" above, when that page was the free list's). Found through the meta page as LMDB
  // (the version lmdb ships) lays it out: a 24-byte page header, the magic, then each database's
  // record (48 bytes, the free list's first, its root page last); the newer txn id is current.
  it('a scribbled free-list page is refused before serving', async () => {
    const dir = copy('crash-free-list')
    const file = join(dir, 'data.mdb')
    const bytes = readFileSync(file)
    const metas = [0, PAGE].map((at) => {
      expect(bytes.readUInt32LE(at + 24), 'the LMDB magic where this test expects it').toBe(0xbeefc0de)
      return { freeRoot: Number(bytes.readBigUInt64LE(at + 88)), txn: bytes.readBigUInt64LE(at + 152) }
    })
    const { freeRoot } = metas[0]!.txn > metas[1]!.txn ? metas[0]! : metas[1]!
    expect(freeRoot).toBeGreaterThan(1)
    expect((freeRoot + 1) * PAGE).toBeLessThanOrEqual(bytes.length)
    scribble(file, freeRoot * PAGE + 24, PAGE - 24)
    const damaged = readFileSync(file)
    const line = await refusal(dir)
    // The trial write was aborted: the file is as the damage left it.
    expect(readFileSync(file).equals(damaged)).toBe(true)
    // LMDB says so, or crashes reading it (a page number past the file): the child's crash, named.
    expect(line, line).toMatch(/its free list is damaged|a trial write to data\.mdb \(its free list\) crashed/)
  }, 30_000)

  // Reading every record never touches the pages only the free list names: a file cut there used
  // to start and die under its first write (a flaky "truncated mid-page" above).
  it('a file cut mid-way through its last page is refused whatever that page holds', async () => {
    const dir = copy('crash-cut-last-page')
    const file = join(dir, 'data.mdb')
    truncateSync(file, statSync(file).size - 1000)
    expect(await refusal(dir)).toMatch(/ends before the last page its database uses \(truncated\)/)
  }, 30_000)
})
