/**
 * Stops a listening TCP socket from completing handshakes before it is closed, so that closing it
 * resets nobody: a classic BPF socket filter that drops every packet, attached to the listener by a
 * short-lived python3 helper that inherits its descriptor (Node exposes no setsockopt). On Linux the
 * filter runs on incoming SYNs and on the ACKs that would complete a handshake, so once attached the
 * accept queue only shrinks; a client whose SYN was dropped retries a second later and meets the
 * closed port (refused). Anything else (not Linux, no python3, EPERM) resolves false: the caller
 * closes plainly, as before.
 */
import { spawn } from 'node:child_process'
import type { Server } from 'node:net'

/** One instruction, BPF_RET|BPF_K with k=0 (drop); SO_ATTACH_FILTER is 26 on Linux. */
const SCRIPT = `
import ctypes, socket
class F(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]
class P(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(F))]
ins = (F * 1)(F(0x06, 0, 0, 0))
prog = P(1, ins)
s = socket.socket(fileno=3)
try:
    s.setsockopt(socket.SOL_SOCKET, 26, bytes(memoryview(prog)))
finally:
    s.detach()
`

/**
 * Off unless the process asks for it: `oec serve` does, for its clients; a server embedded in a
 * test or in `oec check server` has none arriving when it closes, and spawns no helper.
 */
let enabled = false

/** From now on, a closing server stops completing handshakes before it closes its listener. */
export function refuseHandshakesOnClose(): void {
  enabled = true
}

/** The helper should take ~50 ms; past this the plain close goes ahead. */
const HELPER_TIMEOUT_MS = 2000

/** The listener's descriptor, from node's internal handle (stable on Unix); undefined if absent. */
function listenerFd(server: Server): number | undefined {
  const fd = (server as unknown as { _handle?: { fd?: unknown } })._handle?.fd
  return typeof fd === 'number' && fd >= 0 ? fd : undefined
}

/** Attaches the drop-all filter to the server's listening socket; true once the kernel holds it. */
export function refuseNewHandshakes(server: Server): Promise<boolean> {
  const fd = enabled && process.platform === 'linux' ? listenerFd(server) : undefined
  if (fd === undefined || process.env.OEC_NO_LISTEN_FILTER === '1') return Promise.resolve(false)
  return new Promise((resolve) => {
    let settled = false
    const finish = (ok: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(ok)
    }
    const child = spawn('python3', ['-c', SCRIPT], { stdio: ['ignore', 'ignore', 'ignore', fd] })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish(false)
    }, HELPER_TIMEOUT_MS)
    child.once('error', () => finish(false))
    child.once('exit', (code) => finish(code === 0))
  })
}
