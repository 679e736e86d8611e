/** The ServerDeps seams are wired: swapping one changes exactly that behaviour (how broken servers are built). */
import { describe, expect, it } from 'vitest'
import { MatchingEngine } from '../../src/server/matching-engine.ts'
import { createRateLimiter, type EngineParts, type RateLimiter } from '../../src/server/index.ts'
import { parseBody } from '../../src/signing/index.ts'
import { verifyOptions } from '../helpers/shipped.ts'
import { call, nonce, placeOrder, post, signed, signedOrder, start, wallet } from './helpers.ts'

describe('ServerDeps seams', () => {
  it('nonces, verifyOptions, rateLimiter, transformReply, logger and parseBody each take effect', async () => {
    const logged: string[] = []
    const base = createRateLimiter(60)
    const countedOnce: RateLimiter = {
      ...base,
      charge: (w, cost, limits, now) => base.charge(w, { ...cost, orders: Math.min(1, cost.orders ?? 0) }, limits, now),
    }
    const s = await start(
      {},
      {
        nonces: { has: () => false, consume: () => {} },
        // Ignores the chain ID: a signature made under chain 1 counts when it recovers to the wallet.
        verifyOptions: (kind, message, signature, opts) => {
          const alt = verifyOptions(kind, message, signature, { ...opts, domain: { ...opts?.domain, chainId: 1 } })
          return alt.ok && alt.signer.toLowerCase() === String(message.wallet).toLowerCase()
            ? alt
            : verifyOptions(kind, message, signature, opts)
        },
        rateLimiter: countedOnce,
        transformReply: (reply) => ({ ...reply, headers: { ...reply.headers, 'X-Broken': 'yes' } }),
        logger: (e) => logged.push(`${e.method} ${e.path} ${e.status}`),
        parseBody: (text, opts) => {
          if (text.includes('"boom"')) throw new Error('boom')
          return parseBody(text, opts)
        },
      },
    )
    try {
      const w = wallet()
      const n = nonce()
      expect((await placeOrder(s, w, { nonce: n })).json.status).toBe('ACKED')
      const reused = await placeOrder(s, w, { nonce: n })
      expect(reused.json.status).toBe('ACKED') // nonce reuse allowed
      expect(reused.headers.get('x-broken')).toBe('yes')
      expect((await post(s, '/order', await signedOrder(w, {}, { chainId: 1 }))).json.status).toBe('ACKED') // chain ignored
      const batch = `{"orders":[${await signedOrder(w, { clientId: 'a' })},${await signedOrder(w, { clientId: 'b' })},${await signedOrder(w, { clientId: 'c' })}]}`
      const r = await post(s, '/bulk_order', batch)
      expect(r.headers.get('x-ratelimit-remaining')).toBe('56') // batch counted once
      expect((await post(s, '/order', '"boom"')).status).toBe(500) // the parser seam's fault is the server's fault
      expect(logged).toContain('POST /order 200')
    } finally {
      await s.close()
    }
  })

  it("engine: the server runs the matching engine the seam builds, from the server's own parts", async () => {
    const built: EngineParts[] = []
    const placed: string[] = []
    class Recording extends MatchingEngine {
      override place(...args: Parameters<MatchingEngine['place']>): ReturnType<MatchingEngine['place']> {
        placed.push(args[0].symbol)
        return super.place(...args)
      }
    }
    const s = await start({}, { engine: (parts) => (built.push(parts), new Recording(parts.instruments, parts.onChange, parts.archive)) })
    try {
      expect((await placeOrder(s, wallet())).json.status).toBe('ACKED')
      expect(built.map((p) => p.instruments)).toEqual([s.config.instruments])
      expect(placed).toHaveLength(1)
    } finally {
      await s.close()
    }
  })

  it('agents: a store that approves everyone lets any known signer act for any wallet', async () => {
    const s = await start(
      {},
      { agents: { approve() {}, revoke: () => true, isApproved: () => true, list: () => [], owners: () => [], knows: () => true } },
    )
    try {
      const owner = wallet()
      const stranger = wallet()
      expect((await post(s, '/order', await signedOrder(owner, {}, {}, stranger.key))).json.status).toBe('ACKED')
      expect((await call(s, 'GET', `/authorized-agents?wallet=${owner.address}`)).json.agents).toEqual([])
      expect(
        (await post(s, '/revoke-agent', await signed('RevokeAgent', { agent: stranger.address, nonce: nonce() }, owner.key))).status,
      ).toBe(200)
    } finally {
      await s.close()
    }
  })
})
