/**
 * `oec serve --data DIR` against `kill -9`: the real binary takes signed orders from concurrent
 * clients (some signed by an approved agent), is killed with SIGKILL in the middle of the load,
 * and restarted on the same directory. Every order it answered ACKED is there, every nonce it
 * consumed is refused, the agent is still approved, and the rate window carried over.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServe } from '../helpers/cli.ts'
import { SimulatedClock, startServer } from '../../src/server/index.ts'
import { call, nonce, signed, signedOrder, T0, wallet, type Wallet } from './helpers.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

interface Sent {
  wallet: Wallet
  body: string
}

describe('kill -9 under load, then restart on the same --data directory', () => {
  // --data-sync too: its answers wait for the flush, and what they answered survives the same way.
  it.each([{ flags: [] as string[] }, { flags: ['--data-sync'] }])(
    'keeps every answered order, refuses every consumed nonce, keeps agents and rate windows ($flags)',
    async ({ flags }) => {
      const dir = mkdtempSync(join(tmpdir(), 'oec-data-'))
      dirs.push(dir)
      const first = startServe(['--port', '0', '--data', dir, ...flags])
      const a = await first.ready
      expect(a.stderr()).toContain(`state in ${dir}`)

      const owner = wallet()
      const agent = wallet()
      const approved = await call(
        a,
        'POST',
        '/approve-agent',
        await signed('ApproveAgent', { agent: agent.address, nonce: nonce() }, owner.key),
      )
      expect(approved.status).toBe(200)

      // The owner's orders are signed by its agent; the rest come from many wallets (no rate limit bites).
      const work: Sent[] = []
      for (let i = 0; i < 30; i++)
        work.push({ wallet: owner, body: await signedOrder(owner, { clientId: `ag${i}`, price: `${10 + i}` }, {}, agent.key) })
      for (let i = 0; i < 330; i++) {
        const w = wallet()
        work.push({ wallet: w, body: await signedOrder(w, { clientId: `w${i}`, side: i % 2 ? 'Sell' : 'Buy', price: `${1 + (i % 9)}` }) })
      }
      work.sort(() => Math.random() - 0.5)

      const acked: (Sent & { orderId: string })[] = []
      let answered = 0
      let killed = false
      let next = 0
      const worker = async () => {
        while (next < work.length) {
          const item = work[next++]!
          let res: Awaited<ReturnType<typeof call>>
          try {
            res = await call(a, 'POST', '/order', item.body)
          } catch {
            return // the server is gone: this request was never answered
          }
          answered++
          const body = res.json as { status?: string; order_id?: string }
          if (res.status === 200 && body.status === 'ACKED') acked.push({ ...item, orderId: body.order_id! })
          if (!killed && answered >= 150) {
            killed = true
            a.child.kill('SIGKILL')
          }
        }
      }
      await Promise.all(Array.from({ length: 12 }, worker))
      await a.exit
      expect(killed).toBe(true)
      expect(acked.length).toBeGreaterThanOrEqual(150)

      const second = startServe(['--port', '0', '--data', dir, ...flags])
      const b = await second.ready
      try {
        // Every answered order is there, with its id.
        const listed = new Map<string, string[]>()
        for (const x of acked) {
          const key = x.wallet.address
          if (!listed.has(key)) {
            const r = await call(b, 'GET', `/orders?wallet=${key}`)
            listed.set(
              key,
              (r.json as { orders: { order_id: string }[] }).orders.map((o) => o.order_id),
            )
          }
          expect(listed.get(key), `order ${x.orderId} of ${key}`).toContain(x.orderId)
        }
        // Every consumed nonce is refused.
        for (const x of acked) {
          const again = await call(b, 'POST', '/order', x.body)
          expect(again.status, `replay of order ${x.orderId}`).toBe(409)
          expect((again.json as { code: string }).code).toBe('nonce_reused')
        }
        // The agent is still approved, and signs a fresh order for its owner.
        const agents = await call(b, 'GET', `/authorized-agents?wallet=${owner.address}`)
        expect((agents.json as { agents: { agent: string }[] }).agents.map((x) => x.agent.toLowerCase())).toEqual([
          agent.address.toLowerCase(),
        ])
        const fresh = await call(b, 'POST', '/order', await signedOrder(owner, { clientId: 'after', price: '5' }, {}, agent.key))
        expect(fresh.status).toBe(200)
        expect((fresh.json as { status: string }).status).toBe('ACKED')
      } finally {
        second.child.kill('SIGTERM')
        await b.exit
      }
    },
  )

  it('a restart in the same minute keeps the rate window: a wallet at its limit stays limited', async () => {
    const windowDir = mkdtempSync(join(tmpdir(), 'oec-window-'))
    const clock = new SimulatedClock(T0 + 1_000)
    const w = wallet()
    let s = await startServer({ data: windowDir, deps: { clock } })
    try {
      for (let i = 0; i < 60; i++)
        expect((await call(s, 'POST', '/order', await signedOrder(w, { clientId: `r${i}`, price: '3' }))).status).toBe(200)
      expect((await call(s, 'POST', '/order', await signedOrder(w, { clientId: 'over' }))).status).toBe(429)
      await s.close()
      s = await startServer({ data: windowDir, deps: { clock } })
      const after = await call(s, 'POST', '/order', await signedOrder(w, { clientId: 'after-restart' }))
      expect(after.status).toBe(429)
      expect(after.headers.get('x-ratelimit-remaining')).toBe('0')
      clock.advance(60_000)
      expect((await call(s, 'POST', '/order', await signedOrder(w, { clientId: 'next-window', price: '3' }))).status).toBe(200)
    } finally {
      await s.close()
      rmSync(windowDir, { recursive: true, force: true })
    }
  })
})
