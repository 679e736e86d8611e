/**
 * `oec serve --data DIR` on a full disk, against the real binary on a small tmpfs: once a commit
 * fails, writes answer 503 `not_ready` with Retry-After, reads are still served, and when space
 * returns writes succeed again without a restart; a restart then lists every acknowledged order.
 * Skipped where this machine cannot mount a tmpfs (not root).
 */
import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { operationErrorCodes, operationRoutes } from '../../src/contract/generated/index.ts'
import { startServe } from '../helpers/cli.ts'
import { call, signedOrder, wallet, type Wallet } from './helpers.ts'

const mnt = mkdtempSync(join(tmpdir(), 'oec-full-'))
let mounted = false
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mnt], { stdio: 'ignore' })
  mounted = true
} catch {
  // Not allowed here: the test is skipped.
}
afterAll(() => {
  if (mounted) execFileSync('umount', [mnt])
  rmSync(mnt, { recursive: true, force: true })
})

/** Fills the file system with a filler file until ENOSPC. */
function fill(file: string): void {
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(4096, 1)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
  } finally {
    closeSync(fd)
  }
}

describe.skipIf(!mounted)('a full disk under --data', () => {
  it('refuses writes with 503 and Retry-After, serves reads, recovers without a restart, loses no acknowledged order', async () => {
    const dir = join(mnt, 'store')
    const filler = join(mnt, 'filler')
    const s = startServe(['--port', '0', '--data', dir])
    const a = await s.ready
    const acked: { wallet: Wallet; orderId: string }[] = []
    const place = async (tag: string) => {
      const w = wallet()
      const res = await call(a, 'POST', '/order', await signedOrder(w, { clientId: `${tag}`, price: '7' }))
      if (res.status === 200) acked.push({ wallet: w, orderId: (res.json as { order_id: string }).order_id })
      return res
    }
    try {
      for (let i = 0; i < 20; i++) expect((await place(`before${i}`)).status).toBe(200)
      fill(filler)
      // Orders until a commit fails: LMDB first reuses the room its file already has.
      let refused: Awaited<ReturnType<typeof place>> | undefined
      for (let i = 0; i < 3000 && !refused; i++) {
        const res = await place(`full${i}`)
        if (res.status !== 200) refused = res
      }
      expect(refused?.status).toBe(503)
      expect((refused?.json as { code?: string } | undefined)?.code).toBe('not_ready')
      expect(refused?.headers.get('retry-after')).toBe('1')
      // Still full: a new write is refused at once, a read is served.
      const again = await place('still-full')
      expect(again.status).toBe(503)
      const read = await call(a, 'GET', `/orders?wallet=${acked[0]!.wallet.address}`)
      expect(read.status).toBe(200)
      expect((read.json as { orders: { order_id: string }[] }).orders.map((o) => o.order_id)).toContain(acked[0]!.orderId)
      // Every operation as the spec declares it: a write whose spec declares the 503 `not_ready`
      // gets it (refused before its body is read), any other operation is served.
      let writes = 0
      for (const [op, route] of Object.entries(operationRoutes)) {
        if (route.method === 'GET') continue
        const declared = (operationErrorCodes[op as keyof typeof operationErrorCodes] as Record<number, readonly string[]>)[503] ?? []
        const res = await call(a, route.method, route.path, '{"type":"meta"}')
        if (declared.includes('not_ready')) {
          writes++
          expect(res.status, `${route.method} ${route.path}`).toBe(503)
          expect((res.json as { code?: string }).code).toBe('not_ready')
          expect(res.headers.get('retry-after')).toBe('1')
        } else expect(res.status, `${route.method} ${route.path} is a read`).toBe(200)
      }
      expect(writes).toBeGreaterThan(0)

      // Space returns: writes succeed again in the same process.
      rmSync(filler)
      let back = false
      for (let i = 0; i < 100 && !back; i++) {
        const res = await place(`after${i}`)
        back = res.status === 200
        if (!back) await new Promise((r) => setTimeout(r, 100))
      }
      expect(back).toBe(true)
      expect(s.child.exitCode).toBe(null)
    } finally {
      s.child.kill('SIGTERM')
      expect(await a.exit, a.stderr()).toBe(0)
    }

    // Every acknowledged order is there after a restart.
    const t = startServe(['--port', '0', '--data', dir])
    const b = await t.ready
    try {
      for (const x of acked) {
        const listed = await call(b, 'GET', `/orders?wallet=${x.wallet.address}`)
        expect(
          (listed.json as { orders: { order_id: string }[] }).orders.map((o) => o.order_id),
          x.orderId,
        ).toContain(x.orderId)
      }
    } finally {
      t.child.kill('SIGTERM')
      await b.exit
    }
  }, 90_000)
})
