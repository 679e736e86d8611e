/**
 * `cap.open-orders-burst`: with a wallet a little under the open-order cap, orders sent at once
 * over separate connections: never more resting than the cap, every other one refused as a cap
 * refusal in the stated form.
 */
import { orderBody } from '../../builders.ts'
import { capBurst } from '../../steps/burst.ts'
import type { Check } from '../../types.ts'

export const CAP_OPEN_ORDERS_BURST = 'cap.open-orders-burst'

export const capOpenOrdersBurst: Check<typeof CAP_OPEN_ORDERS_BURST> = {
  id: CAP_OPEN_ORDERS_BURST,
  title: 'orders sent at once past the open-order cap, over separate connections: never more resting than the cap',
  rules: ['CAP-1', 'CAP-3', 'ERR-8', 'RL-4'],
  level: 'stated',
  slow: true,
  run: (ctx) =>
    capBurst(ctx, async (w, size) => {
      const bodies = await Promise.all(Array.from({ length: size }, () => orderBody(ctx, { wallet: w })))
      return bodies.map((b) => ({ op: 'placeOrder', body: b.text }))
    }),
}
