/**
 * Silent sockets against the connection cap, on a real `oec serve` process: 1,000 TCP connections
 * that never send a byte must not lock out GET /health, the process must hold no more than the cap
 * plus its documented flood headroom, and a new client must be served once the silent ones are
 * evicted (a socket that has sent nothing counts as idle).
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Served, startServe } from '../helpers/cli.ts'
import { SYMBOL } from './helpers.ts'

const CAP = 500
const SILENT = 1_000
/** The documented margin past the cap (docs/serve.md, Connections). */
const HEADROOM = 64

/** One GET on a fresh connection; the status line's code, or 0 when no answer came within `ms`. */
function getStatus(url: string, path: string, ms: number): Promise<number> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    let text = ''
    const timer = setTimeout(() => finish(0), ms)
    function finish(code: number) {
      clearTimeout(timer)
      socket.destroy()
      resolve(code)
    }
    socket.on('data', (d) => {
      text += d
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text)
      if (m && text.includes('\r\n\r\n')) finish(Number(m[1]))
    })
    socket.on('error', () => finish(0))
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))
  })
}

describe(`${SILENT} silent sockets against --max-connections ${CAP}`, () => {
  let served: Served
  const silent: Socket[] = []
  let closedByServer = 0
  beforeAll(async () => {
    served = await startServe(['--port', '0', '--max-connections', String(CAP)]).ready
    const { hostname, port } = new URL(served.url)
    await Promise.all(
      Array.from({ length: SILENT }, () => {
        const sock = connect(Number(port), hostname)
        silent.push(sock)
        sock.on('error', () => {})
        sock.on('close', () => (closedByServer += 1))
        return new Promise((r) => {
          sock.once('connect', r)
          sock.once('close', r)
        })
      }),
    )
  }, 60_000)
  afterAll(() => {
    for (const s of silent) s.destroy()
    served?.child.kill()
  })

  it('answers GET /health 5 of 5 within 1 s each', async () => {
    const codes: number[] = []
    for (let i = 0; i < 5; i++) codes.push(await getStatus(served.url, '/health', 1_000))
    expect(codes).toEqual([200, 200, 200, 200, 200])
  })

  it('holds at most the cap plus its headroom, and serves a new client in full', async () => {
    // Let the server's closes reach this side.
    await new Promise((r) => setTimeout(r, 200))
    const held = SILENT - closedByServer
    expect(held).toBeLessThanOrEqual(CAP + HEADROOM)
    // A request other than /health: over the cap it would be 503 too_many_connections.
    expect(await getStatus(served.url, `/orderbook?symbol=${SYMBOL}`, 1_000)).toBe(200)
  })
})
