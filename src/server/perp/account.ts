/**
 * Whose account a perp request acts for. The venue books an API wallet's orders to the wallet
 * that approved it, so on this endpoint an approved agent acts for its approving wallet unless
 * `vaultAddress` names another account it may act for (DECISIONS, perp section).
 */
import { authorizedFor, refusal } from '../auth.ts'
import type { ServerContext } from '../context.ts'

export type Account = { ok: true; wallet: string } | { ok: false; message: string }

export function resolveAccount(ctx: ServerContext, signer: string, vault: string | null): Account {
  const refused = (): Account => ({ ok: false, message: authMessage(ctx, signer) })
  // A signer with no state is what a tampered request recovers to: refuse it before it "owns" anything.
  if (!ctx.known(signer)) return refused()
  if (vault !== null) return authorizedFor(ctx, signer, vault) ? { ok: true, wallet: vault } : refused()
  const owners = ctx.deps.agents.owners(signer)
  if (owners.length === 1) return { ok: true, wallet: owners[0]! }
  if (owners.length > 1) {
    return {
      ok: false,
      message: `signer ${signer} is an approved agent of ${owners.length} wallets; send vaultAddress to say which one this request is for`,
    }
  }
  return { ok: true, wallet: signer }
}

/** The stated message of the auth refusal the options endpoints would give this signer. */
export function authMessage(ctx: ServerContext, signer: string | null): string {
  return (refusal(ctx, signer).reply.body as { message: string }).message
}
