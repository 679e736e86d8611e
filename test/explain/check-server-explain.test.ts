/** `oec check server` failure messages: a correctly signed request the server refused says whose fault it is. */
import { afterAll, describe, expect, it } from 'vitest'
import { runServerChecks } from '../../src/check/server/index.ts'
import { DEFAULT_INSTRUMENTS, startServer, type RunningServer } from '../../src/server/index.ts'

describe('check server + explain', () => {
  let server: RunningServer | undefined
  afterAll(async () => {
    await server?.close()
  })

  it("a server that verifies chainId 1: the refusal of a valid order is the server's", { timeout: 90_000 }, async () => {
    server = await startServer({ config: { chainId: 1 } })
    const run = await runServerChecks({ target: server.url, symbols: DEFAULT_INSTRUMENTS, only: ['auth.direct-order'], timeoutMs: 5000 })
    const failed = run.summary.results.find((r) => r.id === 'auth.direct-order/gtc-buy')
    expect(failed?.outcome).toBe('fail')
    expect(failed?.message).toMatch(
      /; explain: the request verifies under the contract's domain \(signer 0x[0-9a-fA-F]{40}\), so the server hashes another domain or message$/,
    )
  })
})
