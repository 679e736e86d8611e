// A check naming a rule the catalog lacks must not compile.
import type { Check } from '../../../src/check/server/types.ts'

export const check: Check = {
  id: 'typo.rule',
  title: 'a check with a misspelled rule id',
  rules: ['AUTH-1', 'AUHT-2'], // expect-error: TS2820
  level: 'stated',
  async run() {},
}
