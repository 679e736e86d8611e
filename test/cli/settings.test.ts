/**
 * Settings a team repeats: oec.config.{json,yaml} / package.json "oec" and OEC_* variables, for
 * any option of any command (flag > environment > file > default); `--header` on every request
 * of check server; `--target spec`; `oec` and `oec check` alone exit 2 with the help.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadContractText } from '../../src/contract/index.ts'
import { startServer, type RunningServer } from '../../src/server/index.ts'
import { resolveTarget } from '../../src/cli/target.ts'
import { OEC, type RunResult } from '../helpers/cli.ts'

// Each test starts the binary, some several times: a loaded machine gets the time it needs.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 })

const tmp = mkdtempSync(join(tmpdir(), 'oec-settings-'))
let reference: RunningServer
let gateway: Server
let gatewayUrl: string
let listed: string
/** Requests that reached the gateway, by whether they carried its key. */
const keyed = { with: 0, without: 0 }
const keyless: string[] = []

beforeAll(async () => {
  reference = await startServer({ port: 0, config: { log: false } })
  listed = reference.config.instruments[0]!
  const upstream = new URL(reference.url)
  // A gateway that hides the API unless the request carries its key.
  gateway = createServer((req, res) => {
    if (req.headers['x-api-key'] !== 'k-123') {
      keyed.without++
      keyless.push(`${req.method} ${req.url}`)
      return void res.writeHead(404).end()
    }
    keyed.with++
    const up = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers)
      ur.pipe(res)
    })
    req.pipe(up)
  })
  // A WebSocket upgrade passes the gateway on the same terms, spliced to the upstream as bytes.
  gateway.on('upgrade', (req, socket, head) => {
    if (req.headers['x-api-key'] !== 'k-123') {
      keyed.without++
      keyless.push(`UPGRADE ${req.url}`)
      return void socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n')
    }
    keyed.with++
    const up = connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`]
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`)
      up.write(`${lines.join('\r\n')}\r\n\r\n`)
      up.write(head)
      up.pipe(socket).pipe(up)
    })
    up.on('error', () => socket.destroy())
    socket.on('error', () => up.destroy())
  })
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`
})
afterAll(async () => {
  await reference.close()
  await new Promise((resolve) => gateway.close(resolve))
  rmSync(tmp, { recursive: true, force: true })
})

/** The binary in `cwd`, with extra environment variables (every inherited OEC_* cleared). */
function oecIn(cwd: string, args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OEC_')))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [OEC, ...args], { cwd, env: { ...clean, ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

function dir(name: string, files: Record<string, string>): string {
  const d = join(tmp, name)
  rmSync(d, { recursive: true, force: true })
  mkdirSync(d, { recursive: true })
  for (const [f, text] of Object.entries(files)) writeFileSync(join(d, f), text)
  return d
}

const ids = (stdout: string) => (JSON.parse(stdout) as { results: { id: string }[] }).results.map((r) => r.id.split('/')[0])

describe('configuration', () => {
  it('oec.config.json: a command section sets options of that command', async () => {
    const d = dir('json', { 'oec.config.json': JSON.stringify({ 'check server': { only: 'err.head', reporter: 'json' } }) })
    const r = await oecIn(d, ['check', 'server'])
    expect(r.code, r.stderr).toBe(0)
    expect(new Set(ids(r.stdout))).toEqual(new Set(['err.head']))
  })

  it('oec.config.yaml at the top level, and a flag wins over it, and OEC_* wins over the file', async () => {
    const d = dir('yaml', { 'oec.config.yaml': 'only: err.head\nreporter: json\n' })
    const fromFile = await oecIn(d, ['check', 'server'])
    expect(fromFile.code, fromFile.stderr).toBe(0)
    expect(fromFile.stdout.trimStart()).toMatch(/^\{/)
    const flag = await oecIn(d, ['check', 'server', '--reporter', 'junit'])
    expect(flag.stdout.trimStart()).toMatch(/^<\?xml/)
    const env = await oecIn(d, ['check', 'server'], { OEC_REPORTER: 'junit', OEC_ONLY: 'err.orderbook-missing' })
    expect(env.stdout.trimStart()).toMatch(/^<\?xml/)
    expect(env.stdout).toMatch(/err\.orderbook-missing/)
    expect(env.stdout).not.toMatch(/err\.head/)
  })

  it('package.json "oec" key; a repeatable option takes a list and a flag replaces it', async () => {
    const d = dir('pkg', {
      'package.json': JSON.stringify({ name: 'x', oec: { target: reference.url, symbols: ['OECUNLISTED-20301231-1-C', listed] } }),
    })
    const r = await oecIn(d, ['check', 'server', '--only', 'err.head'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/does not list the symbol OECUNLISTED-20301231-1-C/)
    const flag = await oecIn(d, ['check', 'server', '--only', 'err.head', '--symbol', listed])
    expect(flag.code, flag.stderr).toBe(0)
  })

  it('a bad value names where it came from, in one line (exit 2)', async () => {
    const d = dir('bad', { 'oec.config.json': JSON.stringify({ 'check server': { workerz: 3 } }) })
    const r = await oecIn(d, ['check', 'server'])
    expect(r.code).toBe(2)
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /oec\.config\.json: in "check server": unknown option of oec check server "workerz" \(did you mean "workers"\?\)/,
      ),
    ])
    const env = await oecIn(dir('env', {}), ['check', 'server'], { OEC_WORKERS: 'many' })
    expect(env.code).toBe(2)
    expect(env.stderr.trim()).toBe('oec: OEC_WORKERS: --workers takes a whole number from 1 to 64, not "many"')
  })
})

describe('--header and --target spec', () => {
  it('--header reaches a server behind a gateway that wants a key (the preflight fails without it)', async () => {
    const d = dir('header', {})
    const without = await oecIn(d, ['check', 'server', '--target', gatewayUrl, '--symbol', listed, '--only', 'err.head'])
    expect(without.code).toBe(2)
    const withKey = await oecIn(d, [
      'check',
      'server',
      '--target',
      gatewayUrl,
      '--symbol',
      listed,
      '--only',
      'err.orderbook-missing',
      '--header',
      'X-Api-Key: k-123',
    ])
    expect(withKey.code, withKey.stderr).toBe(0)
    const bad = await oecIn(d, ['check', 'server', '--header', 'no colon'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--header takes NAME:VALUE/)
  })

  it('--target spec is the first servers: URL with its variables at their defaults', () => {
    const spec = loadContractText(
      'openapi: 3.1.0\ninfo: {title: t, version: "1"}\nservers:\n  - url: "{base}/v1"\n    variables: {base: {default: "https://api.example"}}\npaths: {}\n',
      'x.yaml',
    )
    expect(resolveTarget('spec', spec)).toBe('https://api.example/v1')
    expect(resolveTarget('http://127.0.0.1:1', spec)).toBe('http://127.0.0.1:1')
    expect(() => resolveTarget('spec', loadContractText('openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\n', 'y.yaml'))).toThrow(
      /has no servers/,
    )
  })
})

describe('strict configuration', () => {
  const oneLine = (r: RunResult) => {
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    return r.stderr.trim()
  }

  it('a misspelt key is one line naming the key and the nearest known one; nothing runs', async () => {
    const d = dir('typo', { 'oec.config.yaml': 'targt: http://127.0.0.1:9\n' })
    expect(oneLine(await oecIn(d, ['check', 'server', '--only', 'err.head']))).toMatch(/unknown key "targt" \(did you mean "target"\?\)/)
    const foo = dir('foo', { 'oec.config.yaml': 'foo: 1\n' })
    expect(oneLine(await oecIn(foo, ['check', 'server', '--only', 'err.head']))).toMatch(/unknown key "foo"/)
  })

  it('a misspelt section is one line naming the nearest command', async () => {
    const d = dir('section', { 'oec.config.yaml': 'check-server:\n  workers: 2\n' })
    expect(oneLine(await oecIn(d, ['check', 'server', '--only', 'err.head']))).toMatch(
      /unknown section "check-server" \(did you mean "check server"\?\)/,
    )
    const inner = dir('inner', { 'oec.config.json': JSON.stringify({ serve: { prot: 1 } }) })
    expect(oneLine(await oecIn(inner, ['check', 'server', '--only', 'err.head']))).toMatch(
      /in "serve": unknown option .*"prot" \(did you mean "port"\?\)/,
    )
  })

  it('the instrument list is "symbols" everywhere; the old names are refused with that hint', async () => {
    for (const [name, text] of [
      ['old-symbol', 'symbol: [BTC-20261225-100000-C]\n'],
      ['old-instruments', 'instruments: [BTC-20261225-100000-C]\n'],
    ] as const) {
      const d = dir(name, { 'oec.config.yaml': text })
      expect(oneLine(await oecIn(d, ['check', 'server', '--only', 'err.head']))).toMatch(/is an old name: the instrument list is "symbols"/)
    }
    expect(oneLine(await oecIn(tmp, ['serve', '--instruments', 'BTC-20261225-100000-C']))).toMatch(
      /--instruments is an old name: use --symbols/,
    )
    expect(oneLine(await oecIn(tmp, ['check', 'server'], { OEC_SYMBOL: listed }))).toMatch(/OEC_SYMBOL is an old name/)
    // The new name works for check server (its --symbol) from the file.
    const ok = dir('symbols', { 'oec.config.yaml': `target: ${reference.url}\nsymbols: [${listed}]\n` })
    const r = await oecIn(ok, ['check', 'server', '--only', 'err.head'])
    expect(r.code, r.stderr).toBe(0)
  })

  it('OEC_HEADER takes a JSON array or lines, so a header value may hold a comma', async () => {
    const seen: string[] = []
    const recorder = createServer((req, res) => {
      seen.push(String(req.headers['x-api-key']))
      res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`
    try {
      const plain = await oecIn(tmp, ['check', 'server', '--target', url, '--symbol', listed], { OEC_HEADER: 'X-Api-Key: a,b' })
      expect(plain.code).toBe(2)
      const json = await oecIn(tmp, ['check', 'server', '--target', url, '--symbol', listed], {
        OEC_HEADER: '["X-Api-Key: c,d", "X-Other: 1"]',
      })
      expect(json.code).toBe(2)
    } finally {
      await new Promise((resolve) => recorder.close(resolve))
    }
    expect(seen).toContain('a,b')
    expect(seen).toContain('c,d')
    expect(seen.every((v) => v === 'a,b' || v === 'c,d')).toBe(true)
  })

  it('options --explore cannot honour are refused in one line', async () => {
    for (const flag of [['--only', 'err.head'], ['--skip', 'err'], ['--slow']]) {
      const line = oneLine(await oecIn(tmp, ['check', 'server', '--explore', '5', ...flag]))
      expect(line).toContain(flag[0])
      expect(line).toMatch(/--explore does not take it/)
    }
  })

  // Every mode that talks to a target: the gateway counts the requests that arrive without its key.
  const modes: { name: string; args: string[]; atLeast: number }[] = [
    { name: '--explore (and its probe)', args: ['--explore', '12'], atLeast: 20 },
    { name: 'the named checks', args: ['--only', 'auth,nonce,vectors,perp,err,bulk,route,cap,ws,rl.headers'], atLeast: 200 },
  ]
  for (const mode of modes) {
    it(`--header reaches every request of ${mode.name}`, async () => {
      const before = { ...keyed }
      const args = ['--target', gatewayUrl, '--symbol', listed, ...mode.args, '--header', 'X-Api-Key: k-123', '--reporter', 'json']
      const r = await oecIn(tmp, ['check', 'server', ...args])
      expect(r.code, r.stderr).toBe(0)
      expect(keyed.with - before.with).toBeGreaterThan(mode.atLeast)
      expect(keyless.slice(before.without)).toEqual([])
    })
  }

  it('with --target and no --symbol the error names what the target lists', async () => {
    const line = oneLine(await oecIn(tmp, ['check', 'server', '--target', reference.url]))
    expect(line).toMatch(/--symbol SYM \(it lists BTC-20261225-100000-C, /)
  })

  it('https:// against a plain-HTTP server says to use http://', async () => {
    const line = oneLine(await oecIn(tmp, ['check', 'server', '--target', reference.url.replace('http:', 'https:'), '--symbol', listed]))
    expect(line).toMatch(/the server speaks plain HTTP, not TLS: use http:\/\/127\.0\.0\.1/)
  })
})

describe('no command', () => {
  for (const args of [[], ['check']]) {
    it(`oec ${args.join(' ')} alone exits 2 and prints the help`, async () => {
      const r = await oecIn(tmp, args)
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/Usage: oec/)
    })
  }
})
