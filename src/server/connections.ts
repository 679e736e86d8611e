/**
 * The connection layer of the reference server: the parser's refusals (a header section or a body
 * that does not arrive in time, an oversized header section) answered in the error contract, a cap
 * on open connections, and the drain that shutdown uses.
 *
 * Over the cap a connection is not reset: its request is answered (GET /health as usual, anything
 * else 503 `too_many_connections`) with `Connection: close`, and idle connections are closed to
 * make room: keep-alive connections between requests, and sockets that have not sent a byte yet
 * (oldest first, so that a flood of silent sockets cannot hold the cap against a client that
 * connects and speaks). Far past the cap (a flood) new sockets are dropped at once, so that the
 * process never runs out of descriptors, which would reset every client.
 */
import { STATUS_CODES, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { Server as NetServer } from 'node:net'
import type { KnownErrorCode } from '../contract/codes.ts'
import type { ErrorCatalog } from './catalog.ts'
import { refuseNewHandshakes } from './listen-filter.ts'

/** Sockets accepted past the cap and still answered; beyond these, new sockets are dropped. */
const FLOOD_HEADROOM = 64
/** While draining, a connection idle this long is closed (a busy client's next request comes sooner). */
const IDLE_GRACE_MS = 200
/**
 * ... and one that has not sent a request yet, this long from its accept: its client connected
 * and is about to write, later than 200 ms on a loaded box (ending it then hung that client up).
 */
const FRESH_GRACE_MS = 2000
const SWEEP_MS = 25
/** With handshakes stopped, the accept queue is empty once no connection arrived for this long. */
const QUEUE_QUIET_MS = 40
/** ... or after this, whatever still arrives (the close resets it, as without the filter). */
const QUEUE_WAIT_MAX_MS = 1000

export interface ConnectionGuard {
  /** The connection was accepted over the cap: its request gets an answer, then it closes. */
  overCap(socket: Socket): boolean
  /** The answer on this connection must carry `Connection: close` (over the cap, or draining). */
  mustClose(socket: Socket): boolean
  /**
   * Stops accepting, lets every request already received finish (each answer closes its
   * connection), closes connections that stay idle, and resolves when none is left; at
   * `deadlineMs` the stragglers are destroyed.
   */
  drain(deadlineMs: number): Promise<void>
  /** Open connections now. */
  readonly open: number
}

interface Tracked {
  active: number
  idleSince: number
  requests: number
  readonly overCap: boolean
}

/** The parser's refusal as a catalog code: 408 for a timeout, 431 for oversized headers, else a malformed request. */
function parserRefusal(code: string | undefined): { code: KnownErrorCode; message: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { code: 'request_timeout', message: 'the request did not arrive in time (header or body timeout); the connection is closed' }
  if (code === 'HPE_HEADER_OVERFLOW')
    return { code: 'headers_too_large', message: 'the request header section is over the server limit (16 KiB)' }
  return { code: 'invalid_field', message: `malformed HTTP request (${code ?? 'parse error'})` }
}

export function guardConnections(server: Server, catalog: ErrorCatalog, maxConnections: number): ConnectionGuard {
  const sockets = new Map<Socket, Tracked>()
  let draining = false
  let lastAccept = 0

  /**
   * Closes the oldest socket that has not sent a byte; false when there is none. It leaves the
   * map at once (its 'close' event comes later), so that the cap counts the room it made.
   */
  function evictSilent(): boolean {
    for (const [socket, t] of sockets) {
      if (t.active > 0 || socket.bytesRead > 0) continue
      sockets.delete(socket)
      socket.destroy()
      return true
    }
    return false
  }

  server.on('connection', (socket: Socket) => {
    if (!draining && sockets.size >= maxConnections) {
      // Room for the next clients: an idle keep-alive client reconnects on its next request (its
      // socket closes a moment later), and a socket that has said nothing loses its place now.
      server.closeIdleConnections()
      evictSilent()
    }
    lastAccept = performance.now()
    // Draining, a connection still accepted was in the accept queue: it is served (its answer closes
    // it), since destroying it could reset a request already sent.
    if (sockets.size >= maxConnections + FLOOD_HEADROOM) {
      socket.destroy()
      return
    }
    const overCap = sockets.size >= maxConnections
    sockets.set(socket, { active: 0, idleSince: performance.now(), requests: 0, overCap })
    socket.once('close', () => sockets.delete(socket))
  })
  server.on('request', (req, res) => {
    const t = sockets.get(req.socket)
    if (!t) return
    t.active += 1
    t.requests += 1
    res.once('close', () => {
      t.active -= 1
      t.idleSince = performance.now()
    })
  })
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A request node's parser refuses still gets a catalog body, then the connection closes.
    if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy()
    const why = parserRefusal(err.code)
    const reply = catalog.reply(why.code, why.message)
    const text = JSON.stringify(reply.body)
    socket.end(
      `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    )
  })

  return {
    overCap: (socket) => sockets.get(socket)?.overCap ?? false,
    mustClose: (socket) => draining || (sockets.get(socket)?.overCap ?? false),
    get open() {
      return sockets.size
    },
    drain(deadlineMs) {
      draining = true
      return new Promise<void>((resolve) => {
        let listening = true
        let wait: NodeJS.Timeout | undefined
        // Closing a listener resets what its accept queue holds. With new handshakes refused first,
        // the queue only empties (node accepts on readiness), so the close that follows resets none.
        void refuseNewHandshakes(server).then((stopped) => {
          if (!stopped || !listening) return closeListener()
          const since = performance.now()
          lastAccept = since
          wait = setInterval(() => {
            const now = performance.now()
            if (now - lastAccept >= QUEUE_QUIET_MS || now - since >= QUEUE_WAIT_MAX_MS) {
              closeListener()
            }
          }, 5)
        })
        function closeListener() {
          clearInterval(wait)
          if (!listening) return
          listening = false
          // net's close, not http's: http's also closes every idle connection at once, and a request
          // already on its way on one of them would meet a reset instead of an answer.
          NetServer.prototype.close.call(server)
        }
        const sweep = setInterval(() => {
          const now = performance.now()
          for (const [socket, t] of sockets)
            if (t.active === 0 && now - t.idleSince >= (t.requests === 0 ? FRESH_GRACE_MS : IDLE_GRACE_MS)) socket.end()
          if (sockets.size === 0 && !listening) done()
        }, SWEEP_MS)
        const deadline = setTimeout(() => {
          for (const socket of sockets.keys()) socket.destroy()
          done()
        }, deadlineMs)
        deadline.unref()
        function done() {
          closeListener()
          clearInterval(sweep)
          clearTimeout(deadline)
          // Stops node's timeout sweep too; the listener is already closed, so its error is moot.
          server.close(() => {})
          resolve()
        }
      })
    },
  }
}
