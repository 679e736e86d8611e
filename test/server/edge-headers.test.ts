/**
 * The HTTP edge writes a reply's headers as one flat list: its own Content-Type, Content-Length
 * and Connection must replace a reply's header of the same name in place (as assigning into a
 * copy of the headers object did), never be sent twice; and plain request targets, routed
 * without building a URL, must route exactly as the URL-normalised ones do.
 */
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { call, start } from './helpers.ts'

/** GET with the request target sent as written (fetch would normalise dot segments itself). */
function rawHeaders(url: string, path: string): Promise<{ status: number; raw: string[]; body: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET' }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: res.rawHeaders, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('HTTP edge', () => {
  it("replaces a reply's own Content-Type and Content-Length in place, once each", async () => {
    const s = await start(
      {},
      {
        transformReply: (reply) => ({
          ...reply,
          headers: { 'Content-Type': 'text/plain', 'X-First': 'a', 'Content-Length': '1', ...reply.headers },
        }),
      },
    )
    try {
      const { raw } = await rawHeaders(s.url, '/no-such-path')
      const names = raw.filter((_, i) => i % 2 === 0)
      expect(names.filter((n) => n === 'Content-Type')).toHaveLength(1)
      expect(names.filter((n) => n === 'Content-Length')).toHaveLength(1)
      // In place: the reply's order (Content-Type, X-First, Content-Length) is kept.
      const at = (n: string) => names.indexOf(n)
      expect(at('Content-Type')).toBeLessThan(at('X-First'))
      expect(at('X-First')).toBeLessThan(at('Content-Length'))
      expect(raw[raw.indexOf('Content-Type') + 1]).toBe('application/json; charset=utf-8')
      const body = await call(s, 'GET', '/no-such-path')
      expect(Number(body.headers.get('content-length'))).toBe(Buffer.byteLength(body.text))
    } finally {
      await s.close()
    }
  })

  it('routes plain targets as their URL-normalised spellings', async () => {
    const s = await start()
    try {
      for (const [plain, other] of [
        ['/order', '/./order'],
        ['/order', '/x/../order'],
        ['/no-such-path', '/no-such-path?x=1'],
      ] as const) {
        const a = await rawHeaders(s.url, plain)
        const b = await rawHeaders(s.url, other)
        expect(b.status).toBe(a.status)
        expect((JSON.parse(b.body) as { code?: string }).code).toBe((JSON.parse(a.body) as { code?: string }).code)
      }
      expect((await call(s, 'GET', '/order')).status).toBe(405)
    } finally {
      await s.close()
    }
  })
  it("a server fault on a rate-limited endpoint is a 500 that still carries the rate-limit headers; a read's 500 carries none", async () => {
    const fault = () => {
      throw new Error('a fault of the server itself')
    }
    const s = await start({}, { parseBody: fault })
    const stderr = process.stderr.write
    process.stderr.write = () => true
    try {
      const order = await call(s, 'POST', '/order', '{}')
      expect(order.status).toBe(500)
      expect(order.json.code).toBe('internal_error')
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(order.headers.get(h), h).toMatch(/^\d+$/)
      const info = await call(s, 'POST', '/info', '{"type":"meta"}')
      expect(info.status).toBe(500)
      expect(info.headers.get('x-ratelimit-limit')).toBeNull()
    } finally {
      process.stderr.write = stderr
      await s.close()
    }
  })
})
