/**
 * `order-status` (ERR-11): the client reads the outcome of an order or cancel from the result's
 * `status` (ACKED, REJECTED, CANCELED), never from HTTP 200 alone and never from `reason`.
 */
import type { RecordedExchange } from '../scenario-server.ts'
import type { TaskRun } from '../session.ts'
import { exchangesOf, orderStatusOf, responseJson, verdictOf, type ClientCheck } from './model.ts'

export const orderStatusCheck: ClientCheck<'order-status'> = {
  name: 'order-status',
  title: "order_status is the result's status (a 200 REJECTED is reported as REJECTED)",
  rules: ['ERR-11'],
  level: 'stated',
  judge({ session, exchanges }) {
    const problems: string[] = []
    const marks = new Map<RecordedExchange | TaskRun, string>()
    for (const run of session.tasks) {
      if (!run.answer.ok) continue
      const last = exchangesOf(exchanges, run.task.id).at(-1)
      const want = orderStatusOf(last)
      const got = run.answer.answer.order_status
      if (got !== want) {
        const reason = last ? responseJson(last)?.reason : undefined
        problems.push(
          `${run.task.id}: reported order_status ${JSON.stringify(got)}, but the result's status was ${JSON.stringify(want)}${typeof reason === 'string' ? ` (reason ${JSON.stringify(reason)})` : ''}`,
        )
        marks.set(run, `expected order_status ${JSON.stringify(want)}`)
      }
    }
    return verdictOf(
      problems,
      'order_status = the status field of the 200 answer (ACKED, REJECTED, CANCELED), else null; reason is shown, never parsed',
      marks,
    )
  },
}
