/**
 * `unknown-code` (ERR-14, VER-2): a code no catalog lists is handled safely: the task that met it
 * gets an answer, and the client goes on to answer every later task (a crash, a hang or a
 * missing answer fails).
 */
import type { TaskRun } from '../session.ts'
import { verdictOf, type ClientCheck } from './model.ts'

export const unknownCodeCheck: ClientCheck<'unknown-code'> = {
  name: 'unknown-code',
  title: 'an unknown error code gets an answer and the client goes on',
  rules: ['ERR-14', 'VER-2'],
  level: 'stated',
  judge({ scenario, session, exchanges }) {
    const met = new Set(exchanges.filter((e) => e.scripted?.kind === 'unknown-code').map((e) => e.task))
    const first = session.tasks.findIndex((t) => met.has(t.task.id))
    const problems: string[] = []
    const marks = new Map<TaskRun, string>()
    if (first < 0)
      problems.push(`the client sent no request for the task whose answer carries the unknown code (${scenario.tasks[0]?.task.id})`)
    for (const run of session.tasks.slice(Math.max(0, first))) {
      if (run.answer.ok) continue
      problems.push(`${run.task.id}: ${run.answer.problem}`)
      marks.set(run, 'expected an answer: an unknown code must not stop the client')
    }
    return verdictOf(problems, 'an answer for the task with the unknown code, and for every task after it', marks)
  },
}
