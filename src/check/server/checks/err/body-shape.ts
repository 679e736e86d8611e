/** `err.body-shape`: every 4xx/5xx JSON body of the run has a lowercase string code and a string message. */
import { deref, getPointer, isObject } from '../../../../contract/index.ts'
import { jsonOf, statusOf } from '../../answers.ts'
import { errorResponses, provokeErrors } from '../../steps/errors.ts'
import type { Check, CheckContext } from '../../types.ts'

/** The `code` pattern of the spec's ErrorBody (a stable lowercase identifier). */
function codePattern(ctx: CheckContext): RegExp {
  const schema = deref(ctx.spec.doc, getPointer(ctx.spec.doc, '/components/schemas/ErrorBody'))
  const code = isObject(schema) && isObject(schema.properties) ? schema.properties.code : undefined
  const pattern = isObject(code) && typeof code.pattern === 'string' ? code.pattern : '^[a-z][a-z0-9_]*$'
  return new RegExp(pattern)
}

export const ERR_BODY_SHAPE = 'err.body-shape'

export const errBodyShape: Check<typeof ERR_BODY_SHAPE> = {
  id: ERR_BODY_SHAPE,
  title: 'every 4xx/5xx JSON body of the run has a lowercase string code and a string message',
  rules: ['ERR-1', 'ERR-2', 'WIRE-1'],
  level: 'stated',
  // Reads every response of the run: runs once every earlier check is done.
  shares: ['history'],
  async run(ctx) {
    await provokeErrors(ctx)
    const re = codePattern(ctx)
    const seen = new Set<string>()
    let checked = 0
    for (const e of errorResponses(ctx)) {
      const key = `${e.request.method} ${new URL(e.request.url).pathname} ${statusOf(e)}`
      checked++
      const j = jsonOf(e)
      let problem: string | undefined
      if (!j) problem = `a ${statusOf(e)} body that is not a JSON object`
      else if (typeof j.code !== 'string') problem = `no string "code" (${JSON.stringify(j.code)})`
      else if (!re.test(j.code)) problem = `code ${JSON.stringify(j.code)} is not a lowercase identifier`
      else if (typeof j.message !== 'string') problem = `no string "message"`
      if (problem && !seen.has(key)) {
        seen.add(key)
        ctx.fail(`${key}: ${problem}`, { exchange: e, expected: '{"code":"<lowercase_id>","message":"..."}' })
      }
    }
    if (checked === 0) ctx.skip('no error responses were seen')
  },
}
