/** `auth.tampered`: any signed field changed after signing is refused. */
import type { RuleId } from '../../../../contract/generated/rules.ts'
import { expectAuthRefused } from '../../expectations.ts'
import { placeOrder, withState } from '../../builders.ts'
import type { Check, CheckContext } from '../../types.ts'

/** The other listed symbol, for tampering (or a second well-formed one when only one is listed). */
function otherSymbol(ctx: CheckContext): string {
  return ctx.target.symbols[1] ?? ctx.target.missingSymbol
}

export const AUTH_TAMPERED = 'auth.tampered'

export const authTampered: Check<typeof AUTH_TAMPERED> = {
  id: AUTH_TAMPERED,
  title: 'any signed field changed after signing is refused',
  rules: ['AUTH-1', 'SIG-1', 'SIGFAIL-3', 'SIGFAIL-2', 'AUTH-2'],
  level: 'stated',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    const other = await withState(ctx, ctx.wallet())
    const tampers: [string, Record<string, unknown>, RuleId[]][] = [
      ['symbol', { symbol: otherSymbol(ctx) }, ['SIG-1']],
      ['side', { side: 'Sell' }, ['SIG-1']],
      ['size', { size: '3' }, ['SIG-1']],
      ['tif', { tif: 'ioc' }, ['SIG-1']],
      ['route', { route: 'best_execution' }, ['SIG-1']],
      ['wallet', { wallet: other.address }, ['AUTH-2']],
    ]
    for (const [field, after, rules] of tampers) {
      await ctx.case(
        field,
        `${field} changed after signing`,
        async (c) => {
          const { e } = await placeOrder(c, { wallet: w }, { after: after as Record<string, string> })
          expectAuthRefused(c, e, `${field} changed after signing`)
        },
        { rules: [...rules, 'AUTH-1'] },
      )
    }
    await ctx.case(
      'nonce-plus-one',
      'nonce N signed, N+1 sent',
      async (c) => {
        const n = c.nonce(w)
        const { e } = await placeOrder(c, { wallet: w, nonce: n }, { after: { nonce: n + 1n } })
        expectAuthRefused(c, e, 'nonce N signed, N+1 sent')
      },
      { rules: ['SIGFAIL-3'] },
    )
  },
}
