/**
 * `cap.bulk-race`: with a wallet a little under the open-order cap, batches and single orders
 * sent at once: one cap for both, never more resting than the cap.
 */
import { bulkRaceRequests, capBurst } from '../../steps/burst.ts'
import type { Check } from '../../types.ts'

export const CAP_BULK_RACE = 'cap.bulk-race'

export const capBulkRace: Check<typeof CAP_BULK_RACE> = {
  id: CAP_BULK_RACE,
  title: 'batches and single orders sent at once past the open-order cap: one cap for both, never more resting than the cap',
  rules: ['CAP-1', 'CAP-3', 'ERR-8', 'EP-3'],
  level: 'stated',
  slow: true,
  run: (ctx) => capBurst(ctx, (w, size) => bulkRaceRequests(ctx, w, size)),
}
