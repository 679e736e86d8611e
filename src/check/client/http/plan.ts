/**
 * Which checks judge which scenario of `oec check client --http`. The pairing lives here, above
 * both the scenarios (scenarios.ts: what the server answers) and the checks (checks/: how a
 * client's behaviour is judged), so neither knows the other: a check reads a scenario, a
 * scenario names no check. A scenario id missing here, or a misspelt check name, does not compile.
 */
import type { CheckName } from './checks/index.ts'
import type { Scenario, ScenarioId } from './scenarios.ts'

/** The checks every scenario is judged by. */
export const EVERY_SCENARIO: readonly CheckName[] = ['answer', 'order-status', 'nonce-reuse', 'nonce-order', 'signature']

/** The checks judged on each scenario, besides those judged on every scenario (the ones it provokes). */
export const SCENARIO_CHECKS: Readonly<Record<ScenarioId, readonly CheckName[]>> = {
  'rate-limited': ['retry-after'],
  'consecutive-429': ['retry-after', 'backoff'],
  unavailable: ['retry-after'],
  'unknown-code': ['unknown-code'],
  rejected: [],
  'slow-answer': [],
  'connection-closed': [],
  cancel: [],
  'route-less': ['route'],
}

/** The checks that judge `scenario`, in report order. */
export function checksOf(scenario: Scenario): CheckName[] {
  return [...EVERY_SCENARIO, ...SCENARIO_CHECKS[scenario.id]]
}
