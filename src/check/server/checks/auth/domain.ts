/** `auth.domain`: a signature under another domain name, version or verifying contract is refused. */
import type { RuleId } from '../../../../contract/generated/rules.ts'
import { expectAuthRefused } from '../../expectations.ts'
import { placeOrder, withState } from '../../builders.ts'
import type { Check } from '../../types.ts'
import { wrongDomainName } from '../../../target/probes.ts'

export const AUTH_DOMAIN = 'auth.domain'

export const authDomain: Check<typeof AUTH_DOMAIN> = {
  id: AUTH_DOMAIN,
  title: 'a signature under another domain name, version or verifying contract is refused',
  rules: ['DOM-1', 'DOM-2', 'DOM-4', 'SIGFAIL-4', 'VER-1', 'PERP-3'],
  level: 'stated',
  async run(ctx) {
    const w = await withState(ctx, ctx.wallet())
    const name = ctx.target.domainName
    const perpName = ctx.spec.typedData.domains.perps?.name ?? 'Exchange'
    const variants: [string, string, Record<string, unknown>, RuleId[]][] = [
      ['name-perp', `domain name ${perpName} (the perp domain) on an options order`, { name: perpName }, ['DOM-1', 'PERP-3']],
      [
        'name-lowercase',
        `domain name ${name.toLowerCase() === name ? name.toUpperCase() : name.toLowerCase()} (case changed)`,
        { name: name.toLowerCase() === name ? name.toUpperCase() : name.toLowerCase() },
        ['DOM-1'],
      ],
      ['name-other', `domain name "${wrongDomainName(ctx.target)}"`, { name: wrongDomainName(ctx.target) }, ['DOM-1']],
      ['version-2', 'domain version "2"', { version: '2' }, ['DOM-2', 'VER-1']],
      [
        'verifying-contract',
        'a non-zero verifyingContract',
        { verifyingContract: '0x000000000000000000000000000000000000dEaD' },
        ['DOM-4'],
      ],
    ]
    // A target may take the perp domain's name for its options domain: then that probe is no probe.
    for (const [id, title, domain, rules] of variants.filter(([, , d]) => d.name !== name)) {
      await ctx.case(
        id,
        title,
        async (c) => {
          const { e } = await placeOrder(c, { wallet: w }, { domain })
          expectAuthRefused(c, e, title)
        },
        { rules: [...rules, 'SIGFAIL-4'] },
      )
    }
  },
}
