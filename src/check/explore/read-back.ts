/**
 * How far a step's verdict reaches. `acting`: the answers by class and the acting wallet's state,
 * as the explorer first did. `parties` (the default): also every party the step may have touched
 * (the counterparties of a fill, whoever owns an order it names), the error `code` of every refusal
 * and the stated body fields of every answer (fields.ts), the book of every instrument a step may
 * have filled on, and the `/ws` updates of the sequence's wallets. Pure.
 */
import type { HttpExchange } from '../target/http.ts'
export type ReadBack = 'acting' | 'parties'

export const READ_BACKS: readonly ReadBack[] = ['acting', 'parties']

/** What the session knows of an order: the sequence wallet that placed it (-1: none of them). */
interface Owned {
  readonly wallet: number
}

/**
 * The sequence's wallets whose records a write may have changed besides those the step itself
 * read back: every wallet with an order of the sequence (a taker's fill changes its makers'
 * records, and which of them it met only the book knows).
 */
export function counterparties(placed: readonly Owned[], readAlready: readonly number[]): number[] {
  const seen = new Set(readAlready)
  const out: number[] = []
  for (const p of placed)
    if (p.wallet >= 0 && !seen.has(p.wallet)) {
      seen.add(p.wallet)
      out.push(p.wallet)
    }
  return out.sort((a, b) => a - b)
}

/** Every `symbol` a request body names, at any depth (an order, a batch's orders, a replacement's order). */
function symbolsIn(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) symbolsIn(x, out)
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) k === 'symbol' && typeof x === 'string' ? out.add(x) : symbolsIn(x, out)
}

/**
 * The books a step may have filled on: the instruments of the orders the reference answered 200
 * to (an order, a batch, a replacement, a race's or a replay's orders). A cancel names no symbol
 * and fills nothing, so it reads no book; each instrument is read once however many orders it had.
 */
export function filledBooks(oracle: readonly HttpExchange[]): string[] {
  const out = new Set<string>()
  for (const e of oracle) {
    if (e.request.method === 'GET' || e.response?.status !== 200 || e.request.body === undefined) continue
    try {
      symbolsIn(JSON.parse(e.request.body), out)
    } catch {
      // A body sent malformed on purpose placed nothing.
    }
  }
  return [...out].sort()
}
