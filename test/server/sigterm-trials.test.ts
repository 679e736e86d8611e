/**
 * SIGTERM under a load of new connections (no keep-alive: every request connects), against the
 * real `oec serve` process, 10 trials per mode (memory, --data, --data --data-sync): a client is
 * answered or refused at connect (ECONNREFUSED), never hung up on, and reset (ECONNRESET) at most
 * in the kernel's last moment (connections.ts: stopListening): measured 0-2 over 10 trials, where
 * closing the listener at once reset 125-219 (most clients of every trial).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServe } from '../helpers/cli.ts'
import { signedOrder, wallet } from './helpers.ts'

const TRIALS = 10
const CLIENTS = 24
/** Answers before the signal: the load is well under way. */
const SIGNAL_AFTER = 40

const root = mkdtempSync(join(tmpdir(), 'oec-sigterm-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

type Outcome = 'answered' | 'ECONNREFUSED' | string

function send(url: string, body: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/order`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume()
        // Any status is an answer (a replay's 409, a wallet's 429 alike): what counts is that it came.
        res.on('end', () => resolve('answered'))
        res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message))
      },
    )
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message))
    req.end(body)
  })
}

/** One trial: the load, SIGTERM once SIGNAL_AFTER answers are in, every client until refused. */
async function trial(args: string[], bodies: string[]): Promise<Map<Outcome, number>> {
  const { child, ready } = startServe(['--port', '0', ...args])
  const served = await ready
  const counts = new Map<Outcome, number>()
  let next = 0
  let answered = 0
  let signalled = false
  const client = async () => {
    for (;;) {
      const out = await send(served.url, bodies[next++ % bodies.length]!)
      counts.set(out, (counts.get(out) ?? 0) + 1)
      if (out === 'answered' && ++answered >= SIGNAL_AFTER && !signalled) {
        signalled = true
        child.kill('SIGTERM')
      }
      if (out !== 'answered') return
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, client))
  expect(await served.exit, served.stderr()).toBe(0)
  return counts
}

describe('SIGTERM under a load of new connections: refused, next to never reset', () => {
  it.each([
    ['memory', () => []],
    ['--data', () => ['--data', mkdtempSync(join(root, 'd-'))]],
    ['--data --data-sync', () => ['--data', mkdtempSync(join(root, 's-')), '--data-sync']],
  ] as [string, () => string[]][])(
    '%s: fewer than one reset a trial over 10 trials',
    async (_mode, args) => {
      const w = wallet()
      const bodies: string[] = []
      for (let i = 0; i < 60; i++) bodies.push(await signedOrder(w, { clientId: `s${i}`, price: `${1 + (i % 5)}` }))
      const total = new Map<Outcome, number>()
      for (let t = 0; t < TRIALS; t++) for (const [k, n] of await trial(args(), bodies)) total.set(k, (total.get(k) ?? 0) + n)
      const seen = JSON.stringify([...total])
      const other = [...total].filter(([k]) => k !== 'answered' && k !== 'ECONNREFUSED' && k !== 'ECONNRESET')
      expect(other, seen).toEqual([])
      expect(total.get('answered')).toBeGreaterThanOrEqual(TRIALS * SIGNAL_AFTER)
      // Every client but the few reset ended on a refusal at connect, once the listener was closed.
      const resets = total.get('ECONNRESET') ?? 0
      expect(resets, seen).toBeLessThan(TRIALS)
      expect(total.get('ECONNREFUSED'), seen).toBe(TRIALS * CLIENTS - resets)
    },
    120_000,
  )
})
