/** Violations as live lines and as the shared result model (for the json and junit reporters). */
import { ruleLevels, type RuleId } from '../contract/generated/rules.ts'
import type { CaseResult } from '../report/model.ts'
import type { ProxiedExchange, Violation } from './model.ts'

/** Stated when any of its rules is stated: a departure from a stated rule fails, from an assumed one warns. */
export function levelOf(rules: readonly RuleId[]): 'stated' | 'assumed' {
  return rules.some((r) => ruleLevels[r] === 'stated') ? 'stated' : 'assumed'
}

export function violationLine(v: Violation): string {
  return `[${v.party}] #${v.seq} ${v.method} ${v.path} ${v.rules.join(',')} ${levelOf(v.rules) === 'stated' ? 'FAIL' : 'WARN'}: ${v.message}`
}

const clip = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n)}…` : s)

/** One pass per clean exchange, one fail or warn per violation. */
export function exchangeResults(ex: ProxiedExchange, violations: readonly Violation[], operationId: string | undefined): CaseResult[] {
  const title = `#${ex.seq} ${ex.method} ${ex.url.split('?')[0]}${operationId ? ` (${operationId})` : ''}`
  const details = { request: clip(ex.requestBody.toString('utf8')), response: clip(`${ex.status} ${ex.responseBody.toString('utf8')}`) }
  if (violations.length === 0)
    return [{ id: `exchange.${ex.seq}`, title, rules: [], level: 'stated', outcome: 'pass', durationMs: Math.round(ex.ms * 100) / 100 }]
  return violations.map((v, i) => {
    const level = levelOf(v.rules)
    return {
      id: `${v.party}.${v.check}.${ex.seq}${violations.length > 1 ? `.${i + 1}` : ''}`,
      title: `[${v.party}] ${title}: ${v.check}`,
      rules: [...v.rules],
      level,
      outcome: level === 'stated' ? 'fail' : 'warn',
      message: v.message,
      details: { party: v.party, ...details },
      durationMs: Math.round(ex.ms * 100) / 100,
    }
  })
}
