/**
 * Authentication of options-domain requests: recover the signer, then authorize it for the
 * trading wallet (itself, or an agent the wallet approved). Refusals follow DECISIONS: 401 when
 * the signature does not recover or recovers to an address with no state (a tampered message
 * and a stranger's key look alike), 403 when it recovers to an address the server knows.
 */
import type { OptionsMessage } from '../signing/index.ts'
import type { Code } from '../contract/codes.ts'
import type { OptionsKind, ParsedBodyOk } from '../signing/index.ts'
import type { ServerConfig } from './config.ts'
import type { ServerContext } from './context.ts'
import type { Reply } from './reply.ts'
import { batchedVerifier } from './verify-batch.ts'

export type AuthResult =
  | { ok: true; signer: string; owner: string }
  | { ok: false; reply: Reply; code: Code<'signature_verification_failed' | 'unauthorized' | 'invalid_field'> }

export function refusal(
  ctx: ServerContext,
  signer: string | null,
): { ok: false; reply: Reply; code: Code<'signature_verification_failed' | 'unauthorized'> } {
  if (signer !== null && ctx.known(signer)) {
    return { ok: false, code: 'unauthorized', reply: ctx.catalog.reply('unauthorized', 'Unauthorized: signer not authorized for wallet') }
  }
  return {
    ok: false,
    code: 'signature_verification_failed',
    reply: ctx.catalog.reply('signature_verification_failed', 'Signature verification failed'),
  }
}

/** The signer may act for `wallet`: it is the wallet, or an agent the wallet approved and has not revoked. */
export function authorizedFor(ctx: ServerContext, signer: string, wallet: string): boolean {
  return signer.toLowerCase() === wallet.toLowerCase() || ctx.deps.agents.isApproved(wallet, signer)
}

type DomainOptions = { readonly domain: Readonly<{ name: string; chainId: number }> }
const domainOptions = new WeakMap<ServerConfig, DomainOptions>()

/** The configured domain, frozen once per config: the signing core keeps a frozen override's separator. */
function verifyOptionsOf(config: ServerConfig): DomainOptions {
  let o = domainOptions.get(config)
  if (!o) domainOptions.set(config, (o = Object.freeze({ domain: Object.freeze({ name: config.domainName, chainId: config.chainId }) })))
  return o
}

type VerifyOut = ReturnType<ServerContext['deps']['verifyOptions']>
type Refused = Extract<AuthResult, { ok: false }>

/** The arguments of the signature check for a body, or the invalid_field refusal. */
function verifyArgs(
  ctx: ServerContext,
  kind: OptionsKind,
  body: ParsedBodyOk,
): Parameters<ServerContext['deps']['verifyOptions']> | Refused {
  let message: OptionsMessage
  try {
    message = ctx.signing.messageFromBody(kind, body)
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err)
    return { ok: false, code: 'invalid_field', reply: ctx.catalog.reply('invalid_field', `invalid field: ${msg}`) }
  }
  const signature = (body.value as Record<string, unknown>).signature
  return [kind, message, String(signature), verifyOptionsOf(ctx.config)]
}

/**
 * `wallet` null: agent operations, where the owner is the recovered signer itself.
 */
export function authenticate(ctx: ServerContext, kind: OptionsKind, body: ParsedBodyOk, wallet: string | null): AuthResult {
  const args = verifyArgs(ctx, kind, body)
  return Array.isArray(args) ? decide(ctx, body, wallet, ctx.deps.verifyOptions(...args)) : args
}

/**
 * `authenticate` with the signature check batched per event-loop turn (verify-batch.ts), for the
 * endpoints that carry the order flow: the same answers.
 */
export async function authenticateBatched(
  ctx: ServerContext,
  kind: OptionsKind,
  body: ParsedBodyOk,
  wallet: string | null,
): Promise<AuthResult> {
  const args = verifyArgs(ctx, kind, body)
  return Array.isArray(args) ? decide(ctx, body, wallet, await batchedVerifier(ctx.deps.verifyOptions)(...args)) : args
}

function decide(ctx: ServerContext, body: ParsedBodyOk, wallet: string | null, r: VerifyOut): AuthResult {
  if (!r.ok) return explained(ctx, body, wallet, refusal(ctx, null))
  if (wallet === null) return { ok: true, signer: r.signer, owner: r.signer }
  if (authorizedFor(ctx, r.signer, wallet)) return { ok: true, signer: r.signer, owner: wallet }
  return explained(ctx, body, wallet, refusal(ctx, r.signer))
}

/** With `--explain` on, the refusal body also says why (agent operations have no wallet to check against). */
function explained<R extends { reply: Reply }>(ctx: ServerContext, body: ParsedBodyOk, wallet: string | null, refused: R): R {
  const diagnose = ctx.deps.explainRefusal
  if (!diagnose || wallet === null) return refused
  const explain = diagnose(body, wallet, { authorized: (a) => authorizedFor(ctx, a, wallet), known: (a) => ctx.known(a) })
  return { ...refused, reply: { ...refused.reply, body: { ...(refused.reply.body as object), explain } } }
}
