/**
 * Signature checks of one event-loop turn, run back to back. Recovery walks about 1 MB of
 * libsecp256k1's precomputed tables: in a tight loop they stay in the CPU's cache, in a loaded
 * server the HTTP parser, V8 and the kernel's socket work between two requests evict them, and
 * the same recovery cost about 1.3-1.4x as much (`npm run bench -- server`). Queued calls run
 * together at the end of the turn (setImmediate), in arrival order, and their promises resolve
 * in that order, so the stateful steps after them (rate limits, nonces, matching) still run in
 * the order the requests arrived. The verifier itself is the deps seam, called unchanged.
 */
type AnyVerify = (...args: never[]) => unknown

interface Queued<V extends AnyVerify> {
  readonly args: Parameters<V>
  readonly resolve: (r: ReturnType<V>) => void
  readonly reject: (err: unknown) => void
}

const batchers = new WeakMap<AnyVerify, (...args: never[]) => Promise<unknown>>()

/** The verifier, batched per turn; one batcher per verifier function. */
export function batchedVerifier<V extends AnyVerify>(verify: V): (...args: Parameters<V>) => Promise<ReturnType<V>> {
  let batcher = batchers.get(verify) as ((...args: Parameters<V>) => Promise<ReturnType<V>>) | undefined
  if (!batcher) {
    let queue: Queued<V>[] = []
    const flush = () => {
      const q = queue
      queue = []
      for (const item of q) {
        try {
          item.resolve(verify(...item.args) as ReturnType<V>)
        } catch (err) {
          item.reject(err)
        }
      }
    }
    batcher = (...args) =>
      new Promise<ReturnType<V>>((resolve, reject) => {
        if (queue.push({ args, resolve, reject }) === 1) setImmediate(flush)
      })
    batchers.set(verify, batcher as (...args: never[]) => Promise<unknown>)
  }
  return batcher
}
