/**
 * `oec proxy` in front of an https:// target (a staging server behind TLS): requests go through
 * unchanged, with the `--header` a gateway wants added. The target's certificate is a
 * self-signed one made by openssl for this test and trusted through NODE_EXTRA_CA_CERTS.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { OEC, ROOT } from '../helpers/cli.ts'

// Each test starts the binary, some several times: a loaded machine gets the time it needs.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 })

const tmp = mkdtempSync(join(tmpdir(), 'oec-https-'))
let hasOpenssl = true
try {
  execFileSync('openssl', ['version'], { stdio: 'ignore' })
} catch {
  hasOpenssl = false
}

let target: Server
let targetUrl: string
let proxy: ChildProcess | undefined
const seen: { path: string; key: string | undefined }[] = []

beforeAll(async () => {
  if (!hasOpenssl) return
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(tmp, 'key.pem'),
      '-out',
      join(tmp, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  )
  target = createServer({ key: readFileSync(join(tmp, 'key.pem')), cert: readFileSync(join(tmp, 'cert.pem')) }, (req, res) => {
    seen.push({ path: req.url ?? '', key: req.headers['x-api-key'] as string | undefined })
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
  })
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  targetUrl = `https://127.0.0.1:${(target.address() as AddressInfo).port}`
})
afterAll(async () => {
  proxy?.kill('SIGTERM')
  if (target) await new Promise((resolve) => target.close(resolve))
  rmSync(tmp, { recursive: true, force: true })
})

describe.skipIf(!hasOpenssl)('oec proxy to an https:// target', () => {
  it('forwards over TLS and adds the --header to every request', async () => {
    proxy = spawn(process.execPath, [OEC, 'proxy', '--target', targetUrl, '--port', '0', '--header', 'X-Api-Key: k-1'], {
      cwd: ROOT,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(tmp, 'cert.pem') },
    })
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      proxy!.stdout!.on('data', (d) => {
        out += d
        const m = /listening on (http:\/\/\S+) -> https:/.exec(out)
        if (m) resolve(m[1]!)
      })
      proxy!.on('close', (code) => reject(new Error(`proxy exited ${code}`)))
    })
    const r = await fetch(`${url}/health`)
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ status: 'ok' })
    expect(seen).toEqual([{ path: '/health', key: 'k-1' }])
  })
})
