/**
 * The connection layer over real sockets on loopback: 408 for a header section or a body that
 * does not arrive in time, 431 for an oversized header section (catalog bodies, connection
 * closed), and the connection cap with GET /health still answered on a connection over it.
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, signedOrder, start, wallet, type Started } from './helpers.ts'

/** Everything the server sends on a raw connection until it closes it. */
function rawExchange(url: string, write: (socket: Socket) => void): Promise<{ status: number; headers: string; body: any }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let text = ''
    socket.on('data', (d) => (text += d))
    socket.on('error', reject)
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n')
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body: body ? JSON.parse(body) : undefined })
    })
    socket.on('connect', () => write(socket))
  })
}

describe('timeouts and header limits', () => {
  let s: Started
  beforeAll(async () => {
    s = await start({ headerTimeoutMs: 300, requestTimeoutMs: 600 })
  })
  afterAll(() => s.close())

  it('answers 408 request_timeout when the header section stalls, then closes', async () => {
    const r = await rawExchange(s.url, (sock) => sock.write('GET /health HTTP/1.1\r\nHost: x\r\n'))
    expect(r.status).toBe(408)
    expect(r.body).toMatchObject({ code: 'request_timeout' })
    expect(r.headers).toMatch(/connection: close/i)
  })

  it('answers 408 when the body stalls after the headers', async () => {
    const r = await rawExchange(s.url, (sock) =>
      sock.write('POST /order HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"wallet":'),
    )
    expect(r.status).toBe(408)
    expect(r.body).toMatchObject({ code: 'request_timeout' })
  })

  it('answers 431 headers_too_large for a header section over the limit', async () => {
    const r = await rawExchange(s.url, (sock) => sock.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`))
    expect(r.status).toBe(431)
    expect(r.body).toMatchObject({ code: 'headers_too_large' })
  })

  it('still answers a request that arrives in time', async () => {
    expect((await call(s, 'GET', '/health')).status).toBe(200)
  })
})

describe('connection cap', () => {
  let s: Started
  const held: Socket[] = []
  beforeAll(async () => {
    s = await start({ maxConnections: 4, headerTimeoutMs: 5_000, requestTimeoutMs: 10_000 })
  })
  afterAll(async () => {
    for (const h of held) h.destroy()
    await s.close()
  })

  it('answers GET /health and refuses other requests with 503 on a connection over the cap', async () => {
    const { hostname, port } = new URL(s.url)
    // Four slow clients in the middle of their header sections fill the cap.
    for (let i = 0; i < 4; i++) {
      const sock = connect(Number(port), hostname)
      await new Promise((r) => sock.once('connect', r))
      sock.write('GET /health HTTP/1.1\r\nHost: x\r\n')
      held.push(sock)
    }
    // Their bytes must have reached the server: a socket that has sent nothing counts as idle and
    // would be evicted to make room (test/server/idle-sockets.test.ts).
    await new Promise((r) => setTimeout(r, 50))
    const health = await rawExchange(s.url, (sock) => sock.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n'))
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: 'ok' })
    expect(health.headers).toMatch(/connection: close/i)

    const w = wallet()
    const body = await signedOrder(w)
    const busy = await rawExchange(s.url, (sock) =>
      sock.write(
        `POST /order HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      ),
    )
    expect(busy.status).toBe(503)
    expect(busy.body).toMatchObject({ code: 'too_many_connections' })
    expect(busy.headers).toMatch(/retry-after: 1/i)
    expect(busy.headers).toMatch(/x-ratelimit-limit/i)

    // Once the slow clients are gone, new connections are served as usual.
    for (const h of held.splice(0)) h.destroy()
    await new Promise((r) => setTimeout(r, 50))
    const after = await call(s, 'POST', '/order', await signedOrder(w))
    expect(after.status).toBe(200)
  })
})
