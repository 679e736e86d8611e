/** A read on both sides: a wallet's orders (all, or in one status), a book, a wallet's agents, the perp instrument list; GET or HEAD. */
import type { HttpExchange } from '../../target/http.ts'
import { pathOf } from '../../target/routes.ts'
import { symbolOf } from '../bodies.ts'
import { divergence, invariant, type Divergence } from '../compare.ts'
import { both } from '../pair.ts'
import { agentsState, book, sideRecords, state } from '../state.ts'
import type { StepVerdict, World } from '../world.ts'
import { plain, type Command, type StepOf } from './command.ts'

type Read = StepOf<'read'>

/** The read as a HEAD on both sides: the same status as the reference's, and no error-code header (ERR-5). */
async function head(w: World, step: Read): Promise<StepVerdict> {
  const [op, query] =
    step.what === 'orders'
      ? (['listOrders', { wallet: w.wallets[step.wallet]!.address }] as const)
      : (['getOrderbook', { symbol: symbolOf(w, step.symbol) }] as const)
  const path = pathOf(w.pair, op, query)
  const te = await w.pair.target.send('HEAD', path)
  const oe = await w.pair.oracle.send('HEAD', path)
  w.record(step, [te], [oe])
  const t = te.response
  if (!t) return [invariant('EP-8', `HEAD ${path}: the target did not answer`)]
  const out: Divergence[] = []
  const codeHeader = Object.keys(t.headers).find((h) => /error-?code|x-error/i.test(h))
  if (codeHeader) out.push(invariant('ERR-5', `HEAD ${path} answered ${t.status} with the error-code header ${codeHeader}`))
  if (oe.response && t.status !== oe.response.status)
    out.push(divergence('EP-8', `HEAD ${path}: target ${t.status}; reference ${oe.response.status}`))
  return out
}

/** GET /orders?status=: both listings compared, and every order the target lists in that status. */
async function filtered(w: World, step: Read, status: string): Promise<StepVerdict> {
  const addr = w.wallets[step.wallet]!.address
  const [te, oe] = await both(w.pair, 'listOrders', undefined, undefined, { wallet: addr, status })
  w.record(step, [te], [oe])
  const [t, o] = [sideRecords(w, te, addr, 'target'), sideRecords(w, oe, addr, 'oracle')]
  if (t === undefined || o === undefined) {
    if (t === undefined && o !== undefined)
      return [divergence('EP-8', `GET /orders?status=${status} answered ${te.response?.status ?? 'nothing'} with no order list`)]
    return []
  }
  const other = t.filter((r) => !r.endsWith(`|${status}`))
  if (other.length) return [divergence('EP-9', `GET /orders?status=${status} of ${addr} lists [${other.join(', ')}]`)]
  if (t.join('\n') === o.join('\n')) return []
  // On a shared book an order can fill between the two reads and so leave one side's filter:
  // no verdict then (the unfiltered listing re-reads after the mirror's sync and judges it).
  if (w.pair.mirror?.sawForeign) return 'rolled'
  return [divergence('EP-9', `orders of ${addr} in ${status} differ: target [${t.join(', ')}]; reference [${o.join(', ')}]`)]
}

/** POST /info meta: the same instrument names on both sides. */
async function info(w: World, step: Read): Promise<StepVerdict> {
  const [te, oe] = await both(w.pair, 'perpInfo', '{"type":"meta"}')
  w.record(step, [te], [oe])
  const names = (e: HttpExchange) =>
    JSON.stringify(((e.response?.json as { universe?: { name?: unknown }[] })?.universe ?? []).map((u) => u?.name))
  if (te.response?.status !== oe.response?.status || names(te) !== names(oe))
    return [divergence('PERP-10', `POST /info meta: target ${te.response?.status ?? 'no answer'} ${names(te)}; reference ${names(oe)}`)]
  return []
}

export const read: Command<Read> = {
  ops: ['read'],
  parties: (step) => (step.what === 'orders' || step.what === 'agents' ? [`w${step.wallet}`] : []),
  toString: plain,

  async run(step, { world: w }) {
    if (step.head) return head(w, step)
    if (step.status !== undefined) return filtered(w, step, step.status)
    switch (step.what) {
      case 'orders':
        return state(w, [step.wallet], step)
      case 'agents':
        return agentsState(w, step.wallet, step)
      case 'book':
        return book(w, symbolOf(w, step.symbol), step.symbol, step)
      case 'info':
        return info(w, step)
    }
  },
}
