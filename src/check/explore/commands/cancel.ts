/** A cancel of an earlier order (or one nobody placed) by order id or by client id. */
import { both } from '../pair.ts'
import { cancelAssumption, cancelBody, cancelTarget, signerKey } from '../bodies.ts'
import { observe, tookEffect } from '../observe.ts'
import { state } from '../state.ts'
import { AGENTS } from '../steps.ts'
import { changed, plain, repeat, type Command, type StepOf } from './command.ts'

export const cancel: Command<StepOf<'cancel'>> = {
  ops: ['cancel'],
  parties(step, { world: w }) {
    const out = [`w${step.wallet}`]
    if (typeof step.signer === 'object') out.push(`a${step.signer.agent % AGENTS}`)
    const p = w.ledger.ref(step.ref)
    if (p && p.wallet >= 0) out.push(`w${p.wallet}`)
    return out
  },
  toString: plain,

  async run(step, { world: w }) {
    const addr = w.wallets[step.wallet]!.address
    const p = w.ledger.ref(step.ref)
    const nonce = w.ledger.nonce(addr, step.nonce)
    const key = signerKey(w, step.wallet, step.signer)
    const bodyT = await cancelBody(w, addr, step.by, cancelTarget(step.by, p, 'target'), nonce, key)
    const bodyO = step.by === 'oid' ? await cancelBody(w, addr, step.by, cancelTarget(step.by, p, 'oracle'), nonce, key) : bodyT
    const [te, oe] = await both(w.pair, 'cancelOrder', bodyT, bodyO)
    w.record(step, [te], [oe])
    const t = observe(te, 'cancel')
    const o = observe(oe, 'cancel')
    const assumed = cancelAssumption(w, step.by, p)
    const verdict = w.answer(
      t,
      o,
      {
        kind: 'cancel',
        rateLimited: true,
        nonceRule: step.nonce === 'retry' ? 'NONCE-5' : 'NONCE-4',
        ...(assumed ? { assumedAcceptance: assumed } : {}),
      },
      addr,
    )
    if (verdict === 'rolled') return verdict
    w.ledger.settle(addr, nonce, tookEffect(o))
    const out = [...verdict, ...(tookEffect(t) ? w.invariants.nonceTaken(addr, nonce) : [])]
    if (out.length || !changed(t, o)) return out
    return state(w, p && p.wallet >= 0 && p.wallet !== step.wallet ? [step.wallet, p.wallet] : [step.wallet])
  },

  async burstBody(step, { world: w }, n) {
    const addr = w.wallets[step.wallet]!.address
    const p = w.ledger.ref(step.ref)
    const nonce = w.ledger.nonce(addr, step.nonce)
    const text = await cancelBody(w, addr, step.by, cancelTarget(step.by, p, 'target'), nonce, signerKey(w, step.wallet, step.signer))
    // Cancel by order id carries the target's id: the reference gets the same text (its own id differs), so only cloid cancels compare.
    return {
      op: 'cancelOrder',
      kind: 'cancel',
      wallets: [step.wallet],
      bodies: repeat(n, { text, account: addr, nonce, wallet: step.wallet }),
    }
  },
}
