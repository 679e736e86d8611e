/** `auth.client-id-signed`: client_id is covered by the signature (signed clientId ≠ body client_id is refused). */
import { expectAuthRefused } from '../../expectations.ts'
import { placeOrder, withState } from '../../builders.ts'
import type { Check } from '../../types.ts'

export const AUTH_CLIENT_ID_SIGNED = 'auth.client-id-signed'

export const authClientIdSigned: Check<typeof AUTH_CLIENT_ID_SIGNED> = {
  id: AUTH_CLIENT_ID_SIGNED,
  title: 'client_id is covered by the signature (signed clientId ≠ body client_id is refused)',
  rules: ['PO-7', 'SIGFAIL-2', 'AUTH-1'],
  level: 'stated',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    const cases: [string, string, string][] = [
      ['signed-empty-sent-value', '', 'cid-1'],
      ['signed-value-sent-other', 'cid-a', 'cid-b'],
      ['signed-value-sent-empty', 'cid-c', ''],
    ]
    for (const [id, signedAs, sent] of cases) {
      await ctx.case(id, `clientId signed ${JSON.stringify(signedAs)}, client_id sent ${JSON.stringify(sent)}`, async (c) => {
        const { e } = await placeOrder(c, { wallet: w, clientId: signedAs }, { after: { client_id: sent } })
        expectAuthRefused(c, e, 'client_id changed after signing')
      })
    }
  },
}
