/**
 * The broadcaster on its own, with stub sockets and fake timers: the frames of a turn leave as one
 * buffer per subscriber, a steady stream leaves at most every FLUSH_INTERVAL_MS, an update after a
 * quiet spell leaves at the end of its turn, and a subscriber over the cap is handed to `slow`
 * instead of written to. The frames are checked byte by byte against RFC 6455 section 5.2.
 */
import type { Duplex } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import { createBroadcaster, FLUSH_INTERVAL_MS, textFrame } from '../../src/server/ws-broadcast.ts'

interface Stub {
  ws: WebSocket
  writes: Buffer[]
}

function stub(bufferedAmount = 0): Stub {
  const writes: Buffer[] = []
  const socket = { destroyed: false, write: (b: Buffer) => writes.push(b) } as unknown as Duplex
  const ws = { readyState: 1, OPEN: 1, bufferedAmount, socket } as unknown as WebSocket
  return { ws, writes }
}

const socketOf = (ws: WebSocket) => (ws as unknown as { socket: Duplex }).socket
const text = (s: string) => Buffer.from(s)

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] }))
afterEach(() => vi.useRealTimers())

describe('textFrame', () => {
  it('is FIN + text opcode, an unmasked length, then the payload (7-bit and 16-bit lengths)', () => {
    expect([...textFrame(text('a'))]).toEqual([0x81, 0x01, 0x61])
    const long = textFrame(Buffer.alloc(200, 0x62))
    expect([...long.subarray(0, 4)]).toEqual([0x81, 0x7e, 0x00, 0xc8])
    expect(long.length).toBe(204)
  })
})

describe('createBroadcaster', () => {
  it('writes the frames of one turn as one buffer to each subscriber, in order', () => {
    const a = stub()
    const b = stub()
    const bc = createBroadcaster({ socketOf, cap: 1 << 20, slow: vi.fn() })
    bc.send('w orders', () => [a.ws, b.ws], text('one'))
    bc.send('w orders', () => [a.ws, b.ws], text('two'))
    expect(a.writes).toEqual([])
    vi.advanceTimersByTime(0)
    const both = Buffer.concat([textFrame(text('one')), textFrame(text('two'))])
    expect(a.writes).toEqual([both])
    expect(b.writes).toEqual([both])
  })

  it('under a steady stream writes at most every FLUSH_INTERVAL_MS; after a quiet spell at once', () => {
    const a = stub()
    const bc = createBroadcaster({ socketOf, cap: 1 << 20, slow: vi.fn() })
    bc.send('k', () => [a.ws], text('1'))
    vi.advanceTimersByTime(0)
    expect(a.writes).toHaveLength(1)
    bc.send('k', () => [a.ws], text('2'))
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS - 1)
    bc.send('k', () => [a.ws], text('3'))
    expect(a.writes).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(a.writes).toHaveLength(2)
    expect(a.writes[1]).toEqual(Buffer.concat([textFrame(text('2')), textFrame(text('3'))]))
    vi.advanceTimersByTime(10 * FLUSH_INTERVAL_MS)
    bc.send('k', () => [a.ws], text('4'))
    vi.advanceTimersByTime(0)
    expect(a.writes).toHaveLength(3)
  })

  it('hands a subscriber over the cap to slow() and writes nothing to it', () => {
    const full = stub(1000)
    const fine = stub()
    const slow = vi.fn()
    const bc = createBroadcaster({ socketOf, cap: 1000, slow })
    bc.send('k', () => [full.ws, fine.ws], text('x'))
    vi.advanceTimersByTime(0)
    expect(slow).toHaveBeenCalledWith(full.ws)
    expect(full.writes).toEqual([])
    expect(fine.writes).toHaveLength(1)
  })

  it('writes a flush larger than the cap to a subscriber with nothing unsent', () => {
    const idle = stub(0)
    const slow = vi.fn()
    const bc = createBroadcaster({ socketOf, cap: 10, slow })
    bc.send('k', () => [idle.ws], Buffer.alloc(50))
    vi.advanceTimersByTime(0)
    expect(slow).not.toHaveBeenCalled()
    expect(idle.writes).toHaveLength(1)
  })

  it('a sealed key starts a new batch with the subscribers of then', () => {
    const a = stub()
    const late = stub()
    const bc = createBroadcaster({ socketOf, cap: 1 << 20, slow: vi.fn() })
    bc.send('k', () => [a.ws], text('before'))
    bc.seal('k')
    bc.send('k', () => [a.ws, late.ws], text('after'))
    vi.advanceTimersByTime(0)
    expect(late.writes).toEqual([textFrame(text('after'))])
    expect(Buffer.concat(a.writes)).toEqual(Buffer.concat([textFrame(text('before')), textFrame(text('after'))]))
  })
})
