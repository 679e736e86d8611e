/**
 * The search: the request as sent, then every single mistake, then every pair of mistakes from
 * two different axes, cheapest pairs first, until a candidate digest recovers to a signer we
 * are looking for or the budget runs out. Pure apart from the clock it reads for the budget.
 */
import type { CauseId, SearchBudget } from './model.ts'

/** A cause before it is put into words: the words come from the space that made it. */
export interface CauseDraft {
  readonly id: CauseId
  readonly signed: string
  readonly sent: string
  readonly field?: string
  readonly text: string
}

/** One hypothetical mistake: what the client might have signed instead of what it sent. */
export interface Alternative<S> {
  readonly causes: readonly CauseDraft[]
  apply(state: S): S
}

/** One axis holds the mutually exclusive alternatives of one thing (the chain ID, the price text...). */
export type Axis<S> = readonly Alternative<S>[]

export interface Space<S> {
  readonly base: S
  readonly axes: readonly Axis<S>[]
  /** The digest the client would have signed in `state`; null when the state cannot be hashed. */
  digest(state: S): Buffer | null
}

export type Match = { kind: 'expected' | 'known'; address: string }

export interface SearchResult<S> {
  readonly found: { readonly alternatives: readonly Alternative<S>[]; readonly match: Match } | null
  readonly tried: number
  readonly ms: number
  readonly exhausted: boolean
}

/**
 * `recover` maps a candidate digest to the address it recovers to (lowercase) or null; `classify`
 * says whether that address is one we look for. The as-sent state is always tried first.
 */
export function search<S>(
  space: Space<S>,
  recover: (digest: Buffer) => string | null,
  classify: (address: string) => Match | null,
  budget: SearchBudget,
): SearchResult<S> {
  const started = performance.now()
  let tried = 0
  let exhausted = false
  const attempt = (alternatives: readonly Alternative<S>[]): Match | null => {
    let state = space.base
    for (const a of alternatives) state = a.apply(state)
    const digest = space.digest(state)
    tried++
    if (digest === null) return null
    const address = recover(digest)
    return address === null ? null : classify(address)
  }
  const over = () => {
    if (tried >= budget.maxCandidates) return true
    // The clock is read every 64 candidates: reading it costs about as much as a hash.
    if ((tried & 63) === 0 && performance.now() - started > budget.maxMs) return true
    return false
  }
  const done = (alternatives: readonly Alternative<S>[], match: Match): SearchResult<S> => ({
    found: { alternatives, match },
    tried,
    ms: performance.now() - started,
    exhausted: false,
  })

  const base = attempt([])
  if (base) return done([], base)
  const axes = space.axes.filter((a) => a.length > 0)
  for (const axis of axes) {
    for (const alt of axis) {
      if (over()) return { found: null, tried, ms: performance.now() - started, exhausted: true }
      const m = attempt([alt])
      if (m) return done([alt], m)
    }
  }
  const pairs: [number, number][] = []
  for (let i = 0; i < axes.length; i++) for (let j = i + 1; j < axes.length; j++) pairs.push([i, j])
  pairs.sort((p, q) => axes[p[0]]!.length * axes[p[1]]!.length - axes[q[0]]!.length * axes[q[1]]!.length)
  for (const [i, j] of pairs) {
    for (const a of axes[i]!) {
      for (const b of axes[j]!) {
        if (over()) {
          exhausted = true
          return { found: null, tried, ms: performance.now() - started, exhausted }
        }
        const m = attempt([a, b])
        if (m) return done([a, b], m)
      }
    }
  }
  return { found: null, tried, ms: performance.now() - started, exhausted }
}
