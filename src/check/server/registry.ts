/**
 * Every check of `oec check server`, in run order: the order of REGISTRY is the order the
 * checks run and `--list` prints. Each check lives in checks/<id prefix>/<rest of id>.ts and
 * declares its id constant; families generated from data expand in place.
 */
import type { Check, CheckFamily, FamilyInput } from './types.ts'
import { perpChecks } from './checks/perp/orders.ts'
import { perpAgentAccount } from './checks/perp/agent-account.ts'
import { perpAgentSeveralWallets } from './checks/perp/agent-several-wallets.ts'
import { perpAloPostOnly } from './checks/perp/alo-post-only.ts'
import { perpExactIntegers } from './checks/perp/exact-integers.ts'
import { perpInfoMeta } from './checks/perp/info-meta.ts'
import { perpInfoSdkReads } from './checks/perp/info-sdk-reads.ts'
import { mutateFamilies } from './checks/mutate/signed-schemas.ts'
import { vectorFamilies } from './checks/vectors/families.ts'
import { authAgentCannotApproveForOwner } from './checks/auth/agent-cannot-approve-for-owner.ts'
import { authAgentOrder } from './checks/auth/agent-order.ts'
import { authAgentRevoke } from './checks/auth/agent-revoke.ts'
import { authApproveSelf } from './checks/auth/approve-self.ts'
import { authChainId } from './checks/auth/chain-id.ts'
import { authClientIdSigned } from './checks/auth/client-id-signed.ts'
import { authDirectOrder } from './checks/auth/direct-order.ts'
import { authDomain } from './checks/auth/domain.ts'
import { authNumberPrice } from './checks/auth/number-price.ts'
import { authRevokeUnknown } from './checks/auth/revoke-unknown.ts'
import { authReplay } from './checks/auth/replay.ts'
import { authRouteStruct } from './checks/auth/route-struct.ts'
import { authSignatureEncoding } from './checks/auth/signature-encoding.ts'
import { authStringFormat } from './checks/auth/string-format.ts'
import { authTampered } from './checks/auth/tampered.ts'
import { authUnapprovedAgent } from './checks/auth/unapproved-agent.ts'
import { bulkMaxBatch } from './checks/bulk/max-batch.ts'
import { capOpenOrders } from './checks/cap/open-orders.ts'
import { capOpenOrdersBurst } from './checks/cap/open-orders-burst.ts'
import { capBulkRace } from './checks/cap/bulk-race.ts'
import { capPositions } from './checks/cap/positions.ts'
import { capUnlimitedPositions } from './checks/cap/unlimited-positions.ts'
import { errBodyShape } from './checks/err/body-shape.ts'
import { errCatalogCodes } from './checks/err/catalog-codes.ts'
import { errHead } from './checks/err/head.ts'
import { errOrderbookMissing } from './checks/err/orderbook-missing.ts'
import { errOrderbookUnlisted } from './checks/err/orderbook-unlisted.ts'
import { errRejectedReason } from './checks/err/rejected-reason.ts'
import { nonceConcurrent } from './checks/nonce/concurrent.ts'
import { nonceRace } from './checks/nonce/race.ts'
import { nonceGapsDecreasing } from './checks/nonce/gaps-decreasing.ts'
import { noncePrecision2p53 } from './checks/nonce/precision-2p53.ts'
import { nonceRetryAfterFailure } from './checks/nonce/retry-after-failure.ts'
import { nonceReuseAfterSuccess } from './checks/nonce/reuse-after-success.ts'
import { nonceUint64Max } from './checks/nonce/uint64-max.ts'
import { opsHealth } from './checks/ops/health.ts'
import { rlBatchCrossing } from './checks/rl/batch-crossing.ts'
import { rlBulkRace } from './checks/rl/bulk-race.ts'
import { rlCancelBurst } from './checks/rl/cancel-burst.ts'
import { rlOrderBurst } from './checks/rl/order-burst.ts'
import { rlCategories } from './checks/rl/categories.ts'
import { rlHeaders } from './checks/rl/headers.ts'
import { rlHeadersRefusals } from './checks/rl/headers-refusals.ts'
import { rlOrderLimit } from './checks/rl/order-limit.ts'
import { rlRemaining } from './checks/rl/remaining.ts'
import { rlReset } from './checks/rl/reset.ts'
import { rlUnauthenticatedFree } from './checks/rl/unauthenticated-free.ts'
import { robustMalformed } from './checks/robust/malformed.ts'
import { routeOmitted } from './checks/route/omitted.ts'
import { wsOrderUpdates } from './checks/ws/order-updates.ts'

/** The signing perp checks, until they are one per file like the rest (their ids all start with `perp.`). */
const perpOrders: CheckFamily<'perp'> = { family: 'perp', expand: () => perpChecks as Check<`perp.${string}`>[] }

const REGISTRY = [
  authDirectOrder,
  authAgentOrder,
  authAgentRevoke,
  authUnapprovedAgent,
  authAgentCannotApproveForOwner,
  authApproveSelf,
  authRevokeUnknown,
  authChainId,
  authDomain,
  authStringFormat,
  authNumberPrice,
  authClientIdSigned,
  authTampered,
  authReplay,
  authRouteStruct,
  authSignatureEncoding,
  vectorFamilies,
  nonceReuseAfterSuccess,
  nonceRetryAfterFailure,
  nonceGapsDecreasing,
  nonceUint64Max,
  noncePrecision2p53,
  nonceConcurrent,
  nonceRace,
  routeOmitted,
  wsOrderUpdates,
  rlHeaders,
  rlHeadersRefusals,
  rlRemaining,
  rlOrderLimit,
  rlCategories,
  rlReset,
  capOpenOrders,
  capOpenOrdersBurst,
  capBulkRace,
  capPositions,
  capUnlimitedPositions,
  rlBatchCrossing,
  rlOrderBurst,
  rlCancelBurst,
  rlBulkRace,
  perpOrders,
  perpAgentAccount,
  perpAgentSeveralWallets,
  perpAloPostOnly,
  perpExactIntegers,
  perpInfoMeta,
  perpInfoSdkReads,
  bulkMaxBatch,
  opsHealth,
  rlUnauthenticatedFree,
  mutateFamilies,
  robustMalformed,
  errOrderbookMissing,
  errOrderbookUnlisted,
  errHead,
  // These read every response of the run, so they come after every check that sends one.
  errRejectedReason,
  errBodyShape,
  errCatalogCodes,
] as const

type IdOf<E> = E extends Check<infer Id> ? Id : E extends CheckFamily<infer Prefix> ? `${Prefix}.${string}` : never

/** The id of a check of the registry: naming a check that does not exist is a compile error. */
export type CheckId = IdOf<(typeof REGISTRY)[number]>

type PrefixOf<Id> = Id extends `${infer Prefix}.${string}` ? Prefix : never

/** What `--only` and `--skip` take: a check id, one of its cases, or a whole prefix (`auth`, `rl`). */
export type CheckSelector = CheckId | `${CheckId}/${string}` | PrefixOf<CheckId>

function isFamily(e: (typeof REGISTRY)[number]): e is Extract<(typeof REGISTRY)[number], CheckFamily<string>> {
  return 'family' in e
}

/** Every check in run order, the generated families expanded for this contract (and its vectors). */
export function allChecks(input: FamilyInput): Check<CheckId>[] {
  return REGISTRY.flatMap((e): readonly Check<CheckId>[] => (isFamily(e) ? e.expand(input) : [e]))
}
