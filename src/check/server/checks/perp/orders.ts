/**
 * Perp orders (POST /exchange): a correct Agent-signed order is accepted; the classic
 * integration bugs are refused: chainId 999 instead of 1337, the options domain, testnet
 * source `b` on a mainnet server, a re-ordered action key, an action changed after signing,
 * a vault address that was not signed, an accepted request replayed as is or with its nonce
 * bumped. Refusals are expected in the venue's envelope (HTTP 200 `{status: "err"}`, assumed);
 * that they happen at all is stated. Each perp key gets state first (an options order),
 * because a server refuses an unknown perp signer whatever its signature.
 */
import type { RuleId } from '../../../../contract/generated/rules.ts'
import type { DomainOverrides, Hex } from '../../../../signing/index.ts'
import { brief } from '../../context.ts'
import { call } from '../../operations.ts'
import { expectPerpRefused, expectSuccess } from '../../expectations.ts'
import { jsonOf, statusOf, succeeded } from '../../answers.ts'
import { withState } from '../../builders.ts'
import { perpOrderAction, signPerpBody } from '../../../target/requests.ts'
import type { Check, CheckContext } from '../../types.ts'
import type { Wallet } from '../../../target/wallets.ts'
import { type DomainFacts, wrongChainId, wrongDomainName } from '../../../target/probes.ts'

export interface PerpOptions {
  readonly nonce?: bigint
  readonly domain?: DomainOverrides
  readonly isMainnet?: boolean
  readonly action?: Record<string, unknown>
  readonly signedAction?: Record<string, unknown>
  readonly vaultAddress?: Hex
  readonly vaultUnsigned?: boolean
  /** Nonce namespace owner (the vault when trading for one). */
  readonly nonceOf?: Wallet
}

export function defaultPerpAction(price = '1'): Record<string, unknown> {
  return perpOrderAction([{ asset: 0, isBuy: true, price, size: '1', tif: 'Gtc' }])
}

/** The body text of a perp order signed by `w` (perp domain from the target, mainnet by default). */
export async function perpOrder(ctx: CheckContext, w: Wallet, o: PerpOptions = {}): Promise<string> {
  const domain = { chainId: ctx.target.perpChainId, ...(o.domain ?? {}) }
  return signPerpBody(ctx.spec, o.action ?? defaultPerpAction(), w.privateKey, {
    nonce: o.nonce ?? ctx.nonce(o.nonceOf ?? w),
    isMainnet: o.isMainnet ?? ctx.target.isMainnet,
    domain,
    ...(o.signedAction ? { signedAction: o.signedAction } : {}),
    ...(o.vaultAddress ? { vaultAddress: o.vaultAddress } : {}),
    ...(o.vaultUnsigned ? { vaultUnsigned: true } : {}),
  })
}

/** A key with state on the target (one options order), as DECISIONS asks of a perp checker. */
function knownKey(ctx: CheckContext): Promise<Wallet> {
  return withState(ctx, ctx.wallet(), 'options order that gives the perp key state')
}

/** A stated check: a perp order from a known key, signed with one thing wrong, is refused. */
function refusedPerpOrder(
  id: string,
  title: string,
  rules: RuleId[],
  wrong: (ctx: CheckContext, w: Wallet) => PerpOptions,
  what: (ctx: CheckContext) => string,
): Check {
  return {
    id,
    title,
    rules,
    level: 'stated',
    async run(ctx) {
      const w = await knownKey(ctx)
      const e = await call(ctx, 'perpExchange', await perpOrder(ctx, w, wrong(ctx, w)))
      expectPerpRefused(ctx, e, what(ctx), { auth: true })
    },
  }
}

export const perpChecks: Check[] = [
  {
    id: 'perp.order-accepted',
    title: 'a correct perp order (Agent under Exchange/1/1337) is accepted on POST /exchange',
    rules: ['PERP-1', 'PERP-2', 'PERP-4', 'PERP-6', 'PERP-8'],
    level: 'stated',
    async run(ctx) {
      const w = await knownKey(ctx)
      const e = await call(ctx, 'perpExchange', await perpOrder(ctx, w))
      // The path is assumed (the seed shows none): a server that takes perps elsewhere only warns.
      if ([404, 405].includes(statusOf(e)))
        ctx.fail(`no perp operation at the assumed POST /exchange (${brief(e)})`, { exchange: e, level: 'assumed', rules: ['PERP-6'] })
      expectSuccess(ctx, e, 'a correct perp order', { expected: 'HTTP 200 {"status":"ok",...}' })
      const statuses = (jsonOf(e)?.response as { data?: { statuses?: unknown } } | undefined)?.data?.statuses
      if (succeeded(e) && (!Array.isArray(statuses) || statuses.length !== 1)) {
        ctx.warn(`a correct perp order: expected the venue's envelope with one status, got ${brief(e)}`, {
          exchange: e,
          level: 'assumed',
          rules: ['PERP-8'],
          expected: '{"status":"ok","response":{"type":"order","data":{"statuses":[...]}}}',
        })
      }
    },
  },
  {
    id: 'perp.replay',
    title: 'an accepted perp request sent again, as is or with its nonce bumped, is refused',
    rules: ['NONCE-2', 'SIGFAIL-3', 'PERP-2', 'PERP-8'],
    level: 'stated',
    async run(ctx) {
      const w = await knownKey(ctx)
      const n = ctx.nonce(w)
      const body = await perpOrder(ctx, w, { nonce: n })
      const first = await call(ctx, 'perpExchange', body)
      if (!succeeded(first)) return ctx.skip(`the first perp order was not accepted (${brief(first)}); see perp.order-accepted`)
      await ctx.case('same', 'the accepted body sent again (nonce reused)', async (c) => {
        expectPerpRefused(c, await call(c, 'perpExchange', body), 'an accepted perp request sent again', { rules: ['NONCE-2'] })
      })
      await ctx.case('nonce-bumped', 'the same action and signature with the nonce bumped by one', async (c) => {
        // The nonce is part of the connectionId: under N+1 the signature recovers to some other address.
        const bumped = body.replace(`"nonce":${n}`, `"nonce":${n + 1n}`)
        if (bumped === body) return c.skip('cannot find the nonce in the body')
        expectPerpRefused(c, await call(c, 'perpExchange', bumped), 'an accepted perp request replayed with its nonce bumped', {
          auth: true,
          rules: ['SIGFAIL-3'],
        })
      })
    },
  },
  refusedPerpOrder(
    'perp.chain-id-999',
    'a perp action signed under chainId 999 (the options chain) is refused',
    ['PERP-1', 'PERP-3'],
    (ctx) => ({ domain: { chainId: perpProbeChain(ctx.target) } }),
    (ctx) => `perp action signed under chainId ${perpProbeChain(ctx.target)}`,
  ),
  refusedPerpOrder(
    'perp.options-domain',
    'a perp action signed under the options domain name is refused',
    ['PERP-1', 'PERP-3'],
    (ctx) => ({ domain: { name: perpProbeName(ctx) } }),
    (ctx) => `perp action signed under the domain name ${perpProbeName(ctx)}`,
  ),
  refusedPerpOrder(
    'perp.testnet-source',
    'a testnet (source "b") signature on a mainnet server is refused',
    ['PERP-4', 'PERP-1'],
    (ctx) => ({ isMainnet: !ctx.target.isMainnet }),
    (ctx) => `source ${ctx.target.isMainnet ? 'b' : 'a'} on a ${ctx.target.isMainnet ? 'mainnet' : 'testnet'} server`,
  ),
  {
    id: 'perp.key-order',
    title: 'an action signed with its keys re-ordered (a different msgpack) is refused',
    rules: ['PERP-2', 'PERP-5'],
    level: 'stated',
    async run(ctx) {
      const w = await knownKey(ctx)
      const canonical = defaultPerpAction()
      const reordered = { orders: canonical.orders, type: canonical.type, grouping: canonical.grouping }
      await ctx.case('sent-in-wire-order', 'msgpack signed with keys (orders, type, grouping), JSON sent in the wire order', async (c) => {
        const e = await call(c, 'perpExchange', await perpOrder(c, w, { action: canonical, signedAction: reordered }))
        expectPerpRefused(c, e, 'action signed with re-ordered keys', { auth: true })
      })
      await ctx.case(
        'sent-re-ordered',
        'msgpack signed and JSON sent with keys (orders, type, grouping): the venue hashes its own key order',
        async (c) => {
          const e = await call(c, 'perpExchange', await perpOrder(c, w, { action: reordered, signedAction: reordered }))
          if (succeeded(e))
            c.fail(
              'an action signed over re-ordered keys was accepted: the server hashes the JSON as received, not the venue key order (type, orders, grouping)',
              { exchange: e, expected: 'refused (the venue re-encodes the action in its own key order)' },
            )
          expectPerpRefused(c, e, 'action signed and sent with re-ordered keys', { auth: true })
        },
        { level: 'assumed', rules: ['PERP-5'] },
      )
    },
  },
  refusedPerpOrder(
    'perp.action-changed',
    'an action changed after signing (price) is refused',
    ['PERP-2', 'AUTH-1'],
    () => ({ action: defaultPerpAction('2'), signedAction: defaultPerpAction('1') }),
    () => 'price changed after signing',
  ),
  refusedPerpOrder(
    'perp.vault-unsigned',
    'a vaultAddress sent but not covered by the signature is refused',
    ['PERP-4', 'AUTH-2'],
    (_ctx, w) => ({ vaultAddress: w.address, vaultUnsigned: true }),
    () => 'vaultAddress not signed',
  ),
]

/** The options chain, unless the target runs both domains on one chain: then one it uses for neither. */
function perpProbeChain(target: DomainFacts): number {
  return target.chainId !== target.perpChainId ? target.chainId : wrongChainId(target)
}

/** The options domain's name, unless the target gave it the perp domain's own name. */
function perpProbeName(ctx: CheckContext): string {
  const perpName = ctx.spec.typedData.domains.perps?.name
  return ctx.target.domainName !== perpName ? ctx.target.domainName : wrongDomainName(ctx.target)
}
