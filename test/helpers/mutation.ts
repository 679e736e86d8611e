/**
 * Set by vitest.mutation.config.ts only (`npm run mutation`, docs/mutation.md). The few tests of
 * the mutation scope that run the compiled CLI skip under it: Stryker mutates the sources, never
 * dist/, so those tests could not kill a mutant and would only slow each run down.
 */
export const underMutation = process.env.OEC_MUTATION === '1'

/**
 * fast-check runs for a property: `n` in the normal suite, a fifth of it (at least 10) under
 * mutation, where each surviving mutant reruns every property that covers it.
 */
export function propertyRuns(n: number): number {
  return underMutation ? Math.max(10, Math.ceil(n / 5)) : n
}
