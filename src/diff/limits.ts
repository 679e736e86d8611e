/**
 * Diff of the rate-limit model (`x-rate-limits`): tier limits and caps, the window, the default
 * tier and the batch size. A lowered limit makes a client that was within budget get 429s, so
 * it is a warning; -1 (the spec's `unlimited` value) counts as infinity.
 */
import type { DiffSpec, WithLayer } from './input.ts'
import { isObject, type Tier } from '../contract/model.ts'
import type { Collector } from './collect.ts'
import { esc } from './refs.ts'

const FIELDS = [
  'ordersPerMinute',
  'cancelsPerMinute',
  'apiRequestsPerMinute',
  'maxOpenOrders',
  'maxPositions',
] as const satisfies readonly (keyof Tier)[]

function unlimitedOf(spec: DiffSpec): number {
  const ext = spec.doc['x-rate-limits']
  return isObject(ext) && typeof ext.unlimited === 'number' ? ext.unlimited : -1
}

export function diffLimits(base: WithLayer<'rateLimits'>, head: WithLayer<'rateLimits'>, c: Collector): void {
  const lb = base.rateLimits
  const lh = head.rateLimits
  const ub = unlimitedOf(base)
  const uh = unlimitedOf(head)
  const value = (v: number, unlimited: number) => (v === unlimited ? Infinity : v)
  const show = (v: number) => (v === Infinity ? 'unlimited' : String(v))

  for (const id of Object.keys(lb.tiers).sort()) {
    const p = `/x-rate-limits/tiers/${esc(id)}`
    const tb = lb.tiers[id]!
    const th = lh.tiers[id]
    if (!th) {
      c.add('rate-limit-tier-removed', p, `the rate-limit tier ${tb.name} was removed`)
      continue
    }
    for (const f of FIELDS) {
      const x = value(tb[f], ub)
      const y = value(th[f], uh)
      if (Number.isNaN(x) || Number.isNaN(y) || x === y) continue
      const lowered = y < x
      c.add(
        lowered ? 'rate-limit-tier-lowered' : 'rate-limit-tier-raised',
        `${p}/${f}`,
        `the ${th.name} tier's ${f} was ${lowered ? 'lowered' : 'raised'} from ${show(x)} to ${show(y)}`,
        {
          before: tb[f],
          after: th[f],
        },
      )
    }
  }
  for (const id of Object.keys(lh.tiers).sort()) {
    if (!(id in lb.tiers))
      c.add('rate-limit-tier-added', `/x-rate-limits/tiers/${esc(id)}`, `the rate-limit tier ${lh.tiers[id]!.name} was added`)
  }
  if (lb.windowSeconds !== lh.windowSeconds) {
    c.add(
      'rate-limit-window-changed',
      '/x-rate-limits/windowSeconds',
      `the rate-limit window changed from ${lb.windowSeconds} s to ${lh.windowSeconds} s`,
      { before: lb.windowSeconds, after: lh.windowSeconds },
    )
  }
  if (lb.defaultTier !== lh.defaultTier) {
    c.add(
      'rate-limit-default-tier-changed',
      '/x-rate-limits/defaultTier',
      `new wallets now get the ${lh.defaultTier} tier instead of ${lb.defaultTier}`,
      { before: lb.defaultTier, after: lh.defaultTier },
    )
  }
  if (lb.maxBatch !== lh.maxBatch) {
    const lowered = lh.maxBatch < lb.maxBatch
    c.add(
      lowered ? 'max-batch-decreased' : 'max-batch-increased',
      '/x-rate-limits/maxBatch',
      `the maximum batch size was ${lowered ? 'lowered' : 'raised'} from ${lb.maxBatch} to ${lh.maxBatch}`,
      {
        before: lb.maxBatch,
        after: lh.maxBatch,
      },
    )
  }
}
