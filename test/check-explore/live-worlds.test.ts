/**
 * A verdict that holds on any correct server, not only on the embedded one: every target here is
 * a correct server in a process of its own, configured unlike the reference setup (another
 * chain, another domain name, more instruments than the run names and in another order, another
 * client trading on the same book, the assumption variants). Named checks and exploration must
 * report no failure against any of them, and exploration's warnings must not change from seed to
 * seed. The budgets are small so the file fits CI; `npm run bench -- worlds` runs the full ones.
 */
import { afterAll, describe, expect, it, vi } from 'vitest'
import { startNeighbour } from '../fixtures/noisy-neighbour.ts'
import { runOec, startServe, type Served } from '../helpers/cli.ts'
import { startVariant } from '../helpers/live-target.ts'
import { VARIANT_SERVERS } from '../fixtures/variant-servers.ts'

vi.setConfig({ testTimeout: 240_000, hookTimeout: 60_000 })

const running: { kill(): void }[] = []
afterAll(() => {
  for (const r of running) r.kill()
})

async function serve(args: readonly string[]): Promise<Served> {
  const s = startServe(['--port', '0', ...args])
  running.push(s.child)
  return s.ready
}

interface Report {
  readonly results: { id: string; outcome: string; message: string; level: string }[]
}

async function check(args: readonly string[]): Promise<Report & { code: number | null; stderr: string }> {
  const r = await runOec(['check', 'server', ...args, '--reporter', 'json'], { timeoutMs: 200_000 })
  expect(r.stdout, r.stderr).toMatch(/^\{/)
  return { ...(JSON.parse(r.stdout) as Report), code: r.code, stderr: r.stderr }
}

const failures = (r: Report) => r.results.filter((x) => x.outcome === 'fail').map((x) => `${x.id}: ${x.message.slice(0, 300)}`)
const warnings = (r: Report) => new Set(r.results.filter((x) => x.outcome === 'warn').map((x) => x.id))
/** The warnings of a run with their messages, for an assertion's message: whole enough to show both sides of an orders list. */
const warned = (r: Report) =>
  JSON.stringify(r.results.filter((x) => x.outcome === 'warn').map((x) => `${x.id}: ${x.message.slice(0, 4000)}`))
const jaccard = (a: Set<string>, b: Set<string>) =>
  a.size + b.size === 0 ? 1 : [...a].filter((x) => b.has(x)).length / new Set([...a, ...b]).size

const SHIPPED = ['BTC-20261225-100000-C', 'BTC-20261225-100000-P', 'ETH-20261225-4000-C', 'ETH-20261225-4000-P', 'SOL-20261225-200-C']

describe('correct servers configured unlike the reference setup', () => {
  const worlds: { name: string; serve: string[]; check: string[] }[] = [
    {
      name: 'options chain 1, domain Acme',
      serve: ['--chain-id', '1', '--domain-name', 'Acme'],
      check: ['--chain-id', '1', '--domain-name', 'Acme'],
    },
    { name: 'options chain 42161', serve: ['--chain-id', '42161'], check: ['--chain-id', '42161'] },
    { name: 'options chain 1337, the perp chain too', serve: ['--chain-id', '1337'], check: ['--chain-id', '1337'] },
    {
      name: 'another instrument set, in another order',
      serve: ['--symbols', 'SOL-20270326-150-P,XRP-20270326-3-C,ETH-20270326-5000-C,BTC-20270326-90000-P'],
      check: [],
    },
  ]
  for (const w of worlds) {
    it(`${w.name}: 0 failures from the named checks and from --explore 10s`, async () => {
      const s = await serve(w.serve)
      const listed = (await (
        await fetch(`${s.url}/info`, { method: 'POST', body: '{"type":"meta"}', headers: { 'content-type': 'application/json' } })
      ).json()) as {
        universe: { name: string }[]
      }
      // Two of what the target lists, the later one first: the run must number them as the target does.
      const names = listed.universe.map((u) => u.name)
      const symbols = ['--symbol', names.at(-1)!, '--symbol', names[0]!]
      const named = await check(['--target', s.url, ...w.check, ...symbols])
      expect(failures(named)).toEqual([])
      expect(named.results.length).toBeGreaterThan(700)
      const explored = await check(['--target', s.url, ...w.check, ...symbols, '--explore', '10s'])
      expect(failures(explored)).toEqual([])
      expect(explored.code, explored.stderr).toBe(0)
    })
  }
})

describe('a shared book: the reference server in its own process with a noisy neighbour', () => {
  it('seeds 1-5: 0 failures each, the same warnings run after run, sequences of 4 steps or more', async () => {
    // More instruments listed than the run names, and named in another order than listed.
    const s = await serve(['--symbols', SHIPPED.join(',')])
    const neighbour = startNeighbour(s.url, SHIPPED, { name: 'Service', chainId: 999 })
    const runs: Report[] = []
    try {
      for (const seed of [1, 2, 3, 4, 5]) {
        const r = await check([
          '--target',
          s.url,
          '--symbol',
          SHIPPED[4]!,
          '--symbol',
          SHIPPED[2]!,
          '--symbol',
          SHIPPED[0]!,
          '--explore',
          '4s',
          '--seed',
          String(seed),
        ])
        expect(failures(r), `seed ${seed}`).toEqual([])
        runs.push(r)
      }
    } finally {
      expect(await neighbour.stop()).toBeGreaterThan(50)
    }
    for (let i = 0; i < runs.length; i++)
      for (let j = i + 1; j < runs.length; j++)
        expect(
          jaccard(warnings(runs[i]!), warnings(runs[j]!)),
          `seeds ${i + 1} and ${j + 1}: ${warned(runs[i]!)} / ${warned(runs[j]!)}`,
        ).toBeGreaterThanOrEqual(0.8)
    for (const r of runs) {
      const median = Number(/a median of (\d+) steps/.exec(r.results.find((x) => x.id === 'explore')!.message)?.[1])
      expect(median).toBeGreaterThanOrEqual(4)
    }
  })
})

describe.concurrent('the assumption variants, each live in its own process', () => {
  for (const v of VARIANT_SERVERS) {
    it(`${v.name}: 0 failures under --explore`, async () => {
      const t = await startVariant(v.name)
      running.push({ kill: t.stop })
      const r = await check(['--target', t.url, '--symbol', t.symbols[0]!, '--symbol', t.symbols[3]!, '--explore', '40'])
      expect(failures(r)).toEqual([])
    })
  }
})
