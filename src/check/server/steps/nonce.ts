/** Nonce steps of the `nonce.*` checks: an order that must be accepted with a given nonce, and one that must be refused as reused. */
import { expectRefused, expectSuccess } from '../expectations.ts'
import { placeOrder } from '../builders.ts'
import type { CheckContext } from '../types.ts'
import type { Wallet } from '../../target/wallets.ts'

/** Sends an order with this nonce; it must be ACKED (the nonce then counts as consumed). */
export async function acked(ctx: CheckContext, w: Wallet, nonce: bigint, what: string): Promise<void> {
  const { e } = await placeOrder(ctx, { wallet: w, nonce })
  expectSuccess(ctx, e, what)
}

export async function reused(ctx: CheckContext, w: Wallet, nonce: bigint, what: string): Promise<void> {
  const { e } = await placeOrder(ctx, { wallet: w, nonce })
  expectRefused(ctx, e, what, { codes: ['nonce_reused'] })
}
