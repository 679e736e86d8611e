/**
 * A small seeded PRNG (mulberry32) so that `--seed N` reproduces every random choice of a run:
 * mutation values, their order and sampling. Each check gets its own stream derived from the
 * seed and its id, so adding a check does not reshuffle the others.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number
  int(maxExclusive: number): number
  pick<T>(items: readonly T[]): T
  /** Up to n distinct items, in a seeded order. */
  sample<T>(items: readonly T[], n: number): T[]
  /** A child stream for a label (stable for a given seed and label). */
  fork(label: string): Rng
}

function hash32(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

export function createRng(seed: number, label = ''): Rng {
  let state = (hash32(`${seed}:${label}`) ^ seed) >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const rng: Rng = {
    next,
    int: (max) => Math.floor(next() * max),
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list')
      return items[Math.floor(next() * items.length)] as (typeof items)[number]
    },
    sample: (items, n) => {
      const copy = [...items]
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1))
        ;[copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]]
      }
      return copy.slice(0, n)
    },
    fork: (l) => createRng(seed, `${label}/${l}`),
  }
  return rng
}
