/**
 * How far a step's verdict reaches. `acting`: the answers by class and the acting wallet's state,
 * as the explorer first did. `parties` (the default): also every party the step may have touched
 * (the counterparties of a fill, whoever owns an order it names), the error `code` of every refusal
 * and the request fields an answer echoes, and the `/ws` updates of the sequence's wallets. Pure.
 */
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
