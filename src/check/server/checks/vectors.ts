/** Vector replay (filled in once the vector files land). */
import type { Spec } from '../../../spec/index.ts'
import type { Check } from '../types.ts'

export function vectorChecks(spec: Spec): Check[] {
  void spec
  return []
}
