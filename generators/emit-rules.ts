/**
 * rules.ts: the rule catalog's ids and levels (spec/rules.yaml beside the spec). A check or a
 * vector that names a rule through `RuleId` cannot name one the catalog lacks.
 */
import type { WriterFunction } from 'ts-morph'
import type { Rule } from '../src/contract/rules.ts'
import type { NameRegistry } from './names.ts'
import { constValueStatement, typeAliasStatement } from './type-expr.ts'

export function emitRules(rules: readonly Rule[], names: NameRegistry): WriterFunction[] {
  const live = rules.filter((r) => !r.retired)
  const levels = Object.fromEntries(live.map((r) => [r.id, r.level]))
  const n = { levels: names.claim('ruleLevels'), ruleId: names.claim('RuleId') }
  return [
    constValueStatement(n.levels, levels, {
      description: 'Every rule of the catalog that is not retired, with its level (stated: a departure fails; assumed: it warns).',
    }),
    typeAliasStatement(n.ruleId, `keyof typeof ${n.levels}`, { description: 'A rule id of the catalog.' }),
  ]
}
