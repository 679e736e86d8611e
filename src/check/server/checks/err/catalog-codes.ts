/** `err.catalog-codes`: error codes come from the published catalog (an unknown code is a warning: clients tolerate it). */
import { jsonOf } from '../../answers.ts'
import type { HttpExchange } from '../../../target/http.ts'
import { errorResponses, provokeErrors } from '../../steps/errors.ts'
import type { Check } from '../../types.ts'

export const ERR_CATALOG_CODES = 'err.catalog-codes'

export const errCatalogCodes: Check<typeof ERR_CATALOG_CODES> = {
  id: ERR_CATALOG_CODES,
  title: 'error codes come from the published catalog (an unknown code is a warning: clients tolerate it)',
  rules: ['ERR-15', 'ERR-14'],
  level: 'assumed',
  // Reads every response of the run: runs once every earlier check is done.
  shares: ['history'],
  async run(ctx) {
    await provokeErrors(ctx)
    const known = new Set(ctx.spec.catalog.filter((c) => c.surface === 'http').map((c) => String(c.code)))
    const unknown = new Map<string, HttpExchange>()
    for (const e of errorResponses(ctx)) {
      const code = jsonOf(e)?.code
      if (typeof code === 'string' && !known.has(code) && !unknown.has(code)) unknown.set(code, e)
    }
    if (unknown.size) {
      ctx.fail(`codes outside the ${ctx.spec.catalogKey} catalog: ${[...unknown.keys()].join(', ')}`, {
        exchange: [...unknown.values()][0],
        expected: `one of ${[...known].join(', ')}`,
      })
    }
  },
}
