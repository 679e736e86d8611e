/**
 * The listen filter itself, on a plain net server: once attached, a new connection never
 * completes its handshake (its SYN is dropped, so the client waits to retry), while a connection
 * accepted before goes on working both ways. Needs Linux and python3 (what `oec serve` needs for it).
 */
import { execFileSync } from 'node:child_process'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { armHandshakeFilter, refuseHandshakesOnClose, refuseNewHandshakes } from '../../src/server/listen-filter.ts'

const python = (() => {
  try {
    execFileSync('python3', ['-c', 'import ctypes'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

const open: Array<Server | Socket> = []
afterEach(() => {
  for (const o of open.splice(0)) 'destroy' in o ? o.destroy() : o.close()
})

function listening(): Promise<{ server: Server; port: number; accepted: Socket[] }> {
  const accepted: Socket[] = []
  const server = createServer((s) => {
    accepted.push(s)
    s.on('data', (d) => s.write(d))
  })
  open.push(server)
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, accepted })),
  )
}

/** 'connected' or 'no handshake within MS'. */
function tryConnect(port: number, ms: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1')
    open.push(s)
    const timer = setTimeout(() => resolve(`no handshake within ${ms} ms`), ms)
    s.once('connect', () => {
      clearTimeout(timer)
      resolve('connected')
    })
    s.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      resolve(e.code ?? e.message)
    })
  })
}

describe.skipIf(process.platform !== 'linux' || !python)('listen filter (Linux, python3)', () => {
  it('without it armed nothing is attached: the caller closes plainly', async () => {
    const { server, port } = await listening()
    expect(await refuseNewHandshakes(server)).toBe(false)
    expect(await tryConnect(port, 1000)).toBe('connected')
  })

  it('attached: a new connection gets no handshake, one accepted before still echoes', async () => {
    refuseHandshakesOnClose()
    const { server, port, accepted } = await listening()
    armHandshakeFilter(server)
    const before = connect(port, '127.0.0.1')
    open.push(before)
    await new Promise<void>((resolve) => before.once('connect', () => resolve()))
    expect(await refuseNewHandshakes(server)).toBe(true)
    expect(await tryConnect(port, 600)).toBe('no handshake within 600 ms')
    const echoed = new Promise<string>((resolve) => before.once('data', (d) => resolve(d.toString())))
    before.write('still here')
    expect(await echoed).toBe('still here')
    expect(accepted).toHaveLength(1)
  })
})
