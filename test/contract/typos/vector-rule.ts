// A vector case naming a rule the catalog lacks must not compile.
import type { VectorCase } from '../../../src/vectors/model.ts'

export const rules: VectorCase['rules'] = ['SIG-1', 'SIG-99'] // expect-error: TS2820
