/**
 * The sequence as the mixed races (races.ts) and the replay step (resend.ts) see it: the world's
 * parties, ledger, invariants and read-backs behind the small interfaces those modules name, so
 * that they stay free of the world's layout.
 */
import { sign } from '../bodies.ts'
import type { RaceWorld } from '../races.ts'
import type { ResendWorld } from '../resend.ts'
import { agentsState, state } from '../state.ts'
import type { World } from '../world.ts'

export function sequenceView(w: World): RaceWorld & ResendWorld {
  const { ledger, invariants } = w
  return {
    pair: w.pair,
    wallets: w.wallets,
    agents: w.agents,
    trace: w.trace,
    nonce: (account, pick) => ledger.nonce(account, pick),
    settle: (account, nonce, effect) => ledger.settle(account, nonce, effect),
    sign: (kind, entries, key) => sign(w, kind, entries, key),
    approved: (wallet, agent) => ledger.owners(agent).includes(wallet),
    setApproved: (wallet, agent, on) => {
      ledger.approve(agent, wallet, on)
      ledger.known.add(w.wallets[wallet]!.address)
    },
    placed: (wallet, clientId, target, oracle) => {
      ledger.known.add(w.wallets[wallet]!.address)
      ledger.placed.push({ wallet, clientId, target, oracle })
    },
    newClientId: (wallet) => ledger.clientId(wallet, 'new'),
    walletAt: (address) => {
      const i = w.wallets.findIndex((x) => x.address.toLowerCase() === address.toLowerCase())
      return i < 0 ? undefined : i
    },
    record: (step, t, o) => w.record(step, t, o),
    answer: (t, o, c, wallet) => w.answer(t, o, c, wallet),
    nonceTaken: (account, nonce) => invariants.nonceTaken(account, nonce),
    ordersTaken: (account, t, units) => invariants.ordersTaken(account, t, units),
    state: async (wallets: readonly number[], agentsOf?: number) => {
      const v = await state(w, wallets)
      if (v === 'rolled' || v.length || agentsOf === undefined) return v
      return agentsState(w, agentsOf)
    },
  }
}
