/**
 * `oec proxy` in front of the reference server, on loopback: responses byte-identical to direct
 * ones, a clean session reports nothing, a client's number price, chainId-1 signature and reused
 * nonce are reported as exactly those, and server faults injected behind the proxy (a dropped
 * rate-limit header, an undeclared status) are the server's.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startProxy, type RunningProxy } from '../../src/proxy/index.ts'
import { SimulatedClock, startServer, type RunningServer, type ServerDeps } from '../../src/server/index.ts'
import { OEC, ROOT } from '../helpers/cli.ts'
import { runMain } from '../helpers/main.ts'
import { account, approveAgent, MISTAKES, OPTIONS_DOMAIN, OTHER_KEY, PERP_DOMAIN, perpOrder, placeOrder } from '../explain/independent.ts'

interface Raw {
  status: number
  headers: string[]
  body: Buffer
}

/** One request over a fresh connection; the raw headers and body bytes as received. */
function send(
  base: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, base)
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path: u.pathname + u.search,
        headers: body !== undefined ? { ...headers, 'content-length': String(Buffer.byteLength(body)) } : {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.rawHeaders, body: Buffer.concat(chunks) }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Raw headers minus the ones that name a moment or a connection, not the answer. */
const stable = (h: string[]) => {
  const out: string[] = []
  for (let i = 0; i < h.length; i += 2)
    if (!['date', 'connection', 'keep-alive'].includes(h[i]!.toLowerCase())) out.push(`${h[i]}: ${h[i + 1]}`)
  return out
}

const servers: RunningServer[] = []
const proxies: RunningProxy[] = []
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close()
  for (const s of servers.splice(0)) await s.close()
})

async function behindProxy(deps: Partial<ServerDeps> = {}, start = Date.UTC(2026, 10, 23, 6, 0, 0)) {
  const server = await startServer({ deps: { clock: new SimulatedClock(start), ...deps } })
  servers.push(server)
  const proxy = await startProxy({ target: server.url })
  proxies.push(proxy)
  return { server, proxy }
}

const chain1 = MISTAKES.find((m) => m.name === 'chainId 1')!
const numberPrice = MISTAKES.find((m) => m.name === 'price sent as a number')!

describe('oec proxy', () => {
  it('forwards byte for byte: status, headers and body equal the direct answers', async () => {
    const start = Date.UTC(2026, 10, 23, 6, 0, 0)
    const direct = await startServer({ deps: { clock: new SimulatedClock(start) } })
    servers.push(direct)
    const { proxy } = await behindProxy({}, start)
    const script: [string, string, string?][] = [
      ['POST', '/order', await placeOrder([], { nonce: 11n })],
      ['POST', '/order', await placeOrder([chain1], { nonce: 12n })],
      ['POST', '/order', '{not json'],
      ['DELETE', '/order', JSON.stringify({ wallet: account.address, client_id: 'c-1', nonce: 13, signature: `0x${'1'.repeat(130)}` })],
      ['GET', '/orderbook?symbol=BTC-20261225-100000-C'],
      ['GET', '/orderbook?symbol=NOPE'],
      ['GET', '/health'],
      ['GET', '/nowhere'],
      ['HEAD', '/health'],
    ]
    for (const [method, path, body] of script) {
      const a = await send(direct.url, method, path, body)
      const b = await send(proxy.url, method, path, body)
      expect({ path, status: b.status, headers: stable(b.headers) }).toEqual({ path, status: a.status, headers: stable(a.headers) })
      expect(b.body.equals(a.body)).toBe(true)
    }
  })

  it('a clean session reports nothing', async () => {
    const { proxy } = await behindProxy()
    const agent = privateKeyToAccount(OTHER_KEY)
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([], { nonce: 21n }))).status).toBe(200)
    expect((await send(proxy.url, 'POST', '/approve-agent', await approveAgent(agent.address, 22n))).status).toBe(200)
    // The approved agent signs for the wallet: the proxy learnt the approval from the session.
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([], { key: OTHER_KEY, nonce: 23n }))).status).toBe(200)
    expect((await send(proxy.url, 'GET', '/orderbook?symbol=BTC-20261225-100000-C')).status).toBe(200)
    expect((await send(proxy.url, 'GET', `/orders?wallet=${account.address}`)).status).toBe(200)
    await proxy.idle()
    expect(proxy.violations()).toEqual([])
    expect(proxy.summary().results.every((r) => r.outcome === 'pass')).toBe(true)
    expect(proxy.summary().results).toHaveLength(5)
  })

  it('an agent approved before the session: its accepted order is learnt, not reported', async () => {
    const { server, proxy } = await behindProxy()
    const agent = privateKeyToAccount(OTHER_KEY)
    expect((await send(server.url, 'POST', '/approve-agent', await approveAgent(agent.address, 24n))).status).toBe(200)
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([], { key: OTHER_KEY, nonce: 25n }))).status).toBe(200)
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([chain1], { key: OTHER_KEY, nonce: 26n }))).status).toBe(401)
    await proxy.idle()
    expect(proxy.violations().map((x) => [x.party, x.seq, x.message])).toEqual([
      ['client', 2, 'chain_id: you signed chainId 1; the service signs 999'],
    ])
  })

  it("a number price, a chainId-1 signature and a reused nonce: exactly those, the client's", async () => {
    const { proxy } = await behindProxy()
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([], { nonce: 31n }))).status).toBe(200)
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([numberPrice], { nonce: 32n }))).status).toBeGreaterThanOrEqual(400)
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([chain1], { nonce: 33n }))).status).toBe(401)
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([], { nonce: 31n, price: '101.5' }))).status).toBe(409)
    await proxy.idle()
    const v = proxy.violations()
    expect(v.map((x) => [x.party, x.seq, x.check])).toEqual([
      ['client', 2, 'schema+signature'],
      ['client', 3, 'signature'],
      ['client', 4, 'nonce'],
    ])
    expect(v[0]!.rules).toEqual(expect.arrayContaining(['PO-5', 'SIGFAIL-1']))
    expect(v[0]!.message).toMatch(/^number_field: price is sent as the JSON number 100.5/)
    expect(v[1]!.rules).toContain('SIGFAIL-4')
    expect(v[1]!.message).toBe('chain_id: you signed chainId 1; the service signs 999')
    expect(v[2]!.rules).toEqual(['NONCE-2'])
    const failed = proxy.summary().results.filter((r) => r.outcome === 'fail')
    expect(failed.map((r) => r.id)).toEqual(['client.schema+signature.2', 'client.signature.3', 'client.nonce.4'])
  })

  it('a refused perp request is explained against the addresses the session knows', async () => {
    const { proxy } = await behindProxy()
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([], { nonce: 81n }))).status).toBe(200)
    await send(proxy.url, 'POST', '/exchange', await perpOrder(PERP_DOMAIN, 82n))
    await send(proxy.url, 'POST', '/exchange', await perpOrder(OPTIONS_DOMAIN, 83n))
    await proxy.idle()
    const v = proxy.violations()
    expect(v.map((x) => [x.party, x.seq, x.check])).toEqual([
      ['client', 3, 'signature'],
      ['client', 3, 'signature'],
    ])
    expect(v.map((x) => x.message.split(':')[0])).toEqual(['domain_name', 'chain_id'])
    expect(v[0]!.rules).toEqual(['PERP-1', 'PERP-3'])
  })

  it('a server that drops a rate-limit header is at fault, not the client', async () => {
    const { proxy } = await behindProxy({
      transformReply: (reply) => {
        const { 'X-RateLimit-Remaining': _, ...headers } = reply.headers
        return { ...reply, headers }
      },
    })
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([], { nonce: 41n }))).status).toBe(200)
    await proxy.idle()
    expect(proxy.violations().map((x) => [x.party, x.check, x.rules])).toEqual([['server', 'rate_headers', ['RL-6']]])
  })

  it('a server that answers an undeclared status is at fault', async () => {
    const { proxy } = await behindProxy({
      transformReply: (reply, rc) => (rc.operationId === 'placeOrder' && reply.status === 200 ? { ...reply, status: 202 } : reply),
    })
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([], { nonce: 51n }))).status).toBe(202)
    await proxy.idle()
    const v = proxy.violations()
    expect(v.map((x) => [x.party, x.check, x.rules])).toEqual([['server', 'status', ['EP-1']]])
    expect(proxy.summary().results.find((r) => r.outcome === 'fail')?.id).toBe('server.status.1')
  })

  it('passes WebSocket upgrades through', async () => {
    const { proxy } = await behindProxy()
    const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    const pushed = new Promise<{ channel: string; data: { wallet: string } }>((resolve) =>
      ws.once('message', (d) => resolve(JSON.parse(d.toString()))),
    )
    ws.send(JSON.stringify({ method: 'subscribe', params: { channel: 'orders', wallet: account.address } }))
    await new Promise((r) => setTimeout(r, 150))
    expect((await send(proxy.url, 'POST', '/order', await placeOrder([], { nonce: 61n }))).status).toBe(200)
    const msg = await pushed
    expect(msg.channel).toBe('orders')
    expect(msg.data.wallet.toLowerCase()).toBe(account.address.toLowerCase())
    ws.close()
  })

  it('bad input is one line, exit 2', async () => {
    for (const args of [
      ['proxy'],
      ['proxy', '--target', 'not a url', '--port', '0'],
      ['proxy', '--target', 'http://127.0.0.1:1', '--reporter', 'xml'],
    ]) {
      const r = await runMain(args)
      expect(r.code).toBe(2)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
    }
  })

  it('as a process: live lines, and the json report written on SIGTERM', { timeout: 60_000 }, async () => {
    const server = await startServer()
    servers.push(server)
    const out = join(mkdtempSync(join(tmpdir(), 'oec-proxy-')), 'report.json')
    const child = spawn(process.execPath, [OEC, 'proxy', '--target', server.url, '--port', '0', '--reporter', 'json', '--out', out], {
      cwd: ROOT,
      env: { ...process.env, OEC_DEBUG: '' },
    })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        stdout += d
        const m = /listening on (http:\/\/\S+)/.exec(stdout)
        if (m) resolve(m[1]!)
      })
      child.on('close', (code) => reject(new Error(`oec proxy exited ${code}: ${stderr}`)))
    })
    expect((await send(url, 'POST', '/order', await placeOrder([chain1], { nonce: 71n }))).status).toBe(401)
    await new Promise((r) => setTimeout(r, 300))
    const code = new Promise<number | null>((resolve) => child.on('close', resolve))
    child.kill('SIGTERM')
    expect(await code).toBe(1)
    expect(stdout).toMatch(/\[client\] #1 POST \/order SIGFAIL-4,DOM-3 FAIL: chain_id: you signed chainId 1; the service signs 999/)
    const report = JSON.parse(readFileSync(out, 'utf8')) as { results: { id: string; outcome: string }[] }
    expect(report.results.filter((r) => r.outcome === 'fail').map((r) => r.id)).toEqual(['client.signature.1'])
  })
})
