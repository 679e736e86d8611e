/**
 * One trial of SIGTERM under a load of new connections against the real `oec serve` process:
 * clients that reconnect for every request (`agent: false`), so connections arrive continuously
 * and some sit in the accept queue when the server stops. Shared by the test and the bench.
 */
import { request } from 'node:http'
import { startServe } from './cli.ts'

export interface ShutdownTrial {
  /** Answers by status, and errors by code (`ECONNREFUSED` is the refusal; anything else a reset or hang-up). */
  readonly answered: number
  readonly refused: number
  readonly resets: readonly string[]
  readonly code: number | null
}

/** An error as a reset is reported: its code and what node says (`socket hang up`, `read ECONNRESET`, ...). */
const described = (e: NodeJS.ErrnoException): string => (e.code === 'ECONNREFUSED' ? e.code : `${e.code ?? 'error'} (${e.message})`)

/** One GET /health on a fresh connection: the answer's status, or the error. */
function once(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(`${url}/health`, { agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
      res.on('error', (e: NodeJS.ErrnoException) => resolve(described(e)))
    })
    req.on('error', (e: NodeJS.ErrnoException) => resolve(described(e)))
    req.end()
  })
}

/**
 * Starts `oec serve ARGS`, runs `clients` reconnecting clients, sends SIGTERM after `warm` answers
 * (the load is at full speed), and lets each client run until it is refused.
 */
export async function shutdownTrial(args: readonly string[], clients: number, warm: number): Promise<ShutdownTrial> {
  const { child, ready } = startServe(['--port', '0', ...args])
  const served = await ready
  let answered = 0
  let refused = 0
  const resets: string[] = []
  let signalled = false
  let signalledAt = 0
  const client = async () => {
    for (;;) {
      const out = await once(served.url)
      if (out === 'ECONNREFUSED') refused += 1
      else if (out === 200) answered += 1
      else resets.push(`${out} ${signalled ? `${Math.round(performance.now() - signalledAt)} ms after the signal` : 'before the signal'}`)
      if (!signalled && answered >= warm) {
        signalled = true
        signalledAt = performance.now()
        child.kill('SIGTERM')
      }
      if (out === 'ECONNREFUSED') return
    }
  }
  await Promise.all(Array.from({ length: clients }, client))
  return { answered, refused, resets, code: await served.exit }
}
