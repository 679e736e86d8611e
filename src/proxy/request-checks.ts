/**
 * The client's side of one exchange: the body against the operation's schema and string rules,
 * the signature (with the explain engine), and nonce reuse within the session. The response
 * checks update the session, except for one thing learnt here: an agent approved before the
 * session began (a request it signed was accepted).
 */
import type { RuleId } from '../contract/generated/rules.ts'
import type { FullContract } from '../contract/load.ts'
import type { Operation } from '../contract/model.ts'
import { OecError } from '../errors.ts'
import { explainRequest, type CauseId } from '../explain/index.ts'
import { signedParts } from '../explain/operation.ts'
import type { Validators } from '../server/validate.ts'
import { parseBody, readUint64, signingFor, type DomainOverrides, type OptionsKind, type ParsedBodyOk } from '../signing/index.ts'
import { violationsOf, type ProxiedExchange, type Violation } from './model.ts'
import type { ProxySession } from './session.ts'

export interface CheckContext {
  readonly contract: FullContract
  readonly validators: Validators
  readonly session: ProxySession
  /** The options domain the target signs, over the contract's. */
  readonly domain?: DomainOverrides | undefined
  /** Time limit of one signature diagnosis. */
  readonly explainMs: number
}

/** What the response checks need to know about the request. */
export interface RequestFacts {
  readonly op: Operation
  readonly parsed?: ParsedBodyOk
  /** (wallet, nonce) of every signed part whose signature verified, for the nonce namespace. */
  readonly nonces: readonly { wallet: string; nonce: bigint; reused?: number }[]
  /** Approve/revoke-agent: the recovered owner and the agent. */
  readonly agentChange?: { owner: string; agent: string; kind: 'approve' | 'revoke' }
}

const CAUSE_RULES: Record<CauseId, RuleId[]> = {
  chain_id: ['SIGFAIL-4', 'DOM-3'],
  domain_name: ['SIGFAIL-4', 'DOM-1'],
  domain_version: ['SIGFAIL-4', 'DOM-2'],
  verifying_contract: ['SIGFAIL-4', 'DOM-4'],
  route_struct: ['PO-6'],
  number_field: ['SIGFAIL-1', 'PO-5'],
  string_format: ['SIGFAIL-2', 'PO-4'],
  nonce: ['SIGFAIL-3'],
  field_name: ['PO-7'],
  signature_form: ['SIG-9', 'SIG-10'],
  other_signer: ['SIGFAIL-5', 'AUTH-2'],
  unknown: ['SIG-8'],
}

/** The rules a body field's schema problem breaks. */
function schemaRules(field: string, message: string): RuleId[] {
  const leaf = field.replace(/^.*[.\]]/, '')
  if (/^unknown field/.test(message)) return ['PO-11']
  if (leaf === 'price' || leaf === 'size') return /string/.test(message) ? ['PO-5'] : ['PO-10']
  if (leaf === 'nonce') return ['NONCE-1', 'NONCE-6']
  if (leaf === 'side') return ['PO-1']
  if (leaf === 'tif') return ['PO-2']
  if (leaf === 'route') return ['PO-3']
  if (leaf === 'signature') return ['SIG-9']
  if (leaf === 'symbol') return ['SVC-2']
  return ['PO-8']
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

export function pathOf(url: string): string {
  const q = url.indexOf('?')
  return q < 0 ? url : url.slice(0, q)
}

export function checkRequest(ctx: CheckContext, ex: ProxiedExchange): { violations: Violation[]; facts?: RequestFacts } {
  const path = pathOf(ex.url)
  const op = ctx.contract.operations.find((o) => o.method === ex.method && o.path === path)
  if (!op) return { violations: [] }
  if (!op.requestSchema) return { violations: [], facts: { op, nonces: [] } }
  const out: Violation[] = []
  const v = violationsOf('client', ex, path)
  const parsed = parseBody(ex.requestBody.toString('utf8'))
  if (!parsed.ok) {
    out.push(v('schema', parsed.code === 'invalid_json' ? ['WIRE-1'] : ['WIRE-4'], parsed.message))
    return { violations: out, facts: { op, nonces: [] } }
  }

  const validator = ctx.validators.body(op.operationId)
  const schemaProblems: { field: string; message: string }[] = []
  if (validator) {
    const p = validator.check(parsed.value)
    if (p) schemaProblems.push(p)
    if (validator.items && typeof parsed.value === 'object' && parsed.value !== null) {
      const items = (parsed.value as Record<string, unknown>)[validator.items.property]
      if (Array.isArray(items)) {
        items.forEach((item, i) => {
          const q = validator.items!.check(item)
          if (q)
            schemaProblems.push({
              field: `${validator.items!.property}[${i}].${q.field === 'body' ? '' : q.field}`.replace(/\.$/, ''),
              message: q.message,
            })
        })
      }
    }
  }
  const schemaViolations = schemaProblems.map((p) => ({
    field: p.field,
    violation: v('schema', schemaRules(p.field, p.message), p.message),
  }))

  const parts = signedParts(ctx.contract.doc, op.requestSchema, parsed.value)
  const nonces: { wallet: string; nonce: bigint; reused?: number }[] = []
  let agentChange: RequestFacts['agentChange']
  const isPerp = parts.some((p) => p.signed.derived !== undefined)
  if (isPerp && refused(ex)) out.push(...perpSignature(ctx, op, parsed).map((m) => v('signature', m.rules, m.message)))
  if (parts.length > 0 && !isPerp) {
    const agentOp = parts.every((p) => typeof p.value.wallet !== 'string')
    if (agentOp) {
      // Approve/revoke: the owner is whoever signed; nothing to compare against, only to remember.
      const part = parts[0]!
      const sign = signingFor(ctx.contract)
      try {
        const kind = (ctx.contract.typedData.messages[part.signed.variants[0]!.message]?.primaryType ?? '') as OptionsKind
        const msg = sign.messageFromBody(kind, {
          ok: true,
          value: part.value,
          numbers: new Map(
            [...parsed.numbers].filter(([k]) => k.startsWith(`${part.pointer}/`)).map(([k, x]) => [k.slice(part.pointer.length), x]),
          ),
        })
        const r = sign.verifyOptions(kind, msg, String(part.value.signature), { domain: ctx.domain })
        if (r.ok && typeof part.value.agent === 'string') {
          agentChange = { owner: r.signer, agent: part.value.agent, kind: kind === 'RevokeAgent' ? 'revoke' : 'approve' }
          nonces.push({ wallet: r.signer, nonce: msg.nonce as bigint })
        }
      } catch {
        // The schema check has already reported what makes the body unreadable.
      }
    } else {
      try {
        const wallets = parts.map((p) => p.value.wallet).filter((w): w is string => typeof w === 'string')
        const e = explainRequest(ctx.contract, parsed, {
          operationId: op.operationId,
          accepts: (a) => wallets.some((w) => ctx.session.isAgentOf(w, a)),
          knows: (a) => ctx.session.seen.has(a),
          domain: ctx.domain,
          budget: { maxMs: ctx.explainMs },
        })
        // Accepted, yet signed by a key this session never saw approved: an agent approved before
        // the session began. Learnt, not reported: the server is the authority on approvals.
        const agentFromBefore =
          e.recoveredAsSent !== undefined &&
          e.causes.every((c) => c.id === 'unknown') &&
          ex.status >= 200 &&
          ex.status < 300 &&
          parts.length === 1 &&
          wallets.length === 1
        if (agentFromBefore) ctx.session.approve(wallets[0]!, e.recoveredAsSent!)
        for (const c of agentFromBefore ? [] : e.causes) {
          const where = c.item !== undefined ? `item ${c.item}: ` : ''
          const same = schemaViolations.find((s) => c.field !== undefined && (s.field === c.field || s.field.endsWith(`.${c.field}`)))
          if (same)
            same.violation = {
              ...same.violation,
              check: 'schema+signature',
              rules: [...new Set([...same.violation.rules, ...CAUSE_RULES[c.id]])],
              message: `${where}${c.id}: ${c.text}`,
            }
          else out.push(v('signature', CAUSE_RULES[c.id], `${where}${c.id}: ${c.text}`))
        }
        if (e.verified || agentFromBefore) {
          for (const part of parts) {
            const n = readUint64(parsed, `${part.pointer}/nonce`)
            if (n.ok && typeof part.value.wallet === 'string' && ADDRESS.test(part.value.wallet))
              nonces.push({ wallet: part.value.wallet, nonce: n.value })
          }
        }
      } catch (err) {
        if (!(err instanceof OecError)) throw err
        // Unusable for the engine (no signature, a malformed one): the schema check names it.
      }
    }
  }
  out.unshift(...schemaViolations.map((s) => s.violation))
  const checked = nonces.map((n) => {
    const by = ctx.session.consumedBy(n.wallet, n.nonce)
    if (by !== undefined)
      out.push(
        v(
          'nonce',
          ['NONCE-2'],
          `nonce ${n.nonce} was already used by wallet ${n.wallet} (exchange #${by}); send a fresh nonce with every request`,
        ),
      )
    return by !== undefined ? { ...n, reused: by } : n
  })
  return { violations: out, facts: { op, parsed, nonces: checked, ...(agentChange ? { agentChange } : {}) } }
}

/** Refused: an HTTP error, or the perp venue's 200 `{status: "err"}` envelope. */
function refused(ex: ProxiedExchange): boolean {
  if (ex.status >= 400) return true
  try {
    const body = JSON.parse(ex.responseBody.toString('utf8')) as unknown
    return typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'err'
  } catch {
    return false
  }
}

/**
 * A refused perp request names no signer, so it is explained against the addresses the session
 * knows (its vault, the wallets and agents seen); only an explanation found is reported, never
 * `unknown`, since the refusal may have nothing to do with the signature.
 */
function perpSignature(ctx: CheckContext, op: Operation, parsed: ParsedBodyOk): { rules: RuleId[]; message: string }[] {
  const value = parsed.value as Record<string, unknown>
  const vault = typeof value.vaultAddress === 'string' && ADDRESS.test(value.vaultAddress) ? [value.vaultAddress] : []
  const signers = [...new Set([...vault.map((a) => a.toLowerCase()), ...ctx.session.seen])]
  if (signers.length === 0) return []
  try {
    const e = explainRequest(ctx.contract, parsed, { operationId: op.operationId, signer: signers, budget: { maxMs: ctx.explainMs } })
    if (e.verified || e.causes.some((c) => c.id === 'unknown')) return []
    return e.causes.map((c) => ({
      rules: c.id === 'chain_id' || c.id === 'domain_name' ? ['PERP-1', 'PERP-3'] : CAUSE_RULES[c.id],
      message: `${c.id}: ${c.text}`,
    }))
  } catch (err) {
    if (!(err instanceof OecError)) throw err
    return []
  }
}
