/**
 * The testee process of `oec check client`: spawned once (and again after a crash), spoken to
 * in the JSON-lines signing protocol. Requests are pipelined (a bounded window), answers are
 * matched by `id` and must come in request order. Every way a testee can misbehave (crash,
 * hang, garbage, an answer out of order or for an unknown id) ends in a per-request failure;
 * the run itself always finishes, and the testee is killed at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { packagePath } from '../../package-root.ts'

export interface PendingRequest {
  /** Protocol id, unique in the run. */
  readonly id: string
  /** The request line, without the newline. */
  readonly line: string
}

export type Answer = { ok: true; value: Record<string, unknown>; raw: string } | { ok: false; problem: string }

export interface TesteeOptions {
  readonly command: readonly string[]
  /** Per-request time limit (ms), counted from the moment the request is written. */
  readonly timeoutMs: number
  /** Extra time for the first answer after a (re)start, for testees that start slowly. Default 20 s. */
  readonly startupMs?: number | undefined
  /** Requests in flight at once. */
  readonly window?: number | undefined
  /** Restarts after a crash before the remaining requests are failed. */
  readonly maxRestarts?: number
  readonly cwd?: string
}

const OEC_BIN = packagePath('bin', 'oec.js')

function onPath(name: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    try {
      accessSync(join(dir, name), constants.X_OK)
      return true
    } catch {
      /* next */
    }
  }
  return false
}

/** `oec ...` runs this package's own binary when no `oec` is installed on PATH. */
export function resolveCommand(command: readonly string[]): string[] {
  const [head, ...rest] = command
  if (head === 'oec' && !onPath('oec')) return [process.execPath, OEC_BIN, ...rest]
  return [...command]
}

function clip(s: string, n = 160): string {
  const one = s.replace(/\s+/g, ' ').trim()
  return one.length > n ? one.slice(0, n - 3) + '...' : one
}

interface InFlight {
  req: PendingRequest
  resolve: (a: Answer) => void
  timer: NodeJS.Timeout
  sentAt: number
}

/**
 * Sends every request and resolves one answer per request id. Never rejects; never hangs
 * longer than about one timeout per stall.
 */
export async function runRequests(
  requests: readonly PendingRequest[],
  opts: TesteeOptions,
  onAnswer?: (id: string, a: Answer) => void,
): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>()
  const queue = [...requests]
  const window = Math.max(1, opts.window ?? 32)
  const maxRestarts = opts.maxRestarts ?? 3
  let restarts = 0
  const [cmd, ...args] = resolveCommand(opts.command)
  if (!cmd) throw new Error('no testee command')

  return new Promise((resolveAll) => {
    let child: ChildProcess | undefined
    let inflight: InFlight[] = []
    let stderrTail = ''
    let lastOutputAt = Date.now()
    let finished = false
    let dead: string | undefined
    let answeredSinceStart = false
    const startupMs = opts.startupMs ?? 20_000

    const settle = (f: InFlight, a: Answer) => {
      clearTimeout(f.timer)
      inflight = inflight.filter((x) => x !== f)
      if (!answers.has(f.req.id)) {
        answers.set(f.req.id, a)
        onAnswer?.(f.req.id, a)
      }
    }

    const finishIfDone = () => {
      if (finished) return
      if (queue.length === 0 && inflight.length === 0) {
        finished = true
        void stop(child).then(() => resolveAll(answers))
      }
    }

    const failAll = (problem: string) => {
      for (const f of [...inflight]) settle(f, { ok: false, problem })
      while (queue.length) {
        const r = queue.shift()!
        answers.set(r.id, { ok: false, problem })
        onAnswer?.(r.id, { ok: false, problem })
      }
      finishIfDone()
    }

    const pump = () => {
      if (dead !== undefined || !child || !child.stdin || child.stdin.destroyed) return
      while (inflight.length < window && queue.length) {
        const req = queue.shift()!
        const f: InFlight = {
          req,
          resolve: () => {},
          sentAt: Date.now(),
          timer: setTimeout(() => onTimeout(f), opts.timeoutMs + (answeredSinceStart ? 0 : startupMs)),
        }
        inflight.push(f)
        child.stdin.write(req.line + '\n')
      }
      finishIfDone()
    }

    const onTimeout = (f: InFlight) => {
      if (answers.has(f.req.id)) return
      const silent = Date.now() - lastOutputAt >= opts.timeoutMs
      settle(f, { ok: false, problem: `no answer within ${opts.timeoutMs} ms${answeredSinceStart ? '' : ` (+${startupMs} ms to start)`}` })
      if (silent) {
        // Nothing at all came back for a whole timeout: the testee hangs. Stop waiting on it.
        dead = `not answered: the testee stopped answering (request ${f.req.id} timed out after ${opts.timeoutMs} ms)`
        const hung = child
        child = undefined
        void stop(hung, 0)
        failAll(dead)
      } else pump()
    }

    const onLine = (line: string) => {
      lastOutputAt = Date.now()
      answeredSinceStart = true
      if (line.trim() === '') return
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        value = undefined
      }
      const head = inflight[0]
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        if (head) settle(head, { ok: false, problem: `unparseable answer line: ${clip(line)}` })
        pump()
        return
      }
      const obj = value as Record<string, unknown>
      const id = typeof obj.id === 'string' ? obj.id : undefined
      const match = id === undefined ? undefined : inflight.find((f) => f.req.id === id)
      if (!match) {
        if (head)
          settle(head, {
            ok: false,
            problem:
              id === undefined ? `answer without an id: ${clip(line)}` : `answer for an unknown id ${JSON.stringify(id)}: ${clip(line)}`,
          })
      } else if (match !== head) {
        settle(match, { ok: false, problem: `answered out of order: ${head ? `the answer to ${head.req.id} was due first` : ''}`.trim() })
      } else settle(match, { ok: true, value: obj, raw: line })
      pump()
    }

    const start = () => {
      answeredSinceStart = false
      lastOutputAt = Date.now()
      let c: ChildProcess
      try {
        c = spawn(cmd, args, { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' })
      } catch (err) {
        failAll(`cannot start the testee: ${err instanceof Error ? err.message : String(err)}`)
        return
      }
      child = c
      readLines(c.stdout!, onLine)
      c.stderr!.setEncoding('utf8')
      c.stderr!.on('data', (chunk: string) => {
        stderrTail = (stderrTail + chunk).slice(-600)
      })
      c.stdin!.on('error', () => {}) // EPIPE after a crash is reported through 'exit'
      c.on('error', (err) => {
        if (child !== c) return
        dead = `cannot start the testee ${JSON.stringify(cmd)}: ${err.message}`
        failAll(dead)
      })
      c.on('exit', (code, signal) => {
        if (child !== c || finished || dead !== undefined) return
        const why = `the testee exited (${signal ?? `code ${code}`})${stderrTail.trim() ? `; stderr: ${clip(stderrTail, 200)}` : ''}`
        // The request being answered when it died is the one that crashed it.
        for (const f of [...inflight]) settle(f, { ok: false, problem: f === inflight[0] ? why : `not answered: ${why}` })
        if (queue.length === 0) return finishIfDone()
        if (restarts++ < maxRestarts) {
          stderrTail = ''
          start()
          pump()
        } else {
          dead = `not run: ${why}, ${maxRestarts} restarts used`
          failAll(dead)
        }
      })
      pump()
    }
    start()
    if (requests.length === 0) finishIfDone()
  })
}

/** Calls `onLine` with each line of a child's output (without its `\n` or `\r\n`) as it completes. */
export function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffer = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    buffer += chunk
    let nl: number
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '')
      buffer = buffer.slice(nl + 1)
      onLine(line)
    }
  })
}

/**
 * Closes stdin and waits for the testee to exit; kills its process group when it has not
 * exited within `graceMs` (0 = at once, for a testee known to hang).
 */
export function stop(child: ChildProcess | undefined, graceMs = 500): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const kill = () => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL')
        else child.kill('SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
      // A process killed with SIGKILL exits promptly; don't wait on a zombie's bookkeeping.
      setTimeout(resolve, 50)
    }
    const t = setTimeout(kill, graceMs)
    child.once('exit', () => {
      clearTimeout(t)
      resolve()
    })
    try {
      child.stdin?.end()
    } catch {
      /* already closed */
    }
    if (graceMs === 0) kill()
  })
}
