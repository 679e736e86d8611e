/** The batch operations of one wallet: bulk place (some items signed on the wrong chain), bulk replace, bulk cancel. */
import type { RuleId } from '../../../contract/generated/rules.ts'
import type { OperationId } from '../../../contract/generated/types.ts'
import { both } from '../pair.ts'
import { cancelAssumption, cancelBody, cancelTarget, orderAssumption, orderBody, orderFields } from '../bodies.ts'
import { observe, type AnswerKind, type Observed } from '../observe.ts'
import { state } from '../state.ts'
import { changed, plain, type Command, type StepOf } from './command.ts'

export const bulk: Command<StepOf<'bulk-place' | 'bulk-replace' | 'bulk-cancel'>> = {
  ops: ['bulk-place', 'bulk-replace', 'bulk-cancel'],
  parties: (step) => [`w${step.wallet}`],
  toString: plain,

  async run(step, { world: w }) {
    const { ledger, invariants } = w
    const addr = w.wallets[step.wallet]!.address
    const key = w.wallets[step.wallet]!.privateKey
    const itemsT: string[] = []
    const itemsO: string[] = []
    const nonces: bigint[] = []
    const clientIds: string[] = []
    let op: OperationId
    let kind: AnswerKind = 'batch'
    let rule: RuleId | undefined
    const assumptions: (RuleId | undefined)[] = []
    if (step.op === 'bulk-place') {
      op = 'placeOrders'
      for (const [i, o] of step.orders.entries()) {
        const n = ledger.nonce(addr, 'fresh')
        const cid = ledger.clientId(step.wallet, o.clientId)
        assumptions.push(orderAssumption(w, o, cid))
        const text = await orderBody(w, orderFields(w, step.wallet, o, n, cid), key, step.bad[i] ? 'chain' : 'none')
        itemsT.push(text), itemsO.push(text), nonces.push(n), clientIds.push(cid)
      }
    } else if (step.op === 'bulk-replace') {
      op = 'replaceOrders'
      kind = 'replace'
      for (const [i, r] of step.refs.entries()) {
        const p = ledger.ref(r)
        const o = step.orders[i % step.orders.length]!
        const cn = ledger.nonce(addr, 'fresh')
        const n = ledger.nonce(addr, 'fresh')
        const cid = ledger.clientId(step.wallet, o.clientId)
        assumptions.push(orderAssumption(w, o, cid))
        const order = await orderBody(w, orderFields(w, step.wallet, o, n, cid), key)
        for (const [side, items] of [
          ['target', itemsT],
          ['oracle', itemsO],
        ] as const) {
          const cancel = await cancelBody(w, addr, 'oid', cancelTarget('oid', p, side), cn, key)
          items.push(`{"cancel":${cancel},"order":${order}}`)
        }
        nonces.push(n), clientIds.push(cid)
      }
    } else {
      op = step.by === 'oid' ? 'cancelOrders' : 'cancelOrdersByClientId'
      rule = step.by === 'oid' ? 'EP-5' : 'EP-6'
      for (const r of step.refs) {
        const p = ledger.ref(r)
        assumptions.push(cancelAssumption(w, step.by, p))
        const n = ledger.nonce(addr, 'fresh')
        itemsT.push(await cancelBody(w, addr, step.by, cancelTarget(step.by, p, 'target'), n, key))
        itemsO.push(step.by === 'oid' ? await cancelBody(w, addr, step.by, cancelTarget(step.by, p, 'oracle'), n, key) : itemsT.at(-1)!)
        nonces.push(n)
      }
    }
    const prop = step.op === 'bulk-place' ? 'orders' : step.op === 'bulk-replace' ? 'replacements' : 'cancels'
    const [te, oe] = await both(w.pair, op, `{"${prop}":[${itemsT.join(',')}]}`, `{"${prop}":[${itemsO.join(',')}]}`)
    w.record(step, [te], [oe])
    const t = observe(te, kind)
    const o = observe(oe, kind)
    // The batch as a whole is taken on an assumption when every item the reference took is.
    const tookByOracle = assumptions.filter((_a, i) => o.items?.[i] === 'accepted')
    const whole = tookByOracle.length > 0 && tookByOracle.every((a) => a !== undefined) ? tookByOracle[0] : undefined
    const verdict = w.answer(
      t,
      o,
      { kind, rateLimited: true, itemAssumptions: assumptions, ...(rule ? { rule } : {}), ...(whole ? { assumedAcceptance: whole } : {}) },
      addr,
    )
    if (verdict === 'rolled') return verdict
    const out = [...verdict]
    for (const [i, n] of nonces.entries()) {
      ledger.settle(addr, n, o.items?.[i] === 'accepted')
      if (t.items?.[i] === 'accepted') out.push(...invariants.nonceTaken(addr, n))
    }
    if (step.op !== 'bulk-cancel') {
      out.push(...invariants.ordersTaken(addr, t, t.items?.filter((x) => x === 'accepted').length ?? 0))
      const resultsOf = (x: Observed) => ((x.json as { results?: unknown[] } | undefined)?.results ?? []) as Record<string, unknown>[]
      const pick = (r: Record<string, unknown> | undefined) =>
        step.op === 'bulk-replace' ? (r?.order as Record<string, unknown> | undefined) : r
      for (const [i, cid] of clientIds.entries()) {
        if (t.items?.[i] !== 'accepted' && o.items?.[i] !== 'accepted') continue
        const tid = pick(resultsOf(t)[i])?.order_id
        const oid = pick(resultsOf(o)[i])?.order_id
        ledger.placed.push({
          wallet: step.wallet,
          clientId: cid,
          ...(typeof tid === 'string' ? { target: tid } : {}),
          ...(typeof oid === 'string' ? { oracle: oid } : {}),
        })
        ledger.lastClientId[step.wallet] = cid
        ledger.known.add(addr)
      }
    }
    if (out.length || !changed(t, o)) return out
    return state(w, [step.wallet])
  },
}
