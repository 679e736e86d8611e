/**
 * `route` (ROUTE-3): clients should send `route` now. A place task without one leaves the
 * choice to the client; omitting it still works until the sunset, so this is a warning.
 */
import type { RecordedExchange } from '../scenario-server.ts'
import { verdictOf, type ClientCheck } from './model.ts'

export const routeCheck: ClientCheck<'route'> = {
  name: 'route',
  title: 'route sent on every order, even when the task leaves it open',
  rules: ['ROUTE-3'],
  level: 'assumed',
  judge({ exchanges }) {
    const missing = exchanges.filter((e) => e.method === 'POST' && e.path.split('?')[0] === '/order' && !e.hasRoute)
    const marks = new Map<RecordedExchange, string>(missing.map((e) => [e, 'expected a route field']))
    return verdictOf(
      missing.map((e) => `${e.task}: POST /order without route`),
      'route in every POST /order body (the seed: clients should send it now)',
      marks,
    )
  },
}
