/**
 * The request timeline of a scenario, as plain text for every reporter: when each task was given,
 * each request with its nonce and the gap since the previous answer, each answer (scripted or
 * from the reference server), each task's answer line, and a mark with what was expected on the
 * lines a failing check names.
 */
import type { TaskRun } from './session.ts'
import type { RecordedExchange } from './scenario-server.ts'

function clock(ms: number, t0: number): string {
  return `+${((ms - t0) / 1000).toFixed(3)}s`.padStart(9)
}

function answerSummary(ex: RecordedExchange): string {
  if (ex.status === null) return 'connection closed, no answer'
  let what = ''
  try {
    const body = JSON.parse(ex.response ?? '') as Record<string, unknown>
    const parts = [body.code, body.status, body.order_id !== undefined ? `order_id ${String(body.order_id)}` : undefined]
    what = parts.filter((p) => typeof p === 'string').join(' ')
    if (typeof body.reason === 'string') what += ` reason ${JSON.stringify(body.reason)}`
  } catch {
    /* not JSON */
  }
  const ra = ex.headers['retry-after']
  return `${ex.status}${what ? ` ${what}` : ''}${ra !== undefined ? `  Retry-After: ${ra}` : ''}`
}

export function renderTimeline(
  tasks: readonly TaskRun[],
  exchanges: readonly RecordedExchange[],
  marks: ReadonlyMap<RecordedExchange | TaskRun, string> = new Map(),
): string {
  const t0 = Math.min(...tasks.map((t) => t.sentAt), ...exchanges.map((e) => e.at))
  const lines: { at: number; order: number; text: string }[] = []
  const mark = (key: RecordedExchange | TaskRun) => (marks.has(key) ? `   <-- ${marks.get(key)}` : '')
  for (const t of tasks) {
    lines.push({ at: t.sentAt, order: 0, text: `${t.task.id}  task    ${JSON.stringify(t.task)}` })
    const answered = t.answeredAt ?? Math.max(t.sentAt, ...exchanges.filter((e) => e.task === t.task.id).map((e) => e.answeredAt ?? e.at))
    const shown = t.answer.ok ? (t.raw ?? '') : `(${t.answer.problem})`
    lines.push({ at: answered, order: 3, text: `${t.task.id}  answer  ${shown}${mark(t)}` })
  }
  let lastAnswer: number | null = null
  for (const ex of [...exchanges].sort((a, b) => a.at - b.at)) {
    const gap = lastAnswer !== null ? `  (${((ex.at - lastAnswer) / 1000).toFixed(3)} s after the last answer)` : ''
    lines.push({
      at: ex.at,
      order: 1,
      text: `${ex.task ?? '-'}  -> ${ex.method} ${ex.path}${ex.nonce !== null ? ` nonce ${ex.nonce}` : ''}${ex.hasRoute ? '' : ex.method === 'POST' ? ' (no route)' : ''}${gap}${mark(ex)}`,
    })
    if (ex.answeredAt !== null) {
      lines.push({
        at: ex.answeredAt,
        order: 2,
        text: `${ex.task ?? '-'}  <- ${answerSummary(ex)}${ex.scripted ? `  [scripted: ${ex.scripted.kind}]` : ''}`,
      })
      lastAnswer = ex.answeredAt
    }
  }
  lines.sort((a, b) => a.at - b.at || a.order - b.order)
  return lines.map((l) => `${clock(l.at, t0)}  ${l.text}`).join('\n')
}
