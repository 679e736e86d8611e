/**
 * `--data-sync` reaches the database and holds answers back until the data is durable. lmdb is
 * wrapped at its `open` seam: the options it receives are recorded, and the flush of a synced
 * database can be held, to show that an answer waits for it (with lmdb's default overlappingSync
 * a commit resolves before its fsync, so waiting for the commit alone would answer too early).
 * Through the binary: `oec serve --data-sync` calls fdatasync and `oec serve --data` does not
 * (counted with strace, where the machine has it).
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RootDatabase, RootDatabaseOptions } from 'lmdb'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { startServer, type RunningServer } from '../../src/server/index.ts'
import { OEC, ROOT } from '../helpers/cli.ts'
import { call, nonce, signedOrder, wallet } from './helpers.ts'

const lmdb = vi.hoisted(() => ({
  opened: [] as { options: RootDatabaseOptions; db: RootDatabase }[],
  /** While set, a synced database's `flushed` waits for it too. */
  hold: undefined as Promise<void> | undefined,
}))

vi.mock('lmdb', async (importOriginal) => {
  const real = await importOriginal<typeof import('lmdb')>()
  const open = (options: RootDatabaseOptions) => {
    const db = real.open(options)
    const flushed = db.flushed
    Object.defineProperty(db, 'flushed', {
      get: () => ({
        then: (ok: (v: boolean) => unknown, fail: (e: unknown) => unknown) =>
          Promise.resolve(lmdb.hold)
            .then(() => flushed)
            .then(ok, fail),
      }),
    })
    lmdb.opened.push({ options, db })
    return db
  }
  return { ...real, open }
})

const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'oec-sync-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

let s: RunningServer | undefined
afterEach(async () => {
  lmdb.hold = undefined
  await s?.close()
  s = undefined
})

const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 5))
}

describe('the data directory', () => {
  it('opens a directory whose name has a dot (lmdb would take it for a file) and keeps its nonces', async () => {
    const dir = join(tempDir(), 'state.db')
    const body = await signedOrder(wallet(), { clientId: 'dot' })
    s = await startServer({ data: dir })
    expect(((await call(s, 'POST', '/order', body)).json as { status: string }).status).toBe('ACKED')
    await s.close()
    s = await startServer({ data: dir })
    expect((await call(s, 'POST', '/order', body)).status).toBe(409)
  })
})

describe('dataSync reaches lmdb', () => {
  it('opens the database with syncing on only when asked', async () => {
    s = await startServer({ data: tempDir(), dataSync: true })
    expect(lmdb.opened.at(-1)?.options.noSync).toBe(false)
    await s.close()
    s = await startServer({ data: tempDir() })
    expect(lmdb.opened.at(-1)?.options.noSync).toBe(true)
  })

  it('answers an order, and a replay of it, only once the commit is flushed', async () => {
    s = await startServer({ data: tempDir(), dataSync: true })
    const { db } = lmdb.opened.at(-1)!
    let release!: () => void
    lmdb.hold = new Promise<void>((r) => (release = r))

    const w = wallet()
    const n = nonce()
    const body = await signedOrder(w, { clientId: 'durable', nonce: n })
    const answers: string[] = []
    const first = call(s, 'POST', '/order', body).then((r) => (answers.push('order'), r))
    // The nonce is committed (visible to a new read transaction) but not flushed yet.
    await until(() => db.get(`n:${w.address.toLowerCase()}:${String(n).padStart(20, '0')}`) !== undefined)
    const replay = call(s, 'POST', '/order', body).then((r) => (answers.push('replay'), r))
    await db.committed
    await new Promise((r) => setTimeout(r, 100))
    expect(answers).toEqual([])

    release()
    const [a, b] = await Promise.all([first, replay])
    expect(a.status).toBe(200)
    expect((a.json as { status: string }).status).toBe('ACKED')
    expect(b.status).toBe(409)
    expect((b.json as { code: string }).code).toBe('nonce_reused')
  })

  it('without dataSync an answer does not wait for a flush', async () => {
    s = await startServer({ data: tempDir() })
    lmdb.hold = new Promise<void>(() => {}) // never flushed: only a synced server would wait for it
    const r = await call(s, 'POST', '/order', await signedOrder(wallet(), { clientId: 'fast' }))
    expect((r.json as { status: string }).status).toBe('ACKED')
  })
})

const strace = (() => {
  try {
    // Tracing itself, not only the binary: a container without ptrace rights has strace but cannot use it.
    execFileSync('strace', ['-qq', '-e', 'trace=fdatasync', 'true'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

/** fdatasync/fsync calls of `oec serve ARGS` (every thread) while it takes `orders` orders, then stops. */
async function syncCalls(args: string[], orders: number): Promise<number> {
  const log = join(tempDir(), 'strace.log')
  const child = spawn(
    'strace',
    ['-f', '-qq', '-e', 'trace=fsync,fdatasync', '-o', log, process.execPath, OEC, 'serve', '--port', '0', ...args],
    {
      cwd: ROOT,
      env: { ...process.env, OEC_DEBUG: '' },
    },
  )
  const exited = new Promise((resolve) => child.on('close', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    void exited.then(() => reject(new Error('oec serve exited before listening')))
  })
  const w = wallet()
  for (let i = 0; i < orders; i++) {
    const r = await call({ url }, 'POST', '/order', await signedOrder(w, { clientId: `s${i}` }))
    expect(r.status).toBe(200)
  }
  // strace's own child is the server: stop it (strace then exits with it).
  const server = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0])
  process.kill(server, 'SIGTERM')
  await exited
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => /\b(fsync|fdatasync)\(/.test(l)).length
}

describe.skipIf(!strace)('oec serve --data-sync through the binary', () => {
  it('calls fdatasync for the commits of its orders; --data alone does not', async () => {
    const synced = await syncCalls(['--data', tempDir(), '--data-sync'], 5)
    const unsynced = await syncCalls(['--data', tempDir()], 5)
    expect(synced).toBeGreaterThanOrEqual(5)
    expect(unsynced).toBe(0)
  }, 60_000)
})
