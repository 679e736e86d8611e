/**
 * Authentication: direct and agent signing, the agent lifecycle, and every family of signature
 * mismatch (domain, string format, struct, tampered field, encoding) refused with auth_refused.
 */
import type { RuleId } from '../../../contract/generated/rules.ts'
import { brief } from '../context.ts'
import {
  agentBody,
  approveAgent,
  cancelBody,
  codeOf,
  expectAuthenticated,
  expectAuthRefused,
  expectRefused,
  expectSuccess,
  jsonOf,
  placeOrder,
  revokeAgent,
  statusOf,
  succeeded,
  withState,
} from '../helpers.ts'
import { RawJson } from '../requests.ts'
import type { Check, CheckContext } from '../types.ts'

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** The other listed symbol, for tampering (or a second well-formed one when only one is listed). */
function otherSymbol(ctx: CheckContext): string {
  return ctx.target.symbols[1] ?? ctx.target.missingSymbol
}

export const authChecks: Check[] = [
  {
    id: 'auth.direct-order',
    title: 'orders signed by the wallet itself are accepted (every side, tif, route; empty and unicode client_id)',
    rules: ['AUTH-2', 'EP-1', 'PO-9', 'SIG-1', 'PO-7', 'RL-2', 'AGENT-9'],
    level: 'stated',
    async run(ctx) {
      const w = ctx.wallet()
      const acked = async (id: string, title: string, p: Parameters<typeof placeOrder>[1]) =>
        ctx.case(id, title, async (c) => {
          const { e } = await placeOrder(c, p)
          expectSuccess(c, e, title)
        })
      await acked('gtc-buy', 'gtc Buy, book_only, resting', { wallet: w })
      await acked('gtc-sell', 'gtc Sell, best_execution, resting', { wallet: w, side: 'Sell', route: 'best_execution' })
      await acked('empty-client-id', 'client_id is the empty string', { wallet: w, clientId: '' })
      await acked('unicode-client-id', 'client_id with non-ASCII characters', { wallet: w, clientId: 'ordre-é-注文-✓' })
      await acked('decimal-100.0', 'price "100.0" signed and sent', { wallet: w, price: '1.0', size: '1.50' })
      for (const tif of ['ioc', 'fok']) {
        await ctx.case(`tif-${tif}`, `tif ${tif} passes authentication (ACKED or a business REJECTED)`, async (c) => {
          const { e } = await placeOrder(c, { wallet: w, tif })
          expectAuthenticated(c, e, `tif ${tif}`)
        })
      }
      await ctx.case('rfq-only', 'route rfq_only passes authentication (ACKED or REJECTED)', async (c) => {
        const { e } = await placeOrder(c, { wallet: w, route: 'rfq_only' })
        expectAuthenticated(c, e, 'rfq_only')
      })
      await ctx.case(
        'lowercase-wallet',
        'the wallet sent in lowercase hex is the same wallet',
        async (c) => {
          const { e } = await placeOrder(c, { wallet: { ...w, address: w.address.toLowerCase() as `0x${string}` } })
          expectSuccess(c, e, 'lowercase wallet')
        },
        { rules: ['AGENT-9'], level: 'assumed' },
      )
    },
  },
  {
    id: 'auth.agent-order',
    title: 'approve an agent, then its orders and cancels for the owner are accepted and it is listed',
    rules: ['AGENT-1', 'AGENT-2', 'AGENT-3', 'AUTH-3', 'AGENT-4', 'EP-2'],
    level: 'stated',
    async run(ctx) {
      const owner = ctx.wallet()
      const agent = ctx.wallet()
      const a = await approveAgent(ctx, owner, agent.address)
      expectSuccess(ctx, a, 'POST /approve-agent signed by the owner')
      const { e } = await placeOrder(ctx, { wallet: owner, signer: agent })
      expectSuccess(ctx, e, 'order for the owner signed by the approved agent')
      const orderId = jsonOf(e)?.order_id
      if (typeof orderId === 'string') {
        const cancel = await cancelBody(ctx, owner, { orderId }, { signer: agent })
        const ce = await ctx.send('DELETE', '/order', cancel.text)
        expectSuccess(ctx, ce, 'cancel for the owner signed by the approved agent', { rules: ['AGENT-3', 'EP-2'] })
      } else {
        ctx.warn('the ACKED order result carries no order_id, so the agent cancel was not tried', { level: 'assumed', rules: ['EP-9'] })
      }
      const list = await ctx.send('GET', `/authorized-agents?wallet=${owner.address}`)
      if (statusOf(list) !== 200) ctx.fail(`GET /authorized-agents: expected 200, got ${brief(list)}`, { rules: ['AGENT-4'], exchange: list })
      if (!list.response?.body.toLowerCase().includes(agent.address.toLowerCase().slice(2))) {
        ctx.warn('GET /authorized-agents does not list the approved agent (shape assumed: {agents: [{agent}]})', { exchange: list, level: 'assumed', rules: ['AGENT-4', 'EP-9'] })
      }
    },
  },
  {
    id: 'auth.agent-revoke',
    title: 'approve → agent order accepted → revoke → agent order refused',
    rules: ['AGENT-5', 'AGENT-6', 'SIGFAIL-5', 'AUTH-2'],
    level: 'stated',
    async run(ctx) {
      const owner = ctx.wallet()
      const agent = ctx.wallet()
      expectSuccess(ctx, await approveAgent(ctx, owner, agent.address), 'approve the agent')
      expectSuccess(ctx, (await placeOrder(ctx, { wallet: owner, signer: agent })).e, 'agent order before revocation')
      const r = await revokeAgent(ctx, owner, agent.address)
      if ([404, 405].includes(statusOf(r)) && codeOf(r) !== 'not_found') {
        ctx.fail(`no RevokeAgent operation at the assumed POST /revoke-agent (${brief(r)})`, { level: 'assumed', exchange: r })
      }
      expectSuccess(ctx, r, 'POST /revoke-agent signed by the owner', { rules: ['AGENT-6'] })
      const after = await placeOrder(ctx, { wallet: owner, signer: agent })
      expectAuthRefused(ctx, after.e, 'agent order after its revocation was acknowledged')
    },
  },
  {
    id: 'auth.unapproved-agent',
    title: 'a signer that is neither the wallet nor its approved agent is refused',
    rules: ['AUTH-2', 'AUTH-4', 'SIGFAIL-5', 'AUTH-5', 'AUTH-1', 'AUTH-6', 'EP-2'],
    level: 'stated',
    async run(ctx) {
      await ctx.case('stranger', 'a fresh key signs an order for another wallet', async (c) => {
        const { e } = await placeOrder(c, { wallet: c.wallet(), signer: c.wallet() })
        expectAuthRefused(c, e, 'order signed by a stranger')
      })
      await ctx.case('known-signer', 'a key with its own state signs an order for another wallet', async (c) => {
        const signer = await withState(c, c.wallet())
        const victim = await withState(c, c.wallet())
        const { e } = await placeOrder(c, { wallet: victim, signer })
        expectAuthRefused(c, e, 'order signed by a known but unauthorized key')
        if (statusOf(e) === 401) c.warn('a known signer was refused with 401; the reference answers 403 unauthorized', { level: 'assumed', rules: ['AUTH-6'], exchange: e })
      })
      await ctx.case('agent-of-other-wallet', 'an agent approved by wallet A signs for wallet B', async (c) => {
        const a = c.wallet()
        const b = c.wallet()
        const agent = c.wallet()
        expectSuccess(c, await approveAgent(c, a, agent.address), 'approve the agent for A')
        await withState(c, b)
        const { e } = await placeOrder(c, { wallet: b, signer: agent })
        expectAuthRefused(c, e, "order for B signed by A's agent")
      })
      await ctx.case('unapproved-cancel', 'a stranger cancels an order of another wallet', async (c) => {
        const w = c.wallet()
        const { e } = await placeOrder(c, { wallet: w })
        expectSuccess(c, e, 'set-up order')
        const id = jsonOf(e)?.order_id
        if (typeof id !== 'string') return c.skip('the order result has no order_id')
        const cancel = await cancelBody(c, w, { orderId: id }, { signer: c.wallet() })
        expectAuthRefused(c, await c.send('DELETE', '/order', cancel.text), 'cancel signed by a stranger')
      }, { rules: ['AUTH-1', 'AUTH-2', 'EP-2'] })
    },
  },
  {
    id: 'auth.agent-cannot-approve-for-owner',
    title: "an agent's ApproveAgent approves for the agent itself, never for its owner",
    rules: ['AGENT-1', 'AGENT-7', 'AUTH-2'],
    level: 'stated',
    async run(ctx) {
      const owner = ctx.wallet()
      const agent = ctx.wallet()
      const sub = ctx.wallet()
      expectSuccess(ctx, await approveAgent(ctx, owner, agent.address), 'owner approves the agent')
      // The agent signs ApproveAgent(sub): the recovered signer (the agent) is the approving wallet.
      const r = await ctx.send('POST', '/approve-agent', (await agentBody(ctx, 'ApproveAgent', agent, sub.address, { nonce: ctx.nonce(owner) })).text)
      if (statusOf(r) >= 500) ctx.fail(`approve signed by an agent gave a server error ${brief(r)}`, { exchange: r })
      const { e } = await placeOrder(ctx, { wallet: owner, signer: sub })
      expectAuthRefused(ctx, e, "order for the owner signed by the agent's own sub-agent")
    },
  },
  {
    id: 'auth.approve-self',
    title: 'approving yourself as your own agent is refused with invalid_field',
    rules: ['AGENT-8'],
    level: 'assumed',
    async run(ctx) {
      const w = ctx.wallet()
      const r = await approveAgent(ctx, w, w.address)
      if (succeeded(r)) ctx.fail(`approving yourself was accepted (${brief(r)})`, { expected: 'HTTP 400 invalid_field', exchange: r })
      expectRefused(ctx, r, 'approve yourself', { codes: ['invalid_field'] })
    },
  },
  {
    id: 'auth.revoke-unknown',
    title: 'revoking an agent that was never approved: 404 not_found or 200',
    rules: ['AGENT-8'],
    level: 'assumed',
    async run(ctx) {
      const w = await withState(ctx, ctx.wallet())
      const r = await revokeAgent(ctx, w, ctx.wallet().address)
      const s = statusOf(r)
      if (s === 200 || (s === 404 && codeOf(r) === 'not_found')) return
      if (s >= 500) ctx.fail(`revoke of an unknown agent gave a server error ${brief(r)}`, { level: 'stated', rules: ['ERR-15'], exchange: r })
      ctx.fail(`revoke of an unknown agent: expected 404 not_found or 200, got ${brief(r)}`, { expected: 'HTTP 404 not_found or HTTP 200', exchange: r })
    },
  },
  {
    id: 'auth.chain-id',
    title: 'a signature under another chain ID is refused',
    rules: ['DOM-3', 'SIGFAIL-4', 'AUTH-5'],
    level: 'stated',
    async run(ctx) {
      const w = await withState(ctx, ctx.wallet())
      const ids = [1, ctx.target.chainId - 1, ctx.target.perpChainId].filter((id, i, all) => id !== ctx.target.chainId && all.indexOf(id) === i)
      for (const chainId of ids) {
        await ctx.case(`chain-${chainId}`, `PlaceOrder signed under chainId ${chainId}`, async (c) => {
          const { e } = await placeOrder(c, { wallet: w }, { domain: { chainId } })
          expectAuthRefused(c, e, `order signed under chainId ${chainId}`)
        })
      }
      await ctx.case('approve-chain-1', 'ApproveAgent signed under chainId 1', async (c) => {
        const agent = c.wallet()
        const r = await approveAgent(c, w, agent.address, { domain: { chainId: 1 } })
        // The recovered "owner" is some other address: the approval must not authorize the agent for w.
        if (statusOf(r) >= 500) c.fail(`server error ${brief(r)}`, { exchange: r })
        const { e } = await placeOrder(c, { wallet: w, signer: agent })
        expectAuthRefused(c, e, 'agent order after an approval signed under chainId 1')
      })
    },
  },
  {
    id: 'auth.domain',
    title: 'a signature under another domain name, version or verifying contract is refused',
    rules: ['DOM-1', 'DOM-2', 'DOM-4', 'SIGFAIL-4', 'VER-1', 'PERP-3'],
    level: 'stated',
    async run(ctx) {
      const w = await withState(ctx, ctx.wallet())
      const name = ctx.target.domainName
      const perpName = ctx.spec.typedData.domains.perps?.name ?? 'Exchange'
      const variants: [string, string, Record<string, unknown>, RuleId[]][] = [
        ['name-perp', `domain name ${perpName} (the perp domain) on an options order`, { name: perpName }, ['DOM-1', 'PERP-3']],
        ['name-lowercase', `domain name ${name.toLowerCase() === name ? name.toUpperCase() : name.toLowerCase()} (case changed)`, { name: name.toLowerCase() === name ? name.toUpperCase() : name.toLowerCase() }, ['DOM-1']],
        ['name-other', 'domain name "Other"', { name: 'Other' }, ['DOM-1']],
        ['version-2', 'domain version "2"', { version: '2' }, ['DOM-2', 'VER-1']],
        ['verifying-contract', 'a non-zero verifyingContract', { verifyingContract: '0x000000000000000000000000000000000000dEaD' }, ['DOM-4']],
      ]
      for (const [id, title, domain, rules] of variants) {
        await ctx.case(id, title, async (c) => {
          const { e } = await placeOrder(c, { wallet: w }, { domain })
          expectAuthRefused(c, e, title)
        }, { rules: [...rules, 'SIGFAIL-4'] })
      }
    },
  },
  {
    id: 'auth.string-format',
    title: 'size/price strings must be sent exactly as signed (100.0 signed, 100 sent is a mismatch)',
    rules: ['PO-4', 'SIGFAIL-2'],
    level: 'stated',
    async run(ctx) {
      const w = await withState(ctx, ctx.wallet())
      const cases: [string, 'price' | 'size', string, string][] = [
        ['price-100.0-sent-100', 'price', '100.0', '100'],
        ['price-100-sent-100.0', 'price', '100', '100.0'],
        ['price-trailing-zero', 'price', '1.5', '1.50'],
        ['size-1.0-sent-1', 'size', '1.0', '1'],
        ['size-2-sent-2.00', 'size', '2', '2.00'],
      ]
      for (const [id, field, signedAs, sent] of cases) {
        await ctx.case(id, `${field} signed "${signedAs}", sent "${sent}"`, async (c) => {
          const base = field === 'price' ? { price: signedAs } : { size: signedAs }
          const { e } = await placeOrder(c, { wallet: w, ...base }, { after: { [field]: sent } })
          expectAuthRefused(c, e, `${field} signed "${signedAs}" sent "${sent}"`)
        })
      }
      await ctx.case('exact-100.0', 'price "100.0" signed and sent exactly is accepted', async (c) => {
        const { e } = await placeOrder(c, { wallet: w, price: '100.0', side: 'Buy', tif: 'gtc' })
        expectAuthenticated(c, e, 'price "100.0" signed and sent')
      })
    },
  },
  {
    id: 'auth.number-price',
    title: 'size or price sent as a JSON number is refused (invalid_field or signature_verification_failed)',
    rules: ['PO-5', 'SIGFAIL-1', 'PO-10'],
    level: 'stated',
    async run(ctx) {
      const w = await withState(ctx, ctx.wallet())
      for (const [id, field, value] of [
        ['price-number', 'price', '100'],
        ['size-number', 'size', '2'],
        ['price-number-fraction', 'price', '1.5'],
      ] as const) {
        await ctx.case(id, `${field} sent as the JSON number ${value} (signed as the string "${value}")`, async (c) => {
          const { e } = await placeOrder(c, { wallet: w, [field]: value }, { after: { [field]: new RawJson(value) } })
          expectRefused(c, e, `${field} as a JSON number`, { codes: ['invalid_field', 'signature_verification_failed'] })
        })
      }
    },
  },
  {
    id: 'auth.client-id-signed',
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
  },
  {
    id: 'auth.tampered',
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
        await ctx.case(field, `${field} changed after signing`, async (c) => {
          const { e } = await placeOrder(c, { wallet: w }, { after: after as Record<string, string> })
          expectAuthRefused(c, e, `${field} changed after signing`)
        }, { rules: [...rules, 'AUTH-1'] })
      }
      await ctx.case('nonce-plus-one', 'nonce N signed, N+1 sent', async (c) => {
        const n = c.nonce(w)
        const { e } = await placeOrder(c, { wallet: w, nonce: n }, { after: { nonce: n + 1n } })
        expectAuthRefused(c, e, 'nonce N signed, N+1 sent')
      }, { rules: ['SIGFAIL-3'] })
    },
  },
  {
    id: 'auth.route-struct',
    title: 'route is signed exactly when it is in the body (PlaceOrder vs the 8-field struct)',
    rules: ['PO-6', 'SIG-2', 'SIG-1'],
    level: 'stated',
    async run(ctx) {
      const w = await withState(ctx, ctx.wallet())
      await ctx.case('signed-with-route-sent-without', 'route signed, then omitted from the body', async (c) => {
        const { e } = await placeOrder(c, { wallet: w, route: 'best_execution' }, { after: { route: undefined } })
        expectAuthRefused(c, e, 'route signed but omitted from the body')
      })
      await ctx.case('signed-without-route-sent-with', 'route not signed (8-field struct), then added to the body', async (c) => {
        const { e } = await placeOrder(c, { wallet: w, route: null }, { after: { route: 'best_execution' } })
        expectAuthRefused(c, e, 'route added to the body after signing the 8-field struct')
      })
    },
  },
  {
    id: 'auth.signature-encoding',
    title: 'signature encodings: v 0/1 accepted, high-s refused, malformed signatures refused',
    rules: ['SIG-9', 'SIG-10', 'AUTH-7', 'AUTH-1'],
    level: 'assumed',
    async run(ctx) {
      const w = await withState(ctx, ctx.wallet())
      const vFlip = (sig: string, f: (v: number) => number) => `${sig.slice(0, 130)}${f(parseInt(sig.slice(130), 16)).toString(16).padStart(2, '0')}`
      await ctx.case('v-0-1', 'v written as 0/1 instead of 27/28 is accepted', async (c) => {
        const { e } = await placeOrder(c, { wallet: w }, { signature: (s) => vFlip(s, (v) => v - 27) })
        expectSuccess(c, e, 'v as 0/1')
      }, { rules: ['SIG-9'] })
      await ctx.case('high-s', 'the malleable twin (n - s, v flipped) is refused', async (c) => {
        const { e } = await placeOrder(c, { wallet: w }, {
          signature: (sig) => {
            const s = BigInt(`0x${sig.slice(66, 130)}`)
            const v = parseInt(sig.slice(130), 16)
            return `${sig.slice(0, 66)}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`
          },
        })
        expectRefused(c, e, 'high-s signature', { codes: ['signature_verification_failed'] })
      }, { rules: ['SIG-10'] })
      const malformed: [string, string, (s: string) => string][] = [
        ['compact-64', '64-byte compact signature (no v)', (s) => s.slice(0, 130)],
        ['truncated', 'truncated signature', (s) => s.slice(0, 100)],
        ['non-hex', 'non-hex characters', (s) => `0x${'zz'}${s.slice(4)}`],
        ['no-0x', 'missing 0x prefix', (s) => s.slice(2)],
      ]
      for (const [id, title, f] of malformed) {
        await ctx.case(id, title, async (c) => {
          const { e } = await placeOrder(c, { wallet: w }, { signature: f })
          if (succeeded(e)) c.fail(`${title} was accepted (${brief(e)})`, { level: 'stated', rules: ['AUTH-1'], exchange: e })
          expectRefused(c, e, title, { codes: ['invalid_field', 'signature_verification_failed'] })
        }, { rules: ['AUTH-7', 'AUTH-1'] })
      }
    },
  },
]
