/** limits.ts: the per-wallet rate-limit window, tier table, caps and batch size as constants. */
import type { WriterFunction } from 'ts-morph'
import type { Contract } from '../src/contract/load.ts'
import { getPointer, isObject } from '../src/contract/model.ts'
import type { NameRegistry } from './names.ts'
import { constValueStatement, functionStatement, typeAliasStatement } from './type-expr.ts'

export function emitLimits(spec: Contract<'rateLimits'>, names: NameRegistry): WriterFunction[] {
  const rl = spec.rateLimits
  const raw = getPointer(spec.doc, '/x-rate-limits')
  const ext = isObject(raw) ? raw : {}
  const unlimited = typeof ext.unlimited === 'number' ? ext.unlimited : -1
  const categories = isObject(ext.categories) ? ext.categories : {}

  const constant = constValueStatement

  const tiers = Object.fromEntries(
    Object.values(rl.tiers).map((t) => [
      t.id,
      {
        name: t.name,
        ordersPerMinute: t.ordersPerMinute,
        cancelsPerMinute: t.cancelsPerMinute,
        apiRequestsPerMinute: t.apiRequestsPerMinute,
        maxOpenOrders: t.maxOpenOrders,
        maxPositions: t.maxPositions,
      },
    ]),
  )
  const operationLimits = Object.fromEntries(
    spec.operations
      .filter((op) => op.rateLimit)
      .map((op) => [
        op.operationId,
        { category: op.rateLimit!.category, ...(op.rateLimit!.perItem ? { perItem: op.rateLimit!.perItem } : {}) },
      ]),
  )
  const n = {
    window: names.claim('rateLimitWindowSeconds'),
    algorithm: names.claim('rateLimitAlgorithm'),
    defaultTier: names.claim('defaultTier'),
    unlimited: names.claim('unlimited'),
    maxBatch: names.claim('maxBatch'),
    tiers: names.claim('tiers'),
    tierId: names.claim('TierId'),
    tier: names.claim('Tier'),
    categories: names.claim('rateCategories'),
    category: names.claim('RateCategory'),
    ops: names.claim('operationRateLimits'),
    isUnlimited: names.claim('isUnlimited'),
  }
  const out: WriterFunction[] = [
    constant(n.window, rl.windowSeconds, {
      description: `Length of the fixed rate-limit window in seconds${typeof ext.windowAlignment === 'string' ? ` (aligned: ${ext.windowAlignment})` : ''}.`,
    }),
    constant(n.algorithm, typeof ext.algorithm === 'string' ? ext.algorithm : 'fixed-window', { description: 'Rate-limit algorithm.' }),
    constant(n.defaultTier, rl.defaultTier, { description: 'The tier a new wallet gets.' }),
    constant(n.unlimited, unlimited, { description: 'The value of a cap that means unlimited (e.g. `maxPositions`).' }),
    constant(n.maxBatch, rl.maxBatch, { description: 'Maximum items in one bulk request; more is refused as a whole.' }),
    constant(n.tiers, tiers, { description: 'Per-wallet limits by tier: requests per window and the open-order and position caps.' }),
    typeAliasStatement(n.tierId, `keyof typeof ${n.tiers}`, { description: 'A tier key.' }),
    typeAliasStatement(n.tier, `(typeof ${n.tiers})[${n.tierId}]`, { description: 'One row of the tier table.' }),
    constant(n.categories, categories, { description: 'Rate-limit categories, each counted on its own, with what counts toward it.' }),
    typeAliasStatement(n.category, `keyof typeof ${n.categories}`, { description: 'A rate-limit category.' }),
    constant(n.ops, operationLimits, {
      description: 'The category each rate-limited operation counts in (`perItem`: the list whose items each count one).',
    }),
    functionStatement(
      n.isUnlimited,
      [{ name: 'cap', type: 'number' }],
      'boolean',
      (w) => {
        w.write(`return cap === ${n.unlimited};`)
      },
      { description: 'True when a cap value means unlimited.' },
    ),
  ]
  return out
}
