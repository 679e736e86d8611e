/**
 * Sending one wallet's updates to its many subscribers. Every subscriber of a wallet's channel
 * receives the same frames in the same order, so the updates of one event-loop turn are framed
 * once (ws's own `Sender.frame`, exported for broadcasts), joined into one buffer, and that buffer
 * is written once to each subscriber's socket at the end of the turn. Per subscriber an update
 * then costs no serialisation, no framing and no allocation, and a turn's updates cost one write:
 * sending through `ws.send` per socket framed every message again, wrote header and payload
 * separately and spent most of the server's added time in the kernel, a write per frame
 * (`npm run bench -- fanout`).
 *
 * While updates keep coming, the buffers leave at most every FLUSH_INTERVAL_MS (an update after a
 * quieter spell still leaves at the end of its own turn): per-turn writes left the kernel's
 * loopback delivery, one write per subscriber per turn, as most of the cost, and gathering
 * 20 ms of turns into one write cut the server CPU that 200 subscribers add to an order by about
 * half again (`npm run bench -- fanout`), at the price of an update waiting up to 20 ms under load.
 *
 * Writing to the socket under ws is safe here because the server negotiates no compression, so
 * ws's sender never holds frames of its own that ours could overtake; a frame is always written
 * whole, so ws's own control frames (pong, close) fall between ours, never inside one.
 */
import { createRequire } from 'node:module'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'

interface FrameOptions {
  readonly fin: boolean
  readonly opcode: number
  readonly mask: boolean
  readonly readOnly: boolean
  readonly rsv1: boolean
}
// @types/ws does not declare the Sender class; its static frame() is public since ws 2.0.
const { Sender } = createRequire(import.meta.url)('ws') as {
  Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] }
}
const TEXT: FrameOptions = { fin: true, opcode: 0x1, mask: false, readOnly: false, rsv1: false }

/** Under a steady stream of updates, one write per subscriber per this many ms. */
export const FLUSH_INTERVAL_MS = 20

/** One unmasked text frame (server to client), header and payload in one buffer. */
export function textFrame(payload: Buffer): Buffer {
  const parts = Sender.frame(payload, TEXT)
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts)
}

/** Frames of one wallet's channel in this turn, and the subscribers they go to. */
interface Batch {
  readonly frames: Buffer[]
  readonly sockets: readonly WebSocket[]
}

export interface Broadcaster {
  /** Queues a payload for `sockets` (taken once, at the first payload of a turn for this key). */
  send(key: string, sockets: () => WebSocket[], payload: Buffer): void
  /** The subscribers of `key` changed: the next payload starts a batch with the new set. */
  seal(key: string): void
}

export interface BroadcasterOptions {
  /** The socket under a WebSocket (written to directly). */
  socketOf(ws: WebSocket): Duplex | undefined
  /** Unsent bytes a subscriber may hold; past it `slow` is called instead of writing. */
  readonly cap: number
  slow(ws: WebSocket): void
  /** Default FLUSH_INTERVAL_MS. */
  readonly intervalMs?: number
}

export function createBroadcaster({ socketOf, cap, slow, intervalMs = FLUSH_INTERVAL_MS }: BroadcasterOptions): Broadcaster {
  let pending: Batch[] = []
  const open = new Map<string, Batch>()
  let lastFlush = Number.NEGATIVE_INFINITY
  const schedule = () => {
    const wait = lastFlush + intervalMs - performance.now()
    if (wait > 0) setTimeout(flush, wait)
    else setImmediate(flush)
  }
  const flush = () => {
    lastFlush = performance.now()
    const batches = pending
    pending = []
    open.clear()
    for (const { frames, sockets } of batches) {
      const data = frames.length === 1 ? frames[0]! : Buffer.concat(frames)
      for (const ws of sockets) {
        if (ws.readyState !== ws.OPEN) continue
        const socket = socketOf(ws)
        if (!socket || socket.destroyed) continue
        // A subscriber with nothing unsent takes the flush whatever its size (several turns of
        // large updates can pass the cap together); one still holding data is held to the cap.
        const unsent = ws.bufferedAmount
        if (unsent > 0 && unsent + data.length > cap) slow(ws)
        else socket.write(data)
      }
    }
  }
  return {
    send(key, sockets, payload) {
      let batch = open.get(key)
      if (!batch) {
        if (pending.length === 0) schedule()
        batch = { frames: [], sockets: sockets() }
        open.set(key, batch)
        pending.push(batch)
      }
      batch.frames.push(textFrame(payload))
    },
    seal: (key) => open.delete(key),
  }
}
