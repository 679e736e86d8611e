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
import type { Divergence } from './compare.ts'
import { both, type Pair } from './pair.ts'
import { counterparties, filledBooks } from './read-back.ts'
import { book, orderIds, state } from './state.ts'
import { WALLETS, type Step } from './steps.ts'
import { World, type StepVerdict, type TraceStep } from './world.ts'
import { updateOf, type WsWatch } from './ws-watch.ts'

export type { StepVerdict, TraceStep } from './world.ts'

export class ExploreSession {
  private readonly world: World
  private readonly ctx: Ctx
  /** Parties (`w<i>`, `a<j>`) whose state the oracle took from the target after an allowed difference. */
  private readonly adopted = new Set<string>()
  /** The shard's subscriber to the target's `/ws` (read-back `parties`). */
  private readonly ws: WsWatch | undefined

  constructor(
    private readonly pair: Pair,
    keyFor: (label: string) => Hex,
  ) {
    this.world = new World(pair, keyFor)
    this.ctx = contextOf(this.world)
    this.ws = pair.readBack !== 'acting' ? pair.watch : undefined
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
    await this.ws?.watch(this.world.wallets.map((w) => w.address))
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
    this.world.time?.step(step.op)
    if (step.op !== 'wait') await this.pair.mirror?.sync()
    const from = this.world.trace.length
    const acted = await command.run(step, this.ctx)
    if (acted === 'rolled') return acted
    const further = acted.length ? [] : await this.reachFurther(step, parties, this.world.trace.slice(from))
    if (further === 'rolled') return further
    const v = [...acted, ...further]
    const judged = parties.some((p) => this.adopted.has(p)) ? v.filter((d) => d.invariant) : v
    const compared = judged.filter((d) => !d.invariant)
    if (compared.length && compared.every((d) => d.level === 'assumed')) for (const p of parties) this.adopted.add(p)
    return judged
  }

  /**
   * Read-back `parties`: after a write the step's own read-back did not fault, the records of every
   * other wallet with an order of the sequence (its `/ws` updates are compared once, by finish()).
   * Adopted parties are left out (the oracle holds the target's choice for them, not its own).
   */
  private async reachFurther(step: Step, parties: readonly string[], ran: readonly TraceStep[]): Promise<StepVerdict> {
    if (this.pair.readBack === 'acting' || step.op === 'read' || step.op === 'wait') return []
    const books = await this.booksAfter(ran)
    if (books.length) return books
    const placed = this.world.ledger.placed
    const read = parties.filter((p) => p.startsWith('w')).map((p) => Number(p.slice(1)))
    const others = counterparties(placed, read).filter((w) => !this.adopted.has(`w${w}`))
    const readBack = others.length ? await state(this.world, others) : []
    // A counterparty's orders that differ only in how much filled (another client on a live book
    // took some) are no verdict, and no reason to end the sequence: the mirror carries that take
    // to the oracle before the next step, as it does for the acting wallet's.
    return readBack === 'rolled' ? [] : readBack
  }

  /**
   * After the last step (read-back `parties`): the `/ws` update the target pushed last for each
   * order of the sequence against the reference's record of it, read from the reference in one
   * listing per wallet. Adopted parties are left out, as for the steps.
   */
  async finish(): Promise<Divergence[]> {
    if (!this.ws) return []
    const orders = this.world.ledger.placed.filter(
      (p) => p.wallet >= 0 && p.target !== undefined && p.oracle !== undefined && !this.adopted.has(`w${p.wallet}`),
    )
    const reference = new Map<string, string>()
    for (const wallet of new Set(orders.map((p) => p.wallet))) {
      const list = await this.pair.oracle.send('GET', pathOf(this.pair, 'listOrders', { wallet: this.world.wallets[wallet]!.address }))
      for (const r of ((list.response?.json as { orders?: unknown } | undefined)?.orders as Record<string, unknown>[] | undefined) ?? [])
        reference.set(String(r.order_id), updateOf(r))
    }
    // On a live target another client may trade with our orders at any moment (before the mirror
    // sees it): how much filled is no verdict there, as for the records it re-reads.
    return this.ws.settle(orders, reference, this.pair.mirror !== undefined)
  }

  /**
   * The book of each instrument the step may have filled on, read once on both sides as the step
   * left it. Left out where the two books may part for a reason that is no fault: once a target's
   * book has held someone else's orders (the mirror evens it before each step, and another
   * client's order between that and this read is a difference it would carry over), and once a
   * party is adopted (the oracle holds the target's choice for it, not the book that follows).
   */
  private async booksAfter(ran: readonly TraceStep[]): Promise<StepVerdict> {
    if (this.pair.mirror?.sawForeign || this.adopted.size) return []
    const out = []
    // Only a listed instrument has a book to fill (an order for another is refused or REJECTED).
    const listed = filledBooks(ran.flatMap((r) => r.oracle)).filter((s) => this.pair.symbols.includes(s))
    for (const symbol of listed) out.push(...(await book(this.world, symbol, this.pair.symbols.indexOf(symbol), undefined, false)))
    return out
  }
}
