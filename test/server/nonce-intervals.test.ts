/**
 * Consumed nonces as runs (src/server/nonce-intervals.ts), against a plain Set as the model:
 * any sequence of nonces (rising, falling, repeated, with gaps) gives the same answers, and the
 * runs stay sorted, disjoint and non-adjacent. Then the `--data` store: the same property through
 * its nonce store, closed and opened again (the runs as written are what a restart reads).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { shippedContract } from '../../src/contract/load.ts'
import { defaultConfig } from '../../src/server/config.ts'
import { addNonce, covers, type Run } from '../../src/server/nonce-intervals.ts'
import { openDataDir } from '../../src/server/persist/data-dir.ts'

const root = mkdtempSync(join(tmpdir(), 'oec-nonce-runs-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Small nonces collide and touch often; a few near 2^64 - 1 test the top of the range. */
const nonceArb = fc.oneof(
  { weight: 8, arbitrary: fc.bigInt({ min: 0n, max: 40n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 2n ** 64n - 4n, max: 2n ** 64n - 1n }) },
)

function wellFormed(runs: readonly Run[]): boolean {
  return runs.every(([s, e], i) => s <= e && (i === 0 || runs[i - 1]![1] + 1n < s))
}

describe('nonce runs against a Set', () => {
  it('answer as the Set does after any sequence of consumes', () => {
    fc.assert(
      fc.property(fc.array(nonceArb, { maxLength: 60 }), fc.array(nonceArb, { maxLength: 20 }), (added, probes) => {
        const runs: Run[] = []
        const model = new Set<bigint>()
        for (const n of added) {
          const change = addNonce(runs, n)
          // A change is reported exactly when the nonce was new.
          expect(change === undefined).toBe(model.has(n))
          model.add(n)
          expect(wellFormed(runs)).toBe(true)
        }
        for (const n of [...added, ...probes]) expect(covers(runs, n)).toBe(model.has(n))
        // Runs never hold more than the Set: their sizes sum to its size.
        expect(runs.reduce((sum, [s, e]) => sum + (e - s + 1n), 0n)).toBe(BigInt(model.size))
      }),
      { seed: 40, numRuns: 500 },
    )
  })

  it('a wallet counting up costs one run', () => {
    const runs: Run[] = []
    for (let n = 1000n; n < 2000n; n++) addNonce(runs, n)
    expect(runs).toEqual([[1000n, 1999n]])
  })
})

describe('the --data store keeps the runs across a restart', () => {
  const contract = (() => {
    const c = defaultConfig(shippedContract())
    return `${c.domainName}/${c.chainId}`
  })()
  let k = 0

  it('after close and open, every consumed nonce is refused and no other', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), nonceArb), { maxLength: 40 }),
        fc.array(nonceArb, { maxLength: 10 }),
        async (consumed, probes) => {
          const dir = join(root, `d${k++}`)
          const wallets = ['0x' + 'a'.repeat(40), '0x' + 'B'.repeat(40), '0x' + 'c1'.repeat(20)]
          const model = new Map<string, Set<bigint>>(wallets.map((w) => [w, new Set()]))
          const first = openDataDir(dir, contract)
          for (const [w, n] of consumed) {
            first.nonces.consume(wallets[w]!, n)
            model.get(wallets[w]!)!.add(n)
          }
          await first.close()
          const again = openDataDir(dir, contract)
          try {
            for (const w of wallets)
              for (const n of [...consumed.map(([, x]) => x), ...probes]) expect(again.nonces.has(w, n)).toBe(model.get(w)!.has(n))
          } finally {
            await again.close()
          }
        },
      ),
      { seed: 40, numRuns: 12 },
    )
  }, 60_000)

  // Only the recently used wallets' runs stay in memory: one that left the cache is read again
  // from the store (its writes not yet committed included) and still refuses what it consumed.
  it('a wallet read again after 1,500 others answers as before, committed or not', async () => {
    const data = openDataDir(join(root, 'many'), contract)
    try {
      const wallet = (i: number) => `0x${i.toString(16).padStart(40, '0')}`
      data.nonces.consume(wallet(0), 7n)
      data.nonces.consume(wallet(0), 8n)
      for (let i = 1; i <= 1500; i++) data.nonces.consume(wallet(i), BigInt(i))
      // Wallet 0 has left the cache; its runs are read back with the queued writes.
      expect([7n, 8n, 9n].map((n) => data.nonces.has(wallet(0), n))).toEqual([true, true, false])
      data.nonces.consume(wallet(0), 9n)
      await data.settled()
      for (let i = 1; i <= 1500; i++) data.nonces.consume(wallet(10_000 + i), 1n)
      expect([6n, 7n, 8n, 9n, 10n].map((n) => data.nonces.has(wallet(0), n))).toEqual([false, true, true, true, false])
      expect(data.nonces.has(wallet(1500), 1500n)).toBe(true)
      expect(data.nonces.has(wallet(1500), 1501n)).toBe(false)
    } finally {
      await data.close()
    }
  }, 60_000)
})
