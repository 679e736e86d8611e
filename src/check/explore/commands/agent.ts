/** A wallet approves or revokes one of the sequence's agents. */
import { both } from '../pair.ts'
import { agentBody } from '../bodies.ts'
import { observe, tookEffect } from '../observe.ts'
import { agentsState } from '../state.ts'
import { AGENTS } from '../steps.ts'
import { changed, plain, repeat, type Command, type StepOf } from './command.ts'

export const agent: Command<StepOf<'approve' | 'revoke'>> = {
  ops: ['approve', 'revoke'],
  parties: (step) => [`w${step.wallet}`, `a${step.agent % AGENTS}`],
  toString: plain,

  async run(step, { world: w }) {
    const wallet = w.wallets[step.wallet]!
    const nonce = w.ledger.nonce(wallet.address, step.nonce)
    const body = await agentBody(w, step.op, w.agents[step.agent % AGENTS]!.address, nonce, wallet.privateKey)
    const [te, oe] = await both(w.pair, step.op === 'approve' ? 'approveAgent' : 'revokeAgent', body)
    w.record(step, [te], [oe])
    const t = observe(te, 'agent')
    const o = observe(oe, 'agent')
    const verdict = w.answer(t, o, { kind: 'agent', rateLimited: true }, wallet.address)
    if (verdict === 'rolled') return verdict
    w.ledger.settle(wallet.address, nonce, tookEffect(o))
    if (tookEffect(o)) {
      w.ledger.known.add(wallet.address)
      w.ledger.approve(step.agent % AGENTS, step.wallet, step.op === 'approve')
    }
    const out = [...verdict, ...(tookEffect(t) ? w.invariants.nonceTaken(wallet.address, nonce) : [])]
    if (out.length || !changed(t, o)) return out
    return agentsState(w, step.wallet)
  },

  async burstBody(step, { world: w }, n) {
    const wallet = w.wallets[step.wallet]!
    const nonce = w.ledger.nonce(wallet.address, step.nonce)
    const text = await agentBody(w, step.op, w.agents[step.agent % AGENTS]!.address, nonce, wallet.privateKey)
    return {
      op: step.op === 'approve' ? 'approveAgent' : 'revokeAgent',
      kind: 'agent',
      wallets: [],
      bodies: repeat(n, { text, account: wallet.address, nonce, wallet: step.wallet }),
    }
  },
}
