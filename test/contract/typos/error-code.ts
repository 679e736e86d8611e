// A reply with a misspelled error code must not compile.
import type { ServerContext } from '../../../src/server/context.ts'

export function reply(ctx: ServerContext) {
  return ctx.catalog.reply('invalid_feild', 'typo') // expect-error: TS2345
}
