/**
 * Signature checks batched per event-loop turn: deferred to the end of the turn, run back to
 * back in arrival order, each answer going to its own request; and over HTTP, orders sent at once
 * get the verdicts they would get one by one (a tampered one among them refused, a repeated
 * nonce accepted once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchedVerifier } from '../../src/server/verify-batch.ts'
import { verifyOptions } from '../helpers/shipped.ts'
import { post, signedOrder, start, wallet, type Started } from './helpers.ts'

const turn = () => new Promise<void>((r) => setImmediate(r))

describe('batchedVerifier', () => {
  it('runs the calls of one turn together at its end, in arrival order, each promise with its own answer', async () => {
    const calls: number[] = []
    const verify = (n: number) => {
      calls.push(n)
      return n * 10
    }
    const batched = batchedVerifier(verify)
    expect(batchedVerifier(verify)).toBe(batched)
    const settled: number[] = []
    const all = [1, 2, 3].map((n) => batched(n).then((r) => (settled.push(n), r)))
    expect(calls).toEqual([])
    await turn()
    expect(calls).toEqual([1, 2, 3])
    expect(await Promise.all(all)).toEqual([10, 20, 30])
    expect(settled).toEqual([1, 2, 3])
    // A later turn is a batch of its own.
    const later = batched(4)
    expect(calls).toEqual([1, 2, 3])
    expect(await later).toBe(40)
  })

  it('a call that throws rejects its own promise only', async () => {
    const batched = batchedVerifier((n: number) => {
      if (n === 2) throw new Error('two')
      return n
    })
    const out = await Promise.allSettled([batched(1), batched(2), batched(3)])
    expect(out.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([1, 'two', 3])
  })
})

describe('orders sent at once', () => {
  let s: Started
  const batchSizes: number[] = []
  let inTurn = 0
  beforeAll(async () => {
    // The deps seam, recording how many checks ran in one turn: the batching is exercised.
    const counting: typeof verifyOptions = (...args) => {
      if (inTurn++ === 0)
        setImmediate(() => {
          batchSizes.push(inTurn)
          inTurn = 0
        })
      return verifyOptions(...args)
    }
    s = await start({}, { verifyOptions: counting })
  })
  afterAll(() => s.close())

  it('each gets its own verdict: tampered ones 401, the rest ACKED with their own client id, a repeated nonce once', async () => {
    const w = wallet()
    const other = wallet()
    // A wallet per order: an answer that went to another request names a signer this wallet never approved.
    const bodies = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const own = wallet()
        const f = { clientId: `b${i}`, nonce: BigInt(1000 + i) }
        // Every fifth order is signed by a stranger's key: it must be refused, alone.
        return { i, tampered: i % 5 === 4, body: await signedOrder(own, f, {}, i % 5 === 4 ? other.key : own.key) }
      }),
    )
    const repeated = await signedOrder(w, { clientId: 'again', nonce: 5000n })
    const answers = await Promise.all([
      ...bodies.map((b) => post(s, '/order', b.body)),
      ...[1, 2, 3].map(() => post(s, '/order', repeated)),
    ])
    for (const b of bodies) {
      const r = answers[b.i]!
      if (b.tampered) expect([r.status, r.json.code], `order ${b.i}`).toEqual([401, 'signature_verification_failed'])
      else expect([r.status, r.json.status, r.json.client_id], `order ${b.i}`).toEqual([200, 'ACKED', `b${b.i}`])
    }
    const again = answers.slice(30).map((r) => (r.json.status === 'ACKED' ? 'ACKED' : r.json.code))
    expect(again.sort()).toEqual(['ACKED', 'nonce_reused', 'nonce_reused'])
    expect(Math.max(...batchSizes)).toBeGreaterThan(1)
  })
})
