/**
 * A mixed race: the owner cancels an open order while another wallet takes it in full, both sent
 * to the target at once. Which one wins is the target's call; that the cancel is answered as done
 * and the order still fills in full is never right (a lost update), whatever the order of arrival.
 */
import { formatDec, parseDec, sub } from '../../../server/decimal.ts'
import type { HttpExchange } from '../../target/http.ts'
import { route } from '../../target/routes.ts'
import { cancelBody, orderBody } from '../bodies.ts'
import type { Divergence } from '../compare.ts'
import { lostUpdate } from '../invariants.ts'
import { observe, tookEffect } from '../observe.ts'
import { both } from '../pair.ts'
import { orderRecord, state } from '../state.ts'
import { WALLETS } from '../steps.ts'
import { plain, type Command, type StepOf } from './command.ts'

type Race = StepOf<'race'>

/** The wallet that takes in a race: never the order's owner. */
function takerOf(step: Race, owner: number): number {
  return step.taker === owner ? (owner + 1) % WALLETS : step.taker
}

export const race: Command<Race> = {
  ops: ['race'],
  parties(step, { world: w }) {
    const p = w.ledger.ref(step.ref)
    return p && p.wallet >= 0 ? [`w${p.wallet}`, `w${takerOf(step, p.wallet)}`] : []
  },
  toString: plain,

  async run(step, { world: w }) {
    const { ledger, pair } = w
    const p = ledger.ref(step.ref)
    if (!p || p.wallet < 0 || p.target === undefined || p.oracle === undefined) return []
    const owner = w.wallets[p.wallet]!
    const [tl, ol] = await both(pair, 'listOrders', undefined, undefined, { wallet: owner.address })
    const rec = orderRecord(tl, p.target)
    // Only an order open on both sides can be raced for.
    if (rec?.status !== 'OPEN' || orderRecord(ol, p.oracle)?.status !== 'OPEN') return []
    const takerAt = takerOf(step, p.wallet)
    const taker = w.wallets[takerAt]!
    const cancelNonce = ledger.nonce(owner.address, 'fresh')
    const cancelOf = (id: string) => cancelBody(w, owner.address, 'oid', id, cancelNonce, owner.privateKey)
    const [cancelT, cancelO] = [await cancelOf(p.target), await cancelOf(p.oracle)]
    const takeNonce = ledger.nonce(taker.address, 'fresh')
    const clientId = ledger.clientId(takerAt, 'new')
    const take = await orderBody(
      w,
      {
        wallet: taker.address,
        symbol: rec.symbol,
        side: rec.side === 'Buy' ? 'Sell' : 'Buy',
        size: formatDec(sub(parseDec(rec.size), parseDec(rec.filled_size))),
        price: rec.price,
        tif: 'ioc',
        route: 'book_only',
        clientId,
        nonce: takeNonce,
      },
      taker.privateKey,
    )
    const cancel = route(pair, 'cancelOrder')
    const place = route(pair, 'placeOrder')
    const [tc, tt] = await Promise.all([
      pair.target.send(cancel.method, cancel.path, { body: cancelT }),
      pair.target.send(place.method, place.path, { body: take }),
    ])
    const [cT, tT] = [observe(tc, 'cancel'), observe(tt, 'order')]
    // The oracle in the order the target's answers suggest: the cancel first when it was done.
    const sendCancel = () => pair.oracle.send(cancel.method, cancel.path, { body: cancelO })
    const sendTake = () => pair.oracle.send(place.method, place.path, { body: take })
    let oc: HttpExchange
    let ot: HttpExchange
    if (tookEffect(cT)) {
      oc = await sendCancel()
      ot = await sendTake()
    } else {
      ot = await sendTake()
      oc = await sendCancel()
    }
    const [cO, tO] = [observe(oc, 'cancel'), observe(ot, 'order')]
    const [after, afterO] = await both(pair, 'listOrders', undefined, undefined, { wallet: owner.address })
    w.record(step, [tc, tt, after], [oc, ot, afterO])
    ledger.settle(owner.address, cancelNonce, tookEffect(cO))
    ledger.settle(taker.address, takeNonce, tookEffect(tO))
    const id = (e: HttpExchange) => (e.response?.json as { order_id?: unknown } | undefined)?.order_id
    const [tid, oid] = [id(tt), id(ot)]
    ledger.placed.push({
      wallet: takerAt,
      clientId,
      ...(typeof tid === 'string' ? { target: tid } : {}),
      ...(typeof oid === 'string' ? { oracle: oid } : {}),
    })
    if (tc.response === undefined || tt.response === undefined) return 'rolled'
    const out: Divergence[] = []
    if (tookEffect(cT)) out.push(...w.invariants.nonceTaken(owner.address, cancelNonce))
    if (tookEffect(tT)) out.push(...w.invariants.nonceTaken(taker.address, takeNonce), ...w.invariants.ordersTaken(taker.address, tT, 1))
    const end = orderRecord(after, p.target)
    out.push(...lostUpdate(p.target, tc.response.status, tookEffect(cT), end))
    if (out.length) return out
    // Another order of arrival on the oracle (or a partial fill before the cancel on one side only)
    // leaves the two states apart: nothing after is comparable.
    const same = JSON.stringify(end) === JSON.stringify(orderRecord(afterO, p.oracle))
    if (!same || tookEffect(cT) !== tookEffect(cO) || tT.outcome !== tO.outcome) return 'rolled'
    return state(w, [p.wallet, takerAt])
  },
}
