/**
 * A reference server whose replies carry markup: GET /health answers a status holding a
 * `<script>`, an HTML comment and an `<img onerror>` (ops.health then warns), and the missing
 * instrument's order book answers with the same text as its error message (err.orderbook-missing
 * then fails). A report that renders these bodies as markup would run the script.
 */
import { SimulatedClock, startServer } from '../../src/server/index.ts'

export const HOSTILE = '<script>window.__oecInjected = 1</script><!-- injected comment --><img src=x onerror="window.__oecInjected = 2"></pre></details>'

export interface HostileTarget {
  readonly url: string
  readonly clock: SimulatedClock
  readonly symbols: readonly string[]
  close(): Promise<void>
}

export async function startHostileServer(): Promise<HostileTarget> {
  const clock = new SimulatedClock(Date.UTC(2026, 0, 5, 12, 0, 0))
  const server = await startServer({
    config: { log: false },
    deps: {
      clock,
      transformReply: (reply, rc) => {
        if (rc.method === 'GET' && rc.path === '/health') return { ...reply, body: { status: HOSTILE } }
        if (rc.path === '/orderbook' && reply.body && typeof reply.body === 'object' && 'error' in reply.body && (reply.body as { error: unknown }).error) {
          return { ...reply, body: { ...(reply.body as object), error: { code: 13020, message: HOSTILE } } }
        }
        return reply
      },
    },
  })
  return { url: server.url, clock, symbols: server.config.instruments, close: () => server.close() }
}

/** Checks that give a pass, a failure (stated rule) and a warning (assumed rule) against the hostile server. */
export const HOSTILE_CHECKS = ['ops.health', 'err.orderbook-missing', 'auth.chain-id', 'auth.approve-self', 'nonce.reuse-after-success']
