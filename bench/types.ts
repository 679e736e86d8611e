/** One printed table of a benchmark: peers measured in the same run, with ratios. */
export interface BenchRow {
  readonly name: string
  /** The measured figure, human-readable (e.g. `412,000 ops/s`, `1.21 s`). */
  readonly value: string
  /** Ratio against the named peer, e.g. `6.3× viem`. */
  readonly ratio?: string
}

export interface BenchSection {
  readonly title: string
  readonly rows: readonly BenchRow[]
  /** Targets met or missed, machine facts, caveats. */
  readonly notes?: readonly string[]
}

/** A `bench/*.bench.ts` module: default-exports a function that measures and returns sections. */
export type BenchMain = () => Promise<BenchSection[]>
