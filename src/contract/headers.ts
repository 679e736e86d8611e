/**
 * The rate-limit headers, named once. The names are the seed's; `satisfies HeaderName` ties
 * each to a header the shipped spec declares, so a rename in the spec breaks the build here.
 */
import type { HeaderName } from './generated/contract.ts'

export const RATE_LIMIT_HEADERS = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
  retryAfter: 'Retry-After',
} as const satisfies Record<string, HeaderName>

/** The three window headers every response of a rate-limited endpoint carries. */
export const WINDOW_HEADERS = [RATE_LIMIT_HEADERS.limit, RATE_LIMIT_HEADERS.remaining, RATE_LIMIT_HEADERS.reset] as const
