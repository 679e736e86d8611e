/**
 * Stops a listening TCP socket from starting handshakes before it is closed, so that closing it
 * resets nobody: a classic BPF socket filter that drops every SYN, attached to the listener by a
 * python3 helper that inherits its descriptor (Node exposes no setsockopt). On Linux a listener's
 * filter runs on each segment addressed to it with the TCP header first: a new SYN is dropped (its
 * client retries a second later and meets the closed port: refused), while the ACK of a handshake
 * already under way passes, so that connection is queued, accepted and answered. (Dropping every
 * segment also dropped those ACKs: a client whose handshake straddled the filter believed it was
 * connected, and the close reset it.) Anything else (not Linux, no python3, EPERM) resolves
 * false: the caller closes plainly, as before.
 *
 * The helper is started when the server starts listening and waits, so that the signal does not
 * wait for an interpreter to start: on a loaded box that start took over 2 s, and the close that
 * gave up on it reset what the queue held.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import type { Server } from 'node:net'

/**
 * `ldb [13]` (the TCP flags), `jset #0x02` (SYN): `ret #0` (drop), else `ret #-1` (keep it whole).
 * SO_ATTACH_FILTER is 26 on Linux. The helper ignores the signals that stop the server (a
 * terminal's Ctrl-C, systemd's SIGTERM to the whole group) and leaves on end of input without
 * attaching: the server exited without a drain.
 */
const SCRIPT = `
import ctypes, signal, socket, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
class F(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]
class P(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(F))]
ins = (F * 4)(F(0x30, 0, 0, 13), F(0x45, 0, 1, 0x02), F(0x06, 0, 0, 0), F(0x06, 0, 0, 0xFFFFFFFF))
prog = P(4, ins)
if sys.stdin.readline().strip() != "attach":
    sys.exit(0)
s = socket.socket(fileno=3)
try:
    s.setsockopt(socket.SOL_SOCKET, 26, bytes(memoryview(prog)))
finally:
    s.detach()
sys.stdout.write("attached\\n")
sys.stdout.flush()
`

/**
 * Off unless the process asks for it: `oec serve` does, for its clients; a server embedded in a
 * test or in `oec check server` has none arriving when it closes, and spawns no helper.
 */
let enabled = false

/** From now on, a listening server arms a helper that stops its handshakes when it closes. */
export function refuseHandshakesOnClose(): void {
  enabled = true
}

/** Once asked, the helper answers in milliseconds; one still starting gets this long. */
const HELPER_TIMEOUT_MS = 5000

interface Helper {
  readonly child: ChildProcess
  /** Resolves true once the helper says the filter is attached, false if it cannot. */
  readonly attached: Promise<boolean>
}

const armed = new WeakMap<Server, Helper>()

/** The listener's descriptor, from node's internal handle (stable on Unix); undefined if absent. */
function listenerFd(server: Server): number | undefined {
  const fd = (server as unknown as { _handle?: { fd?: unknown } })._handle?.fd
  return typeof fd === 'number' && fd >= 0 ? fd : undefined
}

/** Starts the waiting helper for a listening server, when the process asked for it (no-op otherwise). */
export function armHandshakeFilter(server: Server): void {
  const fd = enabled && process.platform === 'linux' ? listenerFd(server) : undefined
  if (fd === undefined || process.env.OEC_NO_LISTEN_FILTER === '1' || armed.has(server)) return
  // Its own process group: a terminal's Ctrl-C reaches the server, which then asks the helper.
  const child = spawn('python3', ['-c', SCRIPT], { stdio: ['pipe', 'pipe', 'ignore', fd], detached: true })
  const attached = new Promise<boolean>((resolve) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('attached\n')) resolve(true)
    })
    child.once('error', () => resolve(false))
    child.once('exit', () => resolve(out.includes('attached\n')))
  })
  // A pipe to a helper that died (no python3) must not crash the server when it is written to.
  child.stdin?.on('error', () => {})
  // The helper never keeps the server's process alive; its input closes when the server exits.
  child.unref()
  for (const stream of [child.stdin, child.stdout]) (stream as unknown as { unref?: () => void } | null)?.unref?.()
  armed.set(server, { child, attached })
}

/**
 * Attaches the SYN-dropping filter to the server's listening socket; true once the kernel holds it.
 * False (the caller closes plainly) when no helper was armed or it cannot; then the helper is gone,
 * so no copy of the listener outlives the server's close.
 */
export async function refuseNewHandshakes(server: Server): Promise<boolean> {
  const helper = armed.get(server)
  if (!helper) return false
  armed.delete(server)
  helper.child.stdin?.end('attach\n')
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), HELPER_TIMEOUT_MS)
  })
  const ok = await Promise.race([helper.attached, timedOut])
  clearTimeout(timer)
  if (!ok) helper.child.kill('SIGKILL')
  return ok
}
