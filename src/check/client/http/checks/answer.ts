/**
 * `answer` (ERR-6): every task gets exactly one well-formed answer line, whose `http_status` and
 * `code` are those of the last answer the server gave for the task (null when none came), and the
 * client exits 0 at the end of input.
 */
import type { RecordedExchange } from '../scenario-server.ts'
import type { TaskRun } from '../session.ts'
import { exchangesOf, responseJson, verdictOf, type ClientCheck } from './model.ts'

/** The error body's `code` of a 4xx/5xx answer, else null. */
export function codeOf(ex: RecordedExchange | undefined): string | null {
  if (!ex || ex.status === null || ex.status < 400) return null
  const c = responseJson(ex)?.code
  return typeof c === 'string' ? c : null
}

export const answerCheck: ClientCheck<'answer'> = {
  name: 'answer',
  title: 'one answer per task, keeping the last HTTP status and error code; exit 0 at the end of input',
  rules: ['ERR-6'],
  level: 'stated',
  judge({ session, exchanges }) {
    const problems: string[] = []
    const marks = new Map<RecordedExchange | TaskRun, string>()
    for (const run of session.tasks) {
      if (!run.answer.ok) {
        problems.push(`${run.task.id}: ${run.answer.problem}`)
        marks.set(run, 'expected one answer line for this task')
        continue
      }
      const last = exchangesOf(exchanges, run.task.id).at(-1)
      const status = last?.status ?? null
      const code = codeOf(last)
      const a = run.answer.answer
      if (a.http_status !== status || a.code !== code) {
        problems.push(
          `${run.task.id}: reported http_status ${a.http_status} code ${JSON.stringify(a.code)}, but the last answer was ${status ?? 'none'}${code ? ` ${code}` : ''}`,
        )
        marks.set(run, `expected http_status ${status}, code ${JSON.stringify(code)}`)
      }
    }
    if (session.exitProblem !== null && session.tasks.every((t) => t.answer.ok)) problems.push(`end of input: ${session.exitProblem}`)
    return verdictOf(
      problems,
      'each task answered once with the last answer\'s HTTP status and code ("code": the error body\'s code, else null); exit 0 at the end of input',
      marks,
    )
  },
}
