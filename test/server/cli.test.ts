/** `oec serve` through the real binary: start with no config, a signed order over HTTP, errors, signals. */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { OEC, ROOT, runOec, startServe, type Served } from '../helpers/cli.ts'
import { key } from './helpers.ts'

const children: ChildProcess[] = []
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
})

function serve(args: string[]): Promise<Served> {
  const s = startServe(args)
  children.push(s.child)
  return s.ready
}

// Each case spawns the real binary; tsx start-up dominates, and a loaded CI box is slow at it.
describe('oec serve', { timeout: 90_000 }, () => {
  it('starts with no config; an order signed with `oec sign` is ACKED over plain HTTP; SIGTERM stops it (exit 0)', async () => {
    const k = key(777)
    const started = serve(['--port', '0', '--log'])
    const signing = new Promise<string>((resolve, reject) => {
      const c = spawn(
        process.execPath,
        [
          OEC,
          'sign',
          '--kind',
          'PlaceOrder',
          '--symbol',
          'BTC-20261225-100000-C',
          '--side',
          'Buy',
          '--size',
          '1',
          '--price',
          '100.0',
          '--tif',
          'gtc',
          '--route',
          'book_only',
          '--client-id',
          'cli-1',
        ],
        {
          cwd: ROOT,
          env: { ...process.env, OEC_PRIVATE_KEY: k },
        },
      )
      let out = ''
      c.stdout.on('data', (d) => (out += d))
      c.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`oec sign exited ${code}`))))
    })
    const [s, signedBody] = await Promise.all([started, signing])
    const r = await fetch(`${s.url}/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: signedBody })
    expect(r.status).toBe(200)
    expect(((await r.json()) as { status: string }).status).toBe('ACKED')
    s.child.kill('SIGTERM')
    expect(await s.exit).toBe(0)
    const log = s
      .stderr()
      .split('\n')
      .find((l) => l.startsWith('{'))
    expect(JSON.parse(log!)).toMatchObject({ method: 'POST', path: '/order', status: 200 })
    expect(s.stderr()).toContain('stopped')
  })

  it('a bad config key through the binary: one line naming it, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oec-serve-'))
    const cfg = join(dir, 'c.json')
    writeFileSync(cfg, '{"instrument":["BTC-20261225-1-C"]}')
    const bad = await runOec(['serve', '--config', cfg], { timeoutMs: 60_000 })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('unknown key "instrument"')
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
  })
})

/** The same command in-process (no tsx start-up per case): start-up errors and help. */
describe('oec serve in-process', () => {
  async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = ''
    let stderr = ''
    const sink = (add: (s: string) => void) => new Writable({ write: (chunk, _enc, cb) => (add(String(chunk)), cb()) })
    const code = await main(args, { stdout: sink((x) => (stdout += x)), stderr: sink((x) => (stderr += x)), stdin: Readable.from([]) })
    return { code, stdout, stderr }
  }

  it('a port in use: one line, exit 2', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()))
    const port = (blocker.address() as { port: number }).port
    try {
      const r = await run(['serve', '--port', String(port)])
      expect(r.code).toBe(2)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).toContain('in use')
    } finally {
      blocker.close()
    }
  })

  it('an unknown tier, a malformed --wallet-tier, a bad instrument, a bad port: one line each, exit 2', async () => {
    const tier = await run(['serve', '--wallet-tier', `0x${'ab'.repeat(20)}=gold`])
    expect(tier.code).toBe(2)
    expect(tier.stderr).toContain('unknown tier "gold"')
    const pair = await run(['serve', '--wallet-tier', 'nope'])
    expect(pair.code).toBe(2)
    expect(pair.stderr).toContain('ADDRESS=TIER')
    const sym = await run(['serve', '--symbols', 'BTC-20261325-1-C'])
    expect(sym.code).toBe(2)
    expect(sym.stderr).toContain('BTC-20261325-1-C')
    const port = await run(['serve', '--port', 'x'])
    expect(port.code).toBe(2)
  })

  it('--help lists the flags', async () => {
    const r = await run(['serve', '--help'])
    expect(r.code).toBe(0)
    for (const flag of [
      '--port',
      '--host',
      '--config',
      '--symbols',
      '--wallet-tier',
      '--route-required',
      '--domain-name',
      '--chain-id',
      '--log',
    ])
      expect(r.stdout).toContain(flag)
  })
})
