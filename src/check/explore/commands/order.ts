/** An options order of a sequence wallet, signed by the wallet, one of its agents or a stranger. */
import { both } from '../pair.ts'
import { orderAssumption, orderBody, orderFields, signerKey } from '../bodies.ts'
import { observe, tookEffect, type Observed } from '../observe.ts'
import { state } from '../state.ts'
import { AGENTS } from '../steps.ts'
import { changed, plain, repeat, type Command, type StepOf } from './command.ts'

function ids(t: Observed, o: Observed, field: string): { target?: string; oracle?: string } {
  const get = (x: Observed) => (x.json as Record<string, unknown> | undefined)?.[field]
  const [a, b] = [get(t), get(o)]
  return { ...(typeof a === 'string' ? { target: a } : {}), ...(typeof b === 'string' ? { oracle: b } : {}) }
}

export const order: Command<StepOf<'order'>> = {
  ops: ['order'],
  parties: (step) => (typeof step.signer === 'object' ? [`w${step.wallet}`, `a${step.signer.agent % AGENTS}`] : [`w${step.wallet}`]),
  toString: plain,

  async run(step, { world: w }) {
    const { ledger, invariants } = w
    const addr = w.wallets[step.wallet]!.address
    const clientId = ledger.clientId(step.wallet, step.order.clientId)
    const nonce = ledger.nonce(addr, step.nonce)
    const assumed = orderAssumption(w, step.order, clientId)
    const body = await orderBody(
      w,
      orderFields(w, step.wallet, step.order, nonce, clientId),
      signerKey(w, step.wallet, step.signer),
      step.sig,
    )
    const [te, oe] = await both(w.pair, 'placeOrder', body)
    w.record(step, [te], [oe])
    const t = observe(te, 'order')
    const o = observe(oe, 'order')
    const verdict = w.answer(
      t,
      o,
      {
        kind: 'order',
        rateLimited: true,
        ...(assumed ? { assumedAcceptance: assumed } : {}),
        neverRests: step.order.tif !== 'gtc',
        routeOmitted: step.order.route === null,
        nonceRule: step.nonce === 'retry' ? 'NONCE-5' : 'NONCE-4',
        ...(w.routeBaseline ? { routeBaseline: w.routeBaseline } : {}),
      },
      addr,
    )
    if (verdict === 'rolled') return verdict
    ledger.lastClientId[step.wallet] = clientId
    ledger.settle(addr, nonce, tookEffect(o))
    const out = [...verdict]
    if (tookEffect(t)) {
      out.push(...invariants.nonceTaken(addr, nonce), ...invariants.ordersTaken(addr, t, 1))
      if (step.order.route !== null && !assumed) w.routeBaseline = new Set(Object.keys(t.headers))
    }
    if (tookEffect(t) || tookEffect(o)) {
      ledger.known.add(addr)
      ledger.placed.push({ wallet: step.wallet, clientId, ...ids(t, o, 'order_id') })
    }
    if (out.length || !changed(t, o)) return out
    return state(w, [step.wallet])
  },

  async burstBody(step, { world: w }, n) {
    const addr = w.wallets[step.wallet]!.address
    const clientId = w.ledger.clientId(step.wallet, step.order.clientId)
    const nonce = w.ledger.nonce(addr, step.nonce)
    const text = await orderBody(
      w,
      orderFields(w, step.wallet, step.order, nonce, clientId),
      signerKey(w, step.wallet, step.signer),
      step.sig,
    )
    return {
      op: 'placeOrder',
      kind: 'order',
      wallets: [step.wallet],
      bodies: repeat(n, { text, account: addr, nonce, wallet: step.wallet, clientId }),
    }
  },
}
