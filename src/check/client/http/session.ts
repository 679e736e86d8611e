/**
 * One scenario's client process: started with the protocol's environment, given the scenario's
 * tasks one at a time (the next task only after the answer to the last, so every request the
 * scenario server sees belongs to exactly one task), its answer lines read and its exit awaited.
 * Never rejects and never hangs past one task timeout; the process group is killed at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readLines, resolveCommand, stop } from '../testee.ts'
import { clip, ENV, parseAnswerLine, type ParsedAnswer, type Task } from './protocol.ts'
import type { ScenarioServer } from './scenario-server.ts'
import type { Scenario } from './scenarios.ts'

export interface TaskRun {
  readonly task: Task
  /** When the task line was written, ms on the run's clock. */
  readonly sentAt: number
  /** The answer line, or why there is none (timeout, exit, a bad line). */
  readonly answer: ParsedAnswer
  readonly answeredAt: number | null
  readonly raw: string | null
}

export interface SessionResult {
  readonly tasks: TaskRun[]
  /** Why the client did not exit 0 at the end of input, if it did not. */
  readonly exitProblem: string | null
  /** Set when the program could not start, or exited before its first answer without a request. */
  readonly startFailure: string | null
}

export interface SessionOptions {
  readonly command: readonly string[]
  readonly env: Record<string, string>
  readonly timeoutMs: number
  readonly startupMs: number
  readonly now: () => number
  /** Aborts the session (another scenario found that the client cannot start). */
  readonly signal?: AbortSignal
}

type Event = { kind: 'line'; line: string } | { kind: 'exit'; why: string } | { kind: 'timeout' } | { kind: 'abort' }

/** The order id the reference server gave the task `of`, from its last answer. */
function orderIdOf(server: ScenarioServer, of: string): string {
  for (const ex of [...server.exchanges].reverse()) {
    if (ex.task !== of || ex.response === null) continue
    try {
      const id = (JSON.parse(ex.response) as { order_id?: unknown }).order_id
      if (typeof id === 'string') return id
    } catch {
      /* not JSON: look further back */
    }
  }
  // No order was placed: cancel an id no server gave out, and the answers say what happened.
  return '0'
}

export async function runSession(scenario: Scenario, server: ScenarioServer, opts: SessionOptions): Promise<SessionResult> {
  const [cmd, ...args] = resolveCommand(opts.command)
  const tasks: TaskRun[] = []
  let stderrTail = ''
  const events: Event[] = []
  let wake: (() => void) | null = null
  const push = (e: Event) => {
    events.push(e)
    wake?.()
  }
  let child: ChildProcess
  try {
    child = spawn(cmd!, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      env: { ...process.env, ...opts.env, [ENV.baseUrl]: server.url },
    })
  } catch (err) {
    return {
      tasks,
      exitProblem: null,
      startFailure: `cannot start ${JSON.stringify(cmd)}: ${err instanceof Error ? err.message : String(err)}`,
    }
  }
  let exited: string | null = null
  let spawnError: string | null = null
  readLines(child.stdout!, (line) => {
    if (line.trim() !== '') push({ kind: 'line', line })
  })
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-800)
  })
  child.stdin!.on('error', () => {}) // EPIPE after a crash is reported through 'exit'
  child.on('error', (err) => {
    spawnError = `cannot start ${JSON.stringify(cmd)}: ${err.message}`
    push({ kind: 'exit', why: spawnError })
  })
  // 'close', not 'exit': an answer written just before the process ended is read first.
  child.on('close', (code, signal) => {
    exited = `the client exited (${signal ?? `code ${code}`})${stderrTail.trim() ? `; stderr: ${clip(stderrTail, 240)}` : ''}`
    push({ kind: 'exit', why: exited })
  })
  const onAbort = () => push({ kind: 'abort' })
  opts.signal?.addEventListener('abort', onAbort)

  const next = async (ms: number): Promise<Event> => {
    if (events.length > 0) return events.shift()!
    let timer: NodeJS.Timeout | undefined
    await new Promise<void>((resolve) => {
      wake = resolve
      timer = setTimeout(() => {
        push({ kind: 'timeout' })
      }, ms)
    })
    clearTimeout(timer)
    wake = null
    return events.shift()!
  }

  let dead: string | null = null
  let startFailure: string | null = null
  for (const [i, st] of scenario.tasks.entries()) {
    const t = st.task
    const task: Task = 'orderIdOf' in t ? { id: t.id, action: 'cancel', order_id: orderIdOf(server, t.orderIdOf) } : t
    const sentAt = opts.now()
    if (dead !== null) {
      tasks.push({ task, sentAt, answer: { ok: false, problem: `not answered: ${dead}` }, answeredAt: null, raw: null })
      continue
    }
    server.setTask(task.id, st.script ?? [])
    child.stdin!.write(`${JSON.stringify(task)}\n`)
    const limit = opts.timeoutMs + (i === 0 ? opts.startupMs : 0)
    const deadline = Date.now() + limit
    let run: TaskRun | null = null
    while (run === null) {
      const e = await next(Math.max(0, deadline - Date.now()))
      if (e.kind === 'line') {
        const parsed = parseAnswerLine(e.line)
        if (parsed.ok && parsed.answer.id !== task.id)
          run = {
            task,
            sentAt,
            answer: { ok: false, problem: `an answer for ${JSON.stringify(parsed.answer.id)} while ${task.id} was due: ${clip(e.line)}` },
            answeredAt: opts.now(),
            raw: e.line,
          }
        else run = { task, sentAt, answer: parsed, answeredAt: opts.now(), raw: e.line }
      } else if (e.kind === 'timeout') {
        dead = `no answer to ${task.id} within ${limit} ms (the client hangs)`
        run = { task, sentAt, answer: { ok: false, problem: dead }, answeredAt: null, raw: null }
      } else if (e.kind === 'abort') {
        dead = 'the run was stopped'
        run = { task, sentAt, answer: { ok: false, problem: dead }, answeredAt: null, raw: null }
      } else {
        dead = e.why
        // Exiting before the first answer without a single request: the program never ran as a client.
        if (tasks.length === 0 && server.exchanges.length === 0) startFailure = spawnError ?? e.why
        run = { task, sentAt, answer: { ok: false, problem: `no answer: ${e.why}` }, answeredAt: null, raw: null }
      }
    }
    tasks.push(run)
  }
  opts.signal?.removeEventListener('abort', onAbort)
  let exitProblem: string | null = dead
  if (dead === null) {
    // End of input: the client must exit 0 on its own.
    child.stdin!.end()
    const e = await next(Math.min(opts.timeoutMs, 5000))
    if (e.kind === 'line') exitProblem = `an extra line after the last answer: ${clip(e.line)}`
    else if (e.kind === 'timeout') exitProblem = 'the client did not exit at the end of input'
    else if (e.kind === 'exit' && child.exitCode !== 0) exitProblem = e.why
  }
  await stop(child, 0)
  return { tasks, exitProblem, startFailure }
}
