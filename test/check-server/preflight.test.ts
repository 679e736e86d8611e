/**
 * The preflights: each wrong setup of the issue, reproduced on loopback, is one line naming the
 * likely cause and the flag that fixes it, exit 2, before any case runs (at most 3 lines of
 * output, within 10 s); `--no-preflight` runs the cases anyway.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startServer, type RunningServer } from '../../src/server/index.ts'
import { runOec, type RunResult } from '../helpers/cli.ts'

// Each test starts the binary, some several times: a loaded machine gets the time it needs.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 })

let reference: RunningServer
let otherDomain: RunningServer
let notFound: Server
let notFoundUrl: string
let listed: string

beforeAll(async () => {
  reference = await startServer({ port: 0, config: { log: false } })
  otherDomain = await startServer({ port: 0, config: { log: false, domainName: 'OtherService' } })
  listed = reference.config.instruments[0]!
  notFound = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>')
  })
  await new Promise<void>((resolve) => notFound.listen(0, '127.0.0.1', resolve))
  notFoundUrl = `http://127.0.0.1:${(notFound.address() as AddressInfo).port}`
})
afterAll(async () => {
  await reference.close()
  await otherDomain.close()
  await new Promise((resolve) => notFound.close(resolve))
})

/** Runs the binary and times it: a preflight answers long before any case would. */
async function timed(args: string[]): Promise<RunResult & { seconds: number; lines: string[] }> {
  const t0 = performance.now()
  const r = await runOec(args, { timeoutMs: 60_000 })
  const lines = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim() !== '')
  return { ...r, seconds: (performance.now() - t0) / 1000, lines }
}

function expectPreflightLine(r: Awaited<ReturnType<typeof timed>>, cause: RegExp): void {
  expect(r.code, r.stdout + r.stderr).toBe(2)
  expect(r.lines.length).toBeLessThanOrEqual(3)
  expect(r.stderr).toMatch(cause)
  expect(r.stderr).toMatch(/--no-preflight/)
  expect(r.stdout).not.toMatch(/passed|failed/)
  expect(r.seconds).toBeLessThan(10)
}

describe('check server preflight', () => {
  it('a wrong base path: names the base URL where the health operation answers', async () => {
    const r = await timed(['check', 'server', '--target', `${reference.url}/api/v9`, '--symbol', listed])
    expectPreflightLine(
      r,
      new RegExp(`every operation of the contract answers 404 .*use --target ${reference.url.replace(/[.]/g, '\\.')}(?![/\\w])`),
    )
  })

  it('a host that answers 404 to everything: says to fix --target', async () => {
    const r = await timed(['check', 'server', '--target', notFoundUrl, '--symbol', listed])
    expectPreflightLine(r, /every operation of the contract answers 404 at .*Fix the host or path in --target/)
  })

  it('a --symbol the target does not list: names it and --symbol', async () => {
    const r = await timed(['check', 'server', '--target', reference.url, '--symbol', 'OECUNLISTED-20301231-1-C'])
    expectPreflightLine(r, /does not list the symbol OECUNLISTED-20301231-1-C .*--symbol/)
  })

  it('a server signing under another domain name: names the domain tried and --domain-name', async () => {
    const r = await timed(['check', 'server', '--target', otherDomain.url, '--symbol', listed])
    expectPreflightLine(r, /refuses an order signed for the domain "Service" on chain 999 .*--domain-name and --chain-id/)
  })

  it('passes a correct setup on to the cases, and --no-preflight runs the cases on a wrong one', async () => {
    const ok = await timed([
      'check',
      'server',
      '--target',
      otherDomain.url,
      '--domain-name',
      'OtherService',
      '--symbol',
      listed,
      '--only',
      'err.head',
      '--reporter',
      'json',
    ])
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout).results.length).toBeGreaterThan(0)
    const anyway = await timed([
      'check',
      'server',
      '--target',
      notFoundUrl,
      '--symbol',
      listed,
      '--only',
      'err.orderbook-missing',
      '--reporter',
      'json',
      '--no-preflight',
    ])
    expect(anyway.code, anyway.stderr).toBe(1)
    expect(JSON.parse(anyway.stdout).results.length).toBeGreaterThan(0)
  })
})

describe('check client preflight', () => {
  it('a testee command that does not exist: one line naming it and what to check', async () => {
    const r = await timed(['check', 'client', '--', './no-such-signer'])
    expectPreflightLine(
      r,
      /the testee `\.\/no-such-signer` did not answer a first request \(cannot start .*ENOENT\): check the program after --/,
    )
  })
})
