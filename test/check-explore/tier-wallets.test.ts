/**
 * The `wallets` of `--config` reach the explorer: a shard's sequences trade with the target's tier
 * wallet as their last wallet, and the oracle knows its tier. So a correct server with the wallet
 * in its tier gets no failure, the wallet's orders are on the target afterwards, and a server
 * that does not apply the tier is caught on that wallet's answers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, expect, it, vi } from 'vitest'
import { runOec, startServe, type Served } from '../helpers/cli.ts'

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 })

const running: { kill(): void }[] = []
afterAll(() => {
  for (const r of running) r.kill()
})

const KEY = `0x${'5a'.repeat(32)}` as const
const ADDRESS = privateKeyToAccount(KEY).address
const dir = mkdtempSync(join(tmpdir(), 'oec-tier-'))
const config = join(dir, 'wallets.json')
writeFileSync(config, JSON.stringify({ wallets: [{ privateKey: KEY, tier: 'tier2' }] }))

async function serve(args: readonly string[]): Promise<Served> {
  const s = startServe(['--port', '0', ...args])
  running.push(s.child)
  return s.ready
}

interface Report {
  readonly results: { id: string; outcome: string; message: string; rules: string[] }[]
}

async function explore(url: string, seed: number): Promise<Report & { code: number | null }> {
  const r = await runOec(
    [
      'check',
      'server',
      '--target',
      url,
      '--symbol',
      'BTC-20261225-100000-C',
      '--config',
      config,
      '--explore',
      '6s',
      '--seed',
      String(seed),
    ].concat(['--reporter', 'json']),
    { timeoutMs: 100_000 },
  )
  expect(r.stdout, r.stderr).toMatch(/^\{/)
  return { ...(JSON.parse(r.stdout) as Report), code: r.code }
}

const failures = (r: Report) => r.results.filter((x) => x.outcome === 'fail')

it('a correct server with the wallet in its tier: 0 failures, and the explorer traded with the tier wallet', async () => {
  const s = await serve(['--wallet-tier', `${ADDRESS}=tier2`])
  for (const seed of [1, 2]) {
    const run = await explore(s.url, seed)
    expect(failures(run).map((f) => `${f.id}: ${f.message.slice(0, 200)}`)).toEqual([])
    expect(run.code).toBe(0)
  }
  const orders = (await (await fetch(`${s.url}/orders?wallet=${ADDRESS}`)).json()) as { orders: { status: string }[] }
  expect(orders.orders.length).toBeGreaterThan(0)
  // The run leaves nothing of the tier wallet's open on the book.
  expect(orders.orders.filter((o) => o.status === 'OPEN')).toEqual([])
})

it('a server that does not apply the tier fails on the tier wallet', async () => {
  const s = await serve([])
  const run = await explore(s.url, 1)
  const rules = failures(run).flatMap((f) => f.rules)
  expect(rules).toContain('RL-4')
  expect(run.code).toBe(1)
})
