/**
 * Requests sent to the target all at once, then to the reference one by one in the order the
 * target's answers suggest (what it took first): a burst (one step's request n times: one nonce)
 * or a flood (n different resting orders of one wallet: n nonces). Judged by the invariants, not
 * by pairs of answers: which of two racing requests wins is the target's call.
 */
import type { HttpExchange } from '../../target/http.ts'
import { pathOf, route } from '../../target/routes.ts'
import { orderBody, orderFields } from '../bodies.ts'
import { divergence, type Divergence } from '../compare.ts'
import { observe, tookEffect, type Observed } from '../observe.ts'
import { state } from '../state.ts'
import type { OrderSpec } from '../steps.ts'
import type { StepVerdict } from '../world.ts'
import { uniqueByRule, type Built, type BuiltBody, type Command, type Ctx, type StepOf } from './command.ts'

type Burst = StepOf<'burst' | 'flood'>

/** n resting buys far below any ask: one request each, or (bulk) batches of up to 10. */
async function floodBodies(step: StepOf<'flood'>, { world: w }: Ctx): Promise<Built> {
  const wallet = w.wallets[step.wallet]!
  const orders: BuiltBody[] = []
  for (let i = 0; i < step.n; i++) {
    const nonce = w.ledger.nonce(wallet.address, 'fresh')
    const clientId = w.ledger.clientId(step.wallet, 'new')
    const spec: OrderSpec = { symbol: 0, side: 'Buy', size: '1', price: '1', tif: 'gtc', route: 'book_only', clientId: 'new' }
    const text = await orderBody(w, orderFields(w, step.wallet, spec, nonce, clientId), wallet.privateKey)
    orders.push({ text, account: wallet.address, nonce, wallet: step.wallet, clientId })
  }
  if (!step.bulk) return { op: 'placeOrder', kind: 'order', wallets: [step.wallet], bodies: orders }
  const bodies: BuiltBody[] = []
  for (let i = 0; i < orders.length; i += 10) {
    const part = orders.slice(i, i + 10)
    bodies.push({
      text: `{"orders":[${part.map((b) => b.text).join(',')}]}`,
      account: wallet.address,
      nonce: part[0]!.nonce,
      wallet: step.wallet,
      batch: part.map((b) => ({ nonce: b.nonce, ...(b.clientId !== undefined ? { clientId: b.clientId } : {}) })),
    })
  }
  return { op: 'placeOrders', kind: 'batch', wallets: [step.wallet], bodies }
}

async function burstBodies(step: StepOf<'burst'>, ctx: Ctx): Promise<Built> {
  // The inner step's body, built without sending: the same text n times.
  const inner = ctx.command(step.step.op)
  if (!inner.burstBody) throw new Error(`a burst of ${step.step.op} steps has no single request to repeat`)
  return inner.burstBody(step.step, ctx, step.n)
}

export const burst: Command<Burst> = {
  ops: ['burst', 'flood'],
  parties: (step, ctx) => (step.op === 'burst' ? ctx.command(step.step.op).parties(step.step, ctx) : [`w${step.wallet}`]),
  toString: (s, describe) =>
    s.op === 'burst'
      ? `${s.n}× at once: ${describe(s.step)}`
      : `${s.n} different resting orders of wallet ${s.wallet} at once${s.bulk ? ' (half in bulk batches)' : ''}`,

  async run(step, ctx): Promise<StepVerdict> {
    const w = ctx.world
    const built = step.op === 'burst' ? await burstBodies(step, ctx) : await floodBodies(step, ctx)
    const { method } = route(w.pair, built.op)
    const path = pathOf(w.pair, built.op)
    const tx = await Promise.all(built.bodies.map((b) => w.pair.target.send(method, path, { body: b.text })))
    const ts = tx.map((e) => observe(e, built.kind))
    const order = ts.map((t, i) => [tookEffect(t) ? 0 : 1, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1])
    const ox: HttpExchange[] = new Array(tx.length)
    for (const [, i] of order) ox[i] = await w.pair.oracle.send(method, path, { body: built.bodies[i]!.text })
    w.record(step, tx, ox)
    const os = ox.map((e) => observe(e, built.kind))
    const out: Divergence[] = []
    for (const [i, t] of ts.entries()) {
      const o = os[i]!
      // A request of a burst the target did not answer (a dropped connection under load) leaves nothing to compare.
      if (t.status === 0) return 'rolled'
      if (t.outcome === 'server' && o.outcome !== 'server')
        out.push(divergence(built.kind === 'order' ? 'PO-9' : 'EP-9', `the target answered ${t.status} to a request of the burst`))
      const b = built.bodies[i]!
      // A batch's items, or the request itself as its one item.
      const items = b.batch ?? [{ nonce: b.nonce, clientId: b.clientId }]
      const took = (x: Observed, j: number) => (b.batch ? x.items?.[j] === 'accepted' : tookEffect(x))
      const field = (x: Observed, j: number) => {
        const r = b.batch
          ? ((x.json as { results?: Record<string, unknown>[] } | undefined)?.results?.[j] ?? {})
          : ((x.json ?? {}) as Record<string, unknown>)
        return typeof r.order_id === 'string' ? r.order_id : undefined
      }
      let units = 0
      for (const [j, item] of items.entries()) {
        w.ledger.settle(b.account, item.nonce, took(o, j))
        if (took(t, j)) {
          units++
          out.push(...w.invariants.nonceTaken(b.account, item.nonce))
        }
        if ((took(t, j) || took(o, j)) && item.clientId !== undefined && built.kind !== 'agent' && built.kind !== 'perp') {
          const [tid, oid] = [field(t, j), field(o, j)]
          w.ledger.placed.push({
            wallet: b.wallet,
            clientId: item.clientId,
            ...(tid ? { target: tid } : {}),
            ...(oid ? { oracle: oid } : {}),
          })
        }
      }
      if (built.kind !== 'agent' && built.kind !== 'cancel') out.push(...w.invariants.ordersTaken(b.account, t, units))
    }
    const dedup = uniqueByRule(out)
    if (dedup.length) return dedup
    // A correct target that let other requests win leaves the two states apart: nothing after is comparable.
    const taken = (xs: Observed[]) => xs.map((x) => (tookEffect(x) ? 1 : 0) as number).reduce((a, b) => a + b, 0)
    if (taken(ts) !== taken(os)) return 'rolled'
    return state(w, built.wallets)
  },
}
