/**
 * Time as a step, on live targets in processes of their own on the real clock with a 2 s rate
 * window: the explorer reads each target's clock from its `Date` header, holds Reset and
 * Retry-After against it, and waits across its windows; perp actions carry expiresAfter (past,
 * ahead, crossed by a wait) and fills reach the open-order cap across windows. Each seeded time
 * fault is caught with a fixed seed and a small budget, and missed with the time reach off; the
 * reference server gets no failure with it on. On the explorer's own clock, a saved sequence
 * shows an expiry taken ahead and refused once a wait crossed it.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { explore } from '../../src/check/explore/explore.ts'
import type { ExpiryPick, Step } from '../../src/check/explore/steps.ts'
import { SimulatedClock, startServer } from '../../src/server/index.ts'
import { TIME_FAULTS } from '../fixtures/time-faults.ts'
import type { Target } from '../fixtures/broken-servers.ts'
import { VARIANT_SERVERS } from '../fixtures/variant-servers.ts'
import { runOec, startServe } from '../helpers/cli.ts'
import { startTimeFault, type LiveTarget } from '../helpers/live-target.ts'

const WINDOW = 2
const running: LiveTarget[] = []
const closing: Target[] = []
afterAll(async () => {
  for (const t of running) t.stop()
  await Promise.all(closing.map((t) => t.close()))
})

async function started(name: string): Promise<LiveTarget> {
  const t = await startTimeFault(name, WINDOW)
  running.push(t)
  return t
}

/** One exploration of `t` with the time reach on or off, the same seed and budget either way. */
function run(t: LiveTarget, time: boolean, sequences: number) {
  return explore({
    target: t.url,
    symbols: t.symbols.slice(0, 3),
    budget: { sequences },
    seed: 1,
    workers: 1,
    rateWindow: WINDOW,
    time,
    maxFound: 6,
  })
}

const said = (r: Awaited<ReturnType<typeof run>>) =>
  r.found.map((f) => `${f.divergence.rule} ${f.divergence.what}`).join(' | ') || 'nothing'

describe('seeded time faults, live', () => {
  const budgets: Record<string, number> = { 'retry-after-60': 100, 'quiet-minute-window': 120, 'expiry-ignored': 60, 'cap-off-by-one': 60 }
  for (const f of TIME_FAULTS) {
    it(`"${f.name}" (${f.how}): caught with the time reach, missed without`, async () => {
      const t = await started(f.name)
      const on = await run(t, true, budgets[f.name]!)
      const hit = on.found.find((x) => x.divergence.rule === f.rule)
      expect(hit, said(on)).toBeDefined()
      expect(hit!.divergence.level).toBe(f.level)
      if (f.through) expect(hit!.steps.map((s) => s.op)).toContain(f.through)
      const off = await run(t, false, budgets[f.name]!)
      expect(
        off.found.filter((x) => x.divergence.rule === f.rule),
        said(off),
      ).toEqual([])
    }, 240_000)
  }
})

describe('the reference server, live with the time reach on', () => {
  it('0 failures across waits that cross its windows', async () => {
    const t = await started('reference')
    const r = await run(t, true, 60)
    const failed = r.summary.results.filter((x) => x.outcome === 'fail').map((x) => `${x.id} ${x.message}\n${x.details?.sequence}`)
    expect(failed).toEqual([])
    expect(r.found.filter((f) => f.divergence.rule === 'PERP-8').map((f) => f.divergence.what)).toEqual([])
    expect(r.sequences).toBeGreaterThanOrEqual(60)
  }, 240_000)

  it('the time option on the embedded target is an error, not ignored', async () => {
    await expect(explore({ budget: { sequences: 1 }, time: false })).rejects.toThrow(/time reach is for a live target/)
  })
})

describe('the flags', () => {
  it('--no-explore-time on the embedded target, and --rate-window for the named checks: one line, exit 2', async () => {
    const embedded = await runOec(['check', 'server', '--explore', '2', '--no-explore-time'])
    expect(embedded.code).toBe(2)
    expect(embedded.stderr.trim().split('\n')).toHaveLength(1)
    expect(embedded.stderr).toContain('time reach is for a live target')
    const named = await runOec(['check', 'server', '--rate-window', '2'])
    expect(named.code).toBe(2)
    expect(named.stderr).toContain('--rate-window is for an --explore')
  }, 60_000)

  it('oec serve --rate-window 2 explored with --rate-window 2: exit 0, the time reach on', async () => {
    const s = startServe(['--port', '0', '--rate-window', '2'])
    running.push({ url: '', symbols: [], stop: () => s.child.kill() })
    const { url } = await s.ready
    const flags = ['--explore', '12', '--rate-window', '2', '--reporter', 'json']
    const r = await runOec(['check', 'server', '--target', url, '--symbol', 'BTC-20261225-100000-C', ...flags], {
      timeoutMs: 120_000,
    })
    expect(r.code, r.stderr).toBe(0)
    expect((JSON.parse(r.stdout) as { results: { outcome: string }[] }).results.filter((x) => x.outcome === 'fail')).toEqual([])
  }, 150_000)
})

describe("perp expiresAfter on the explorer's clock (a wait moves both clocks)", () => {
  /** A time fault's server in this process, on a clock the explorer moves. */
  async function onClock(name: string): Promise<Target> {
    const clock = new SimulatedClock(Date.UTC(2026, 0, 5, 12))
    const fault = TIME_FAULTS.find((f) => f.name === name)
    const server = await startServer({ config: { log: false }, deps: { clock, ...(fault?.deps(60) ?? {}) } })
    const t: Target = { url: server.url, clock, symbols: server.config.instruments, close: () => server.close() }
    closing.push(t)
    return t
  }
  const perp = (expires: ExpiryPick): Step => ({
    op: 'perp-order',
    signer: { wallet: 0 },
    orders: [{ asset: 0, buy: true, price: '1', size: '1', tif: 'Gtc' }],
    nonce: 'fresh',
    expires,
  })
  // An order gives wallet 0 state on both sides (a perp signer without any is refused, PERP-7).
  const order: Step = {
    op: 'order',
    wallet: 0,
    signer: 'self',
    order: { symbol: 0, side: 'Buy', size: '1', price: '1', tif: 'gtc', route: 'book_only', clientId: 'new' },
    nonce: 'fresh',
    sig: 'none',
  }
  const saved = {
    id: 'explore/PERP-8/perp-order',
    rule: 'PERP-8',
    what: 'expired action carried out',
    steps: [order, perp('ahead'), { op: 'wait' as const }, perp('crossed')],
  }
  const replay = (t: Target) =>
    explore({ target: t.url, clock: t.clock, symbols: t.symbols.slice(0, 3), budget: { sequences: 1 }, replay: [saved] })

  it('ahead, then crossed by a wait: both sides take it ahead and refuse it crossed; a server that ignores the expiry is seen', async () => {
    const fault = await replay(await onClock('expiry-ignored'))
    const c = fault.summary.results[0]!
    expect(c.outcome, c.message).toBe('warn')
    expect(c.rules).toEqual(['PERP-8'])
    const steps = c.details!.sequence!.split(/\n(?=\d+\. )/)
    // Ahead: carried out on both sides; crossed: refused by the reference as expired, carried out by the fault.
    expect(steps[1]).toMatch(/target: +200 \{"status":"ok"/)
    expect(steps[1]).toMatch(/reference: +200 \{"status":"ok"/)
    expect(steps[3]).toMatch(/target: +200 \{"status":"ok"/)
    expect(steps[3]).toMatch(/reference: +200 \{"status":"err","response":"Request expired/)
    const reference = await replay(await onClock('reference'))
    expect(reference.summary.results[0]!.outcome, reference.summary.results[0]!.message).toBe('pass')
  }, 60_000)

  it('explored: the fault is caught within a small budget, the reference server gives no finding on the expiry', async () => {
    const run = async (name: string) => {
      const t = await onClock(name)
      return explore({
        target: t.url,
        clock: t.clock,
        symbols: t.symbols.slice(0, 3),
        budget: { sequences: 80 },
        seed: 1,
        workers: 1,
        maxFound: 6,
      })
    }
    const fault = await run('expiry-ignored')
    expect(
      fault.found.find((f) => f.divergence.rule === 'PERP-8'),
      said(fault),
    ).toBeDefined()
    const reference = await run('reference')
    expect(
      reference.found.filter((f) => f.divergence.rule === 'PERP-8'),
      said(reference),
    ).toEqual([])
  }, 120_000)
})

describe('--sunset', () => {
  it('honoured: past the sunset the oracle refuses an order without route, as a server requiring route does', async () => {
    const v = VARIANT_SERVERS.find((x) => x.name === 'route required after the sunset')!
    const t = await v.start()
    closing.push(t)
    const run = (sunset?: string) =>
      explore({
        target: t.url,
        clock: t.clock,
        symbols: t.symbols,
        budget: { sequences: 40 },
        seed: 1,
        workers: 1,
        ...(sunset ? { sunset } : {}),
      })
    const before = await run()
    const route = (r: Awaited<ReturnType<typeof run>>) =>
      r.found.filter((f) => f.divergence.rule === 'ROUTE-4' || f.divergence.rule === 'ROUTE-5')
    expect(route(before).length, 'without --sunset the reference takes route-less orders: a warning').toBeGreaterThan(0)
    const after = await run('2026-01-01')
    expect(route(after).map((f) => f.divergence.what)).toEqual([])
    await expect(explore({ budget: { sequences: 1 }, sunset: 'soon' })).rejects.toThrow(/the sunset is a date/)
  }, 180_000)
})
