/**
 * The server's side of one exchange: a declared status, a body that fits the declared schema,
 * an error code the response declares, the rate-limit headers of a rate-limited endpoint, and
 * no acceptance of a nonce the session saw consumed. Then the session learns what the exchange
 * changed (consumed nonces, approved or revoked agents).
 */
import type { RuleId } from '../contract/generated/rules.ts'
import { RATE_LIMIT_HEADERS, WINDOW_HEADERS } from '../contract/headers.ts'
import { getPointer, isObject, responseErrorCodes, type Operation } from '../contract/model.ts'
import { violationsOf, type ProxiedExchange, type Violation } from './model.ts'
import { pathOf, type CheckContext, type RequestFacts } from './request-checks.ts'

/** The rule that states what an operation answers. */
const OPERATION_RULES: Record<string, RuleId> = {
  placeOrder: 'EP-1',
  cancelOrder: 'EP-2',
  placeOrders: 'EP-3',
  replaceOrders: 'EP-4',
  cancelOrders: 'EP-5',
  cancelOrdersByClientId: 'EP-6',
  listOrders: 'EP-8',
  getOrderbook: 'EP-8',
  getHealth: 'EP-11',
  approveAgent: 'AGENT-2',
  revokeAgent: 'AGENT-6',
  listAuthorizedAgents: 'AGENT-4',
  perpExchange: 'PERP-6',
}

const ruleOf = (op: Operation): RuleId => OPERATION_RULES[op.operationId] ?? 'EP-9'

/** JSON pointer of the schema a declared response has for JSON, following one `$ref`. */
function responseSchemaPointer(ctx: CheckContext, op: Operation, status: string): string | undefined {
  const raw = getPointer(ctx.contract.doc, `${op.pointer}/responses/${status}`)
  const base =
    isObject(raw) && typeof raw.$ref === 'string' && raw.$ref.startsWith('#') ? raw.$ref.slice(1) : `${op.pointer}/responses/${status}`
  const pointer = `${base}/content/application~1json/schema`
  return getPointer(ctx.contract.doc, pointer) === undefined ? undefined : pointer
}

const validatorCache = new WeakMap<object, Map<string, (v: unknown) => { field: string; message: string } | null>>()

function validatorFor(ctx: CheckContext, pointer: string) {
  let m = validatorCache.get(ctx.contract)
  if (!m) validatorCache.set(ctx.contract, (m = new Map()))
  let f = m.get(pointer)
  if (!f) m.set(pointer, (f = ctx.validators.schema(pointer)))
  return f
}

function declaredStatus(op: Operation, status: number): string | undefined {
  const s = String(status)
  if (op.responses[s]) return s
  const range = `${s[0]}XX`
  if (op.responses[range]) return range
  return op.responses.default ? 'default' : undefined
}

/** The request changed state: an accepted order, a cancel, an approval (what consumes a nonce). */
function changedState(ex: ProxiedExchange, body: unknown): boolean {
  if (ex.status < 200 || ex.status > 299 || !isObject(body)) return false
  if (body.status === 'REJECTED' || body.status === 'err') return false
  if (Array.isArray(body.results)) return body.results.some((r) => !(isObject(r) && r.status === 'REJECTED'))
  return true
}

export function checkResponse(ctx: CheckContext, ex: ProxiedExchange, facts: RequestFacts | undefined): Violation[] {
  if (!facts) return []
  const { op } = facts
  const out: Violation[] = []
  const path = pathOf(ex.url)
  const v = violationsOf('server', ex, path)
  const head = ex.method === 'HEAD'
  let body: unknown
  const text = ex.responseBody.toString('utf8')
  if (!head && text !== '') {
    try {
      body = JSON.parse(text)
    } catch {
      out.push(v('body', ['WIRE-1'], `the ${ex.status} response body is not JSON`))
    }
  }

  const declared = declaredStatus(op, ex.status)
  if (declared === undefined) {
    out.push(
      v(
        'status',
        [ex.status >= 400 ? 'ERR-15' : ruleOf(op)],
        `${ex.method} ${path} answered ${ex.status}, which the contract does not declare for ${op.operationId} (declared: ${Object.keys(op.responses).join(', ')})`,
      ),
    )
  } else if (body !== undefined) {
    const pointer = responseSchemaPointer(ctx, op, declared)
    const problem = pointer ? validatorFor(ctx, pointer)(body) : null
    if (problem) {
      const rules: RuleId[] =
        ex.status === 429
          ? ['ERR-7']
          : ex.status >= 400
            ? /"code"|code/.test(problem.message)
              ? ['ERR-1']
              : /message/.test(problem.message)
                ? ['ERR-2']
                : ['ERR-1', 'ERR-2']
            : [ruleOf(op)]
      out.push(v('body', rules, `the ${ex.status} body does not fit the contract: ${problem.message}`))
    }
    if (ex.status >= 400 && isObject(body) && typeof body.code === 'string') {
      const codes = responseErrorCodes(op.responses[declared]!)
      if (codes.length > 0 && !codes.includes(body.code))
        out.push(
          v(
            'error_code',
            ['ERR-15'],
            `error code ${JSON.stringify(body.code)} is not one the ${ex.status} response of ${op.operationId} declares (${codes.join(', ')})`,
          ),
        )
    }
  }

  if (op.rateLimit) {
    const missing = WINDOW_HEADERS.filter((h) => ex.responseHeaders[h.toLowerCase()] === undefined)
    if (missing.length > 0)
      out.push(v('rate_headers', ['RL-6'], `the ${ex.status} response of a rate-limited endpoint lacks ${missing.join(', ')}`))
    const retry = ex.responseHeaders[RATE_LIMIT_HEADERS.retryAfter.toLowerCase()]
    if (ex.status === 429) {
      if (retry === undefined) out.push(v('rate_headers', ['RL-8', 'ERR-4'], 'a 429 without Retry-After'))
      const rem = ex.responseHeaders[RATE_LIMIT_HEADERS.remaining.toLowerCase()]
      if (rem !== undefined && rem !== '0')
        out.push(v('rate_headers', ['RL-7'], `a 429 with ${RATE_LIMIT_HEADERS.remaining}: ${rem} (must be 0)`))
    } else if (retry !== undefined) out.push(v('rate_headers', ['RL-8'], `Retry-After on a ${ex.status} (it belongs to 429 only)`))
  }

  const changed = changedState(ex, body)
  for (const n of facts.nonces) {
    if (n.reused !== undefined && changed)
      out.push(v('nonce', ['NONCE-7'], `the server accepted nonce ${n.nonce} of wallet ${n.wallet}, consumed by exchange #${n.reused}`))
    if (changed) ctx.session.consume(n.wallet, n.nonce, ex.seq)
    ctx.session.seen.add(n.wallet.toLowerCase())
  }
  if (facts.agentChange && changed) {
    const { owner, agent, kind } = facts.agentChange
    if (kind === 'approve') ctx.session.approve(owner, agent)
    else ctx.session.revoke(owner, agent)
    ctx.session.seen.add(agent.toLowerCase())
  }
  return out
}
