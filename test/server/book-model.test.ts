/**
 * The exchange's price-level book against a model written the plain way: every resting order in
 * one list per side, kept in price-then-time order by inserting after every order at a better or
 * equal price, prices compared as exact fractions. Random sequences of gtc/ioc/fok orders and
 * cancels, with one price written several ways ("1.5", "1.50"), must give the same statuses,
 * fills, depth and open-order counts.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MatchingEngine, type OrderInput } from '../../src/server/matching-engine.ts'
import { propertyRuns } from '../helpers/mutation.ts'

const SYM = 'ETH-20261225-4000-P'
const CAPS = { maxOpenOrders: 1000, maxPositions: -1 }
const WALLETS = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000b2']
const PRICES = ['1', '1.0', '1.5', '1.50', '2', '2.25', '3']
const SIZES = ['1', '0.5', '2', '1.25']

/** Exact value of a plain decimal as a fraction over 10^4 (every generated text has ≤ 2 fraction digits). */
const units = (text: string): bigint => {
  const [whole = '0', frac = ''] = text.split('.')
  return BigInt(whole) * 10_000n + BigInt(frac.padEnd(4, '0'))
}
const text = (u: bigint): string => {
  const whole = u / 10_000n
  const frac = (u % 10_000n).toString().padStart(4, '0').replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : `${whole}`
}

interface ModelOrder {
  id: string
  wallet: string
  buy: boolean
  price: bigint
  size: bigint
  filled: bigint
  status: string
}

/** The plain model: one list per side, resting orders in priority order. */
class Model {
  bids: ModelOrder[] = []
  asks: ModelOrder[] = []
  all = new Map<string, ModelOrder>()
  seq = 0

  place(input: OrderInput): string {
    const o: ModelOrder = {
      id: String(++this.seq),
      wallet: input.wallet,
      buy: input.side === 'Buy',
      price: units(input.price),
      size: units(input.size),
      filled: 0n,
      status: 'OPEN',
    }
    this.all.set(o.id, o)
    const opposite = o.buy ? this.asks : this.bids
    const crosses = (m: ModelOrder) => (o.buy ? m.price <= o.price : m.price >= o.price)
    if (input.tif === 'fok') {
      const available = opposite.filter(crosses).reduce((n, m) => n + m.size - m.filled, 0n)
      if (available < o.size) {
        o.status = 'REJECTED'
        return o.id
      }
    }
    while (opposite.length > 0 && o.filled < o.size && crosses(opposite[0]!)) {
      const m = opposite[0]!
      const qty = o.size - o.filled < m.size - m.filled ? o.size - o.filled : m.size - m.filled
      m.filled += qty
      o.filled += qty
      if (m.filled === m.size) {
        m.status = 'FILLED'
        opposite.shift()
      }
    }
    if (o.filled === o.size) o.status = 'FILLED'
    else if (input.tif === 'gtc') {
      const side = o.buy ? this.bids : this.asks
      const at = side.findIndex((m) => (o.buy ? m.price < o.price : m.price > o.price))
      side.splice(at < 0 ? side.length : at, 0, o)
    } else o.status = 'CANCELED'
    return o.id
  }

  cancel(id: string): void {
    const o = this.all.get(id)
    if (o?.status !== 'OPEN') return
    const side = o.buy ? this.bids : this.asks
    side.splice(side.indexOf(o), 1)
    o.status = 'CANCELED'
  }

  depth(side: ModelOrder[]): { price: string; size: string }[] {
    const out: { price: bigint; size: bigint }[] = []
    for (const o of side) {
      const last = out[out.length - 1]
      if (last && last.price === o.price) last.size += o.size - o.filled
      else out.push({ price: o.price, size: o.size - o.filled })
    }
    return out.map((l) => ({ price: text(l.price), size: text(l.size) }))
  }
}

const step = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      wallet: fc.constantFrom(...WALLETS),
      side: fc.constantFrom('Buy' as const, 'Sell' as const),
      price: fc.constantFrom(...PRICES),
      size: fc.constantFrom(...SIZES),
      tif: fc.constantFrom('gtc', 'gtc', 'ioc', 'fok'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(40) }) },
)

describe('price-level book', () => {
  it('matches the plain price-time list model on random order flows', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const ex = new MatchingEngine([SYM])
        const model = new Model()
        const ids: string[] = []
        for (const s of steps) {
          if (s.kind === 'place') {
            const input: OrderInput = {
              wallet: s.wallet,
              symbol: SYM,
              side: s.side,
              size: s.size,
              price: s.price,
              tif: s.tif,
              route: 'book_only',
              clientId: `c${ids.length}`,
            }
            const out = ex.place(input, CAPS, 0)
            const id = model.place(input)
            if (out.kind === 'limit') throw new Error('no cap can bite here')
            expect(out.order.id).toBe(id)
            ids.push(id)
          } else if (ids.length > 0) {
            const id = ids[s.pick % ids.length]!
            const o = ex.order(id)!
            ex.cancel(o.input.wallet, { orderId: id })
            model.cancel(id)
          }
          for (const [id, m] of model.all) {
            const o = ex.order(id)!
            expect([o.status, text(o.filled.coef * 10n ** BigInt(4 - o.filled.scale))]).toEqual([m.status, text(m.filled)])
          }
          expect(ex.depth(SYM)).toEqual({ bids: model.depth(model.bids), asks: model.depth(model.asks) })
          for (const w of WALLETS)
            expect(ex.openOrders(w)).toBe([...model.all.values()].filter((m) => m.wallet === w && m.status === 'OPEN').length)
        }
      }),
      { numRuns: propertyRuns(300), seed: 20261123 },
    )
  })
})
