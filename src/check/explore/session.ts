/**
 * One explored sequence: fresh wallets and agents, each step run by its kind's command
 * (commands/) on the target and on the reference server (same keys, nonces and bodies; an order
 * id is each side's own id for the same order), both answers compared (compare.ts), the visible
 * state read back from both after every write (state.ts), and the invariants no answer order can
 * excuse checked on the target alone (invariants.ts). The session itself orchestrates: it begins
 * and cleans up a sequence, runs its steps and adopts the parties of an allowed difference.
 */
import type { Hex } from '../../signing/index.ts'
import { pathOf, route } from '../target/routes.ts'
import type { Wallet } from '../target/wallets.ts'
import { cancelBody } from './bodies.ts'
import { commandFor, contextOf, type Ctx } from './commands/index.ts'
import { both, type Pair } from './pair.ts'
import { orderIds } from './state.ts'
import { WALLETS, type Step } from './steps.ts'
import { World, type StepVerdict, type TraceStep } from './world.ts'

export type { StepVerdict, TraceStep } from './world.ts'

export class ExploreSession {
  private readonly world: World
  private readonly ctx: Ctx
  /** Parties (`w<i>`, `a<j>`) whose state the oracle took from the target after an allowed difference. */
  private readonly adopted = new Set<string>()

  constructor(
    private readonly pair: Pair,
    keyFor: (label: string) => Hex,
  ) {
    this.world = new World(pair, keyFor)
    this.ctx = contextOf(this.world)
  }

  get trace(): TraceStep[] {
    return this.world.trace
  }

  /** The steps run, as drawn (a trace entry is a request group: a fill makes several). */
  get steps(): Step[] {
    return this.world.steps
  }

  /** The addresses whose orders the cleanup cancels. */
  accounts(): string[] {
    return [...this.world.wallets, ...this.world.agents].map((w) => w.address)
  }

  /**
   * Cancels what the sequence's parties still have open, on each side by its own ids: after a
   * sequence stopped at a difference the two books no longer match, and a later sequence's order
   * must not trade with what is left of this one.
   */
  async cleanup(): Promise<void> {
    await this.cancelOpen([...this.world.wallets, ...this.world.agents])
  }

  /**
   * Before the first step: the tier wallet is not fresh (earlier runs, the named checks, earlier
   * sequences of this shard traded with it), so what it has open is cancelled and the orders it
   * already has on each side are left out of the listings this sequence compares.
   */
  async begin(): Promise<void> {
    if (!this.pair.tierWallet) return
    const w = this.world.wallets[WALLETS - 1]!
    await this.cancelOpen([w])
    const [te, oe] = await both(this.pair, 'listOrders', undefined, undefined, { wallet: w.address })
    this.world.earlier = { target: orderIds(te), oracle: orderIds(oe) }
  }

  private async cancelOpen(parties: readonly Wallet[]): Promise<void> {
    for (const side of [this.pair.target, this.pair.oracle]) {
      for (const w of parties) {
        const list = await side.send('GET', pathOf(this.pair, 'listOrders', { wallet: w.address }))
        const open = ((list.response?.json as { orders?: { order_id?: unknown; status?: unknown }[] } | undefined)?.orders ?? [])
          .filter((o) => o.status === 'OPEN' && typeof o.order_id === 'string')
          .map((o) => o.order_id as string)
        for (let i = 0; i < open.length; i += 50) {
          const items: string[] = []
          for (const id of open.slice(i, i + 50))
            items.push(await cancelBody(this.world, w.address, 'oid', id, this.world.ledger.nonce(w.address, 'gap'), w.privateKey))
          const { method, path } = route(this.pair, 'cancelOrders')
          await side.send(method, path, { body: `{"cancels":[${items.join(',')}]}` })
        }
      }
    }
  }

  /**
   * Runs one step on both sides; the divergences it shows (empty: none), or 'rolled'. After an
   * allowed (assumed) difference the oracle no longer knows the parties' state: they are adopted,
   * the target's choice standing for both, and a later step touching one of them is judged on the
   * target's answers alone (the invariants), so the sequence goes on past it.
   */
  async run(step: Step): Promise<StepVerdict> {
    const command = commandFor(step.op)
    const parties = command.parties(step, this.ctx)
    this.world.steps.push(step)
    if (step.op !== 'wait') await this.pair.mirror?.sync()
    const v = await command.run(step, this.ctx)
    if (v === 'rolled') return v
    const judged = parties.some((p) => this.adopted.has(p)) ? v.filter((d) => d.invariant) : v
    const compared = judged.filter((d) => !d.invariant)
    if (compared.length && compared.every((d) => d.level === 'assumed')) for (const p of parties) this.adopted.add(p)
    return judged
  }
}
