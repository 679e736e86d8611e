/**
 * The toolkit's one WebSocket subscriber to the order channel (`x-websocket` in the spec): the
 * named check `ws.order-updates` and the explorer's watch both read a target's updates through it.
 * It opens a socket, subscribes wallets, and keeps every message it got, parsed, in arrival order.
 */
import WebSocket from 'ws'

/** How long to wait for a socket to open before saying the target has none. */
const OPEN_MS = 5000

export class OrderFeedClient {
  /** Every message received, parsed as JSON when it is JSON (else its text). */
  readonly messages: unknown[] = []
  private readonly socket: WebSocket
  private waiter: (() => void) | undefined
  /** The socket closed (the server closed it, or a reset): no more messages come. */
  closed = false

  /** `base` is the target's HTTP base URL; `path` the spec's `x-websocket` path. */
  constructor(
    base: string,
    path: string,
    headers: Readonly<Record<string, string>> = {},
    readonly url = `${base.replace(/^http/, 'ws')}${path}`,
  ) {
    this.socket = new WebSocket(url, { headers: { ...headers } })
    this.socket.on('message', (d) => {
      try {
        this.messages.push(JSON.parse(d.toString()))
      } catch {
        this.messages.push(d.toString())
      }
      this.waiter?.()
    })
    // An error after opening (a reset) ends the feed; what it got stays readable.
    this.socket.on('error', () => {})
    this.socket.on('close', () => {
      this.closed = true
      this.waiter?.()
    })
  }

  /** Undefined once open; else why it could not open. */
  opened(): Promise<string | undefined> {
    if (this.socket.readyState === WebSocket.OPEN) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      this.socket.once('open', () => resolve(undefined))
      this.socket.once('error', (err) => resolve(err.message))
      setTimeout(() => resolve(`no connection within ${OPEN_MS / 1000} s`), OPEN_MS).unref()
    })
  }

  subscribe(channel: string, wallet: string): void {
    this.send({ method: 'subscribe', params: { channel, wallet } })
  }

  send(message: unknown): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message))
  }

  /** Resolves on the next message or after `ms`, whichever is first. */
  next(ms: number): Promise<void> {
    return new Promise<void>((r) => {
      this.waiter = r
      setTimeout(r, ms).unref()
    })
  }

  close(): void {
    this.socket.terminate()
  }
}
