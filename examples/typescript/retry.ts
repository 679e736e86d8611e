/**
 * A retry helper as client teams write them: retry on 429, 503 and dropped connections, wait
 * `Retry-After` when the server gives one, plus an exponential backoff that grows on every
 * consecutive retry, and give up after a few tries with the last answer.
 */
export interface RetryPolicy {
  readonly attempts: number
  readonly baseMs: number
}

export const DEFAULT_POLICY: RetryPolicy = { attempts: 6, baseMs: 250 }

const RETRYABLE = new Set([429, 503])

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Runs `send` until it gives a final answer; a thrown network error counts as no answer. */
export async function withRetry(send: () => Promise<Response>, policy: RetryPolicy = DEFAULT_POLICY): Promise<Response | null> {
  let last: Response | null = null
  for (let attempt = 0; attempt < policy.attempts; attempt++) {
    let waitMs = policy.baseMs * 2 ** attempt
    try {
      last = await send()
      if (!RETRYABLE.has(last.status)) return last
      const retryAfter = Number(last.headers.get('retry-after'))
      // Retry-After is the floor; the backoff on top makes consecutive waits grow.
      if (Number.isFinite(retryAfter) && retryAfter > 0) waitMs += retryAfter * 1000
    } catch {
      // The connection dropped before an answer: the request may be sent again with the same nonce.
    }
    if (attempt < policy.attempts - 1) await sleep(waitMs)
  }
  return last
}
