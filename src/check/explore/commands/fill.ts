/**
 * Resting orders of wallet 0 up to `leave` below the open-order cap, as floods across as many
 * windows as the order limit needs: the explorer moves both clocks a window on, or on a live
 * target a wait sleeps across its window (no time left to: the fill ends short).
 */
import type { Command, StepOf } from './command.ts'

export const fill: Command<StepOf<'fill'>> = {
  ops: ['fill'],
  parties: () => ['w0'],
  toString: (s) => `resting orders of wallet 0 up to ${s.leave} below the open-order cap`,

  async run(step, ctx) {
    const { pair } = ctx.world
    const tier = pair.spec.rateLimits.tiers[pair.spec.rateLimits.defaultTier]!
    const flood = ctx.command('flood')
    let left = pair.openCap - step.leave
    const time = ctx.world.time
    while (left > 0) {
      const n = Math.min(left, tier.ordersPerMinute)
      const v = await flood.run({ op: 'flood', wallet: 0, n, bulk: false }, ctx)
      if (v === 'rolled' || v.length) return v
      left -= n
      if (pair.advance) pair.advance(60_000)
      else {
        // The flood's answers, judged by invariants, were heard as it recorded them (World.record):
        // their windows bound the wait all the same.
        if (left <= 0) break
        if (!(await time?.wait())) return []
      }
      ctx.world.newWindow()
    }
    return []
  },
}
