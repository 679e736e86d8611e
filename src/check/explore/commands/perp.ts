/** A perp order or cancel, signed by a wallet or an agent, for the signer's account or a vault. */
import type { RuleId } from '../../../contract/generated/rules.ts'
import type { HttpExchange } from '../../target/http.ts'
import { perpOrderAction } from '../../target/requests.ts'
import { both } from '../pair.ts'
import { assetOf, perpAccount, perpBody, perpSigner, UNKNOWN_ID } from '../bodies.ts'
import { divergence } from '../compare.ts'
import { observe, tookEffect, type Observed } from '../observe.ts'
import { state } from '../state.ts'
import { AGENTS } from '../steps.ts'
import { changed, plain, repeat, type Command, type StepOf } from './command.ts'

type PerpStep = StepOf<'perp-order' | 'perp-cancel'>

export const perp: Command<PerpStep> = {
  ops: ['perp-order', 'perp-cancel'],
  parties(step, { world: w }) {
    const out = 'wallet' in step.signer ? [`w${step.signer.wallet}`] : [`a${step.signer.agent % AGENTS}`]
    const account = perpAccount(w, step)
    if (account.wallet >= 0) out.push(`w${account.wallet}`)
    return out
  },
  toString: plain,

  async run(step, { world: w }) {
    const { ledger, invariants } = w
    const signer = perpSigner(w, step)
    const account = perpAccount(w, step)
    const nonce = ledger.nonce(account.address, step.nonce)
    const cloids: string[] = []
    // Each side's expiry on its own clock: the two bodies differ only there (and in a cancel's oid).
    const expiry = w.expiresAfter(step.expires)
    const signed = (action: Record<string, unknown>, side: 'target' | 'oracle') =>
      perpBody(w, action, signer.privateKey, nonce, step.vault, expiry?.[side])
    let bodyT: string
    let bodyO: string
    if (step.op === 'perp-order') {
      const orders = step.orders.map((o) => {
        const cloid = `0x${ledger.serial().toString(16).padStart(32, '0')}`
        cloids.push(cloid)
        return { asset: assetOf(w, o.asset), isBuy: o.buy, price: o.price, size: o.size, tif: o.tif, cloid }
      })
      bodyT = await signed(perpOrderAction(orders), 'target')
      bodyO = expiry ? await signed(perpOrderAction(orders), 'oracle') : bodyT
    } else {
      const p = ledger.ref(step.ref)
      const asset = p?.asset ?? 0
      const action = (side: 'target' | 'oracle') =>
        step.by === 'cloid'
          ? { type: 'cancelByCloid', cancels: [{ asset, cloid: p?.clientId.startsWith('0x') ? p.clientId : `0x${'ab'.repeat(16)}` }] }
          : {
              type: 'cancel',
              cancels: [
                { a: asset, o: step.ref === 'big' ? 2n ** 53n + 1n : BigInt(/^\d+$/.test(p?.[side] ?? '') ? p![side]! : UNKNOWN_ID) },
              ],
            }
      bodyT = await signed(action('target'), 'target')
      bodyO = step.by === 'cloid' && !expiry ? bodyT : await signed(action('oracle'), 'oracle')
    }
    const [te, oe] = await both(w.pair, 'perpExchange', bodyT, bodyO)
    w.record(step, [te], [oe])
    const t = observe(te, 'perp')
    const o = observe(oe, 'perp')
    const says = (e: HttpExchange) => String((e.response?.json as { response?: unknown } | undefined)?.response ?? '')
    // Which account a perp request acts for when it names no vault, and whether a signer the
    // server has no state for is refused, are assumed (PERP-6, PERP-7): an auth difference there is
    // the other documented choice, whichever side made it.
    const viaAgent = !('wallet' in step.signer) && step.vault === undefined
    const assumedAuth: RuleId | undefined =
      /vaultAddress/.test(says(oe)) || /vaultAddress/.test(says(te)) || viaAgent
        ? 'PERP-6'
        : !ledger.known.has(signer.address)
          ? 'PERP-7'
          : undefined
    let verdict = w.answer(t, o, { kind: 'perp', rateLimited: true }, account.address, step.op === 'perp-order' ? step.orders.length : 1)
    if (verdict === 'rolled') return verdict
    if (assumedAuth && (o.outcome === 'auth' || t.outcome === 'auth'))
      verdict = verdict.map((d) => (d.rule === 'AUTH-2' ? divergence(assumedAuth, d.what) : d))
    // An expired action the reference refused: a difference is about the expiry (PERP-8 names its refusal).
    if (expiry && step.expires !== 'ahead' && o.outcome !== 'accepted')
      verdict = verdict.map((d) =>
        d.rule === 'PERP-9' ? divergence('PERP-8', `${d.what}; its expiresAfter ${expiry.target} was past on the target's clock`) : d,
      )
    ledger.settle(account.address, nonce, tookEffect(o))
    const out = [...verdict]
    if (tookEffect(t)) {
      out.push(...invariants.nonceTaken(account.address, nonce))
      if (step.op === 'perp-order')
        out.push(...invariants.ordersTaken(account.address, t, t.items?.filter((x) => x === 'accepted').length ?? 0))
    }
    if (step.op === 'perp-order') {
      const oids = (x: Observed) =>
        (
          ((x.json as { response?: { data?: { statuses?: unknown[] } } } | undefined)?.response?.data?.statuses ?? []) as Record<
            string,
            { oid?: unknown }
          >[]
        ).map((s) => s?.resting?.oid ?? s?.filled?.oid)
      const [ti, oi] = [oids(t), oids(o)]
      for (const [i, cloid] of cloids.entries()) {
        if (ti[i] === undefined && oi[i] === undefined) continue
        ledger.placed.push({
          wallet: account.wallet,
          clientId: cloid,
          asset: assetOf(w, step.orders[i]!.asset),
          ...(ti[i] !== undefined ? { target: String(ti[i]) } : {}),
          ...(oi[i] !== undefined ? { oracle: String(oi[i]) } : {}),
        })
      }
    }
    if (out.length || !changed(t, o)) return out
    return state(w, account.wallet >= 0 ? [account.wallet] : [])
  },

  async burstBody(step, { world: w }, n) {
    const account = perpAccount(w, step)
    const nonce = w.ledger.nonce(account.address, step.nonce)
    const action =
      step.op === 'perp-order'
        ? perpOrderAction(step.orders.map((o) => ({ asset: assetOf(w, o.asset), isBuy: o.buy, price: o.price, size: o.size, tif: o.tif })))
        : { type: 'cancel', cancels: [{ a: 0, o: BigInt(UNKNOWN_ID) }] }
    const text = await perpBody(w, action, perpSigner(w, step).privateKey, nonce, step.vault)
    return {
      op: 'perpExchange',
      kind: 'perp',
      wallets: account.wallet >= 0 ? [account.wallet] : [],
      bodies: repeat(n, { text, account: account.address, nonce, wallet: account.wallet }),
    }
  },
}
