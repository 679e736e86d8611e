/**
 * How many connections wait in a listening socket's accept queue: handshakes the kernel has
 * completed that the process has not accepted yet. Closing the listener resets each of them
 * (the client sees ECONNRESET), so shutdown closes it only once this is 0. Linux reports it as
 * the `rx_queue` of the LISTEN line in /proc/net/tcp (tcp6 for IPv6); elsewhere (or unreadable)
 * it is undefined and shutdown closes at once.
 */
import { closeSync, openSync, readSync } from 'node:fs'

const LISTEN = '0A'
/**
 * The kernel lists listening sockets before connected ones, so the head of the table holds the
 * line: reading only it keeps the check short (a busy host's table has thousands of lines), and a
 * short check is a short window between it and the close.
 */
const HEAD_BYTES = 64 * 1024

/** The accept-queue length of the socket listening on `port`, or undefined when it cannot be read. */
export function acceptQueueLength(port: number, family: 'IPv4' | 'IPv6' = 'IPv4'): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  let text: string
  try {
    const fd = openSync(family === 'IPv6' ? '/proc/net/tcp6' : '/proc/net/tcp', 'r')
    try {
      const buf = Buffer.alloc(HEAD_BYTES)
      text = buf.toString('latin1', 0, readSync(fd, buf, 0, HEAD_BYTES, null))
    } finally {
      closeSync(fd)
    }
  } catch {
    return undefined
  }
  for (const line of text.split('\n')) {
    // sl local_address rem_address st tx_queue:rx_queue ...
    const f = line.trim().split(/\s+/)
    if (f[3] === LISTEN && f[1]?.endsWith(`:${hexPort}`)) {
      const rx = Number.parseInt(f[4]?.split(':')[1] ?? '', 16)
      return Number.isFinite(rx) ? rx : undefined
    }
  }
  return undefined
}
