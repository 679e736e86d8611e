/**
 * The oracle's verdict on one answer: the target's answer against the reference server's answer
 * to the same request, on what the rule catalog makes observable. Each divergence names the rule
 * it departs from; its level is that rule's level in the catalog (stated: a failure, assumed: a
 * warning). Pure.
 */
import { ruleLevels, type RuleId } from '../../contract/generated/rules.ts'
import type { Level } from '../../contract/rules.ts'
import type { Contract, ErrorCodeEntry } from '../../contract/index.ts'
import { fieldDifferences } from './fields.ts'
import type { AnswerKind, Observed, Outcome } from './observe.ts'

export interface Divergence {
  readonly rule: RuleId
  readonly level: Level
  /** One line: what the target did, what the reference did. */
  readonly what: string
  /**
   * Found on the target's answers alone (a nonce taken twice, a window overrun, a 5xx): it stands
   * whatever the oracle knows, so it is judged even for a party whose state the oracle adopted.
   */
  readonly invariant?: boolean
}

export function divergence(rule: RuleId, what: string): Divergence {
  return { rule, level: ruleLevels[rule], what }
}

/** A divergence the target's answers show by themselves. */
export function invariant(rule: RuleId, what: string): Divergence {
  return { ...divergence(rule, what), invariant: true }
}

export interface AnswerContext {
  readonly kind: AnswerKind
  /** The rule an acceptance rests on when the seed is silent (route omitted, an unlisted symbol, a zero size). */
  readonly assumedAcceptance?: RuleId
  /** The endpoint is rate-limited (a signed write): X-RateLimit-* must be there. */
  readonly rateLimited: boolean
  /** The target's window for this wallet rolled over since its first answer: counts are no longer comparable. */
  readonly windowRolled: boolean
  /** Header names of the target's answer to an order with route (the route-omitted notice is a header these lack). */
  readonly routeBaseline?: ReadonlySet<string>
  readonly routeOmitted?: boolean
  /** Per item of a batch: the assumed rule its acceptance rests on, if any. */
  readonly itemAssumptions?: readonly (RuleId | undefined)[]
  /** The stated rule of the endpoint when it is not the kind's (the bulk cancels). */
  readonly rule?: RuleId
  /** The nonce rule a refusal as reused departs from: NONCE-5 for a retry after a failure, else NONCE-4. */
  readonly nonceRule?: RuleId
  /**
   * An ioc or fok order: what it fills depends on the book, and how an unfillable one ends (200
   * REJECTED, or ACKED then CANCELED) the seed does not show. Both answers keep PO-9, so a
   * difference there is the reference's assumed matching (PO-12), never a failure by itself.
   */
  readonly neverRests?: boolean
  /** The error-code catalog, when refusals are compared by their `code` too (read-back `parties`). */
  readonly catalog?: readonly ErrorCodeEntry[]
  /** The spec, when the stated body fields of answers are compared too (read-back `parties`, fields.ts). */
  readonly fields?: Contract
}

/** The stated rule behind an answer of each kind: whether it is taken follows from stated rules. */
const KIND_RULE: Readonly<Record<AnswerKind, RuleId>> = {
  order: 'PO-9',
  cancel: 'EP-2',
  batch: 'EP-3',
  replace: 'EP-4',
  agent: 'AGENT-2',
  perp: 'PERP-9',
  read: 'EP-8',
}

const AUTH_MESSAGES = ['Signature verification failed', 'Unauthorized: signer not authorized for wallet']
const taken = (o: Outcome) => o === 'accepted'

/** The rule two different outcomes of the same request depart from, or undefined when the difference is allowed. */
function outcomeRule(target: Outcome, oracle: Outcome, c: AnswerContext): RuleId | 'rolled' | undefined {
  if (target === oracle) return undefined
  const pair = (a: Outcome, b: Outcome) => (target === a && oracle === b) || (target === b && oracle === a)
  // A declared 503 (the target cannot save state now) says "not now": the rest of the run is not comparable.
  if (target === 'unavailable' && oracle !== 'unavailable') return 'rolled'
  // A 5xx is never the answer to a request the reference answers: the endpoint's own stated behaviour is missing.
  if (target === 'server') return c.rule ?? KIND_RULE[c.kind]
  // Past the signature check on one side only: a rejection for a business reason means the signer was taken.
  if (pair('auth', 'accepted') || pair('auth', 'rejected')) return 'AUTH-2'
  if (target === 'accepted' && oracle === 'nonce') return 'NONCE-2'
  if (target === 'nonce' && oracle === 'accepted') return c.nonceRule ?? 'NONCE-4'
  if (pair('cap', 'accepted')) return 'CAP-1'
  // Which requests a window charges is assumed (RL-12): a target ahead of the reference warns; one behind it is judged
  // by the invariant (never more orders taken in a window than its limit), not by this answer.
  if (target === 'rate' && oracle !== 'auth') return c.windowRolled ? 'rolled' : 'RL-12'
  if (oracle === 'rate') return 'rolled'
  if (oracle === 'cap') return 'CAP-3'
  if (taken(target) !== taken(oracle)) {
    if (c.assumedAcceptance) return c.assumedAcceptance
    if (c.neverRests && pair('accepted', 'rejected')) return 'PO-12'
    // A refusal the reference makes on an assumed rule (revoking an unknown agent, approving yourself).
    if (c.kind === 'agent' && !taken(oracle)) return 'AGENT-8'
    return c.rule ?? KIND_RULE[c.kind]
  }
  if (pair('auth', 'refused')) return c.kind === 'perp' ? 'PERP-8' : 'AUTH-7'
  if (c.kind === 'perp') return 'PERP-8'
  if (c.kind === 'order') return 'PO-12'
  return 'EP-9'
}

/** A cap refusal answered as a 200 REJECTED whose reason states the cap (DECISIONS accepts that form). */
function capAsRejection(t: Observed, o: Observed): boolean {
  if (o.outcome !== 'cap' || t.outcome !== 'rejected') return false
  const cap = /\d+/.exec(String(bodyField(o, 'message') ?? bodyField(o, 'reason') ?? ''))?.[0]
  return cap !== undefined && String(bodyField(t, 'reason') ?? bodyField(t, 'message') ?? '').includes(cap)
}

/** A batch refused whole and one answered 200 with no slot taken are both conformant. */
function sameBatchRefusal(t: Observed, o: Observed): boolean {
  const refusedWhole = (x: Observed) => x.status >= 400 && x.outcome !== 'rate' && x.outcome !== 'unavailable' && x.outcome !== 'server'
  const noneTaken = (x: Observed) => x.status === 200 && (x.items ?? []).every((i) => !taken(i))
  return (refusedWhole(t) && noneTaken(o)) || (refusedWhole(o) && noneTaken(t))
}

const header = (o: Observed, name: string) => o.headers[name.toLowerCase()]
const text = (v: unknown) => (v === undefined ? '' : JSON.stringify(v))

/** The answer's own words: its order status and its error code, when it has them. */
function ownWords(o: Observed): string {
  const parts = ['status', 'code', 'error'].map((k) => bodyField(o, k)).filter((v) => typeof v === 'string')
  return parts.length ? ` (${parts.join(', ')})` : ''
}

function bodyField(o: Observed, k: string): unknown {
  const j = o.json
  return j !== null && typeof j === 'object' ? (j as Record<string, unknown>)[k] : undefined
}

/**
 * Two refusals with the same status and different `code` strings. The reference's code is the
 * catalog's for the case; a stated entry makes another code a failure (ERR-1: a stable
 * identifier), an assumed entry (or one whose status is assumed) a warning (ERR-15).
 */
function compareCodes(target: Observed, oracle: Observed, catalog: readonly ErrorCodeEntry[]): Divergence[] {
  if (target.status !== oracle.status || target.status < 400) return []
  const [t, o] = [bodyField(target, 'code'), bodyField(oracle, 'code')]
  if (typeof o !== 'string' || t === o) return []
  const entry = catalog.find((e) => e.code === o)
  const rule: RuleId = entry && !entry.assumed ? 'ERR-1' : 'ERR-15'
  return [divergence(rule, `${target.status} with code ${text(t)}; the reference's code for it is ${text(o)}`)]
}

/**
 * The stated body fields of two answers of the same class and status (fields.ts): a field of a
 * stated schema departs from the endpoint's stated rule, one on an assumed way from the assumed
 * shapes (EP-9). A 429's body is left out: its numbers follow each side's window, which the
 * rate-limit rules judge; so is a 5xx or 503 (nothing was done) and a read (the read-backs judge those).
 */
function compareFields(target: Observed, oracle: Observed, c: AnswerContext, spec: Contract): Divergence[] {
  const [ts, os] = [target.sent, oracle.sent]
  if (!ts || !os || ts.method === 'GET' || target.status !== oracle.status || target.outcome !== oracle.outcome) return []
  if (target.status === 429 || target.status >= 500) return []
  const d = fieldDifferences(spec, target.status, { json: target.json, sent: ts }, { json: oracle.json, sent: os })[0]
  if (!d) return []
  const rule: RuleId = d.assumed ? 'EP-9' : (c.rule ?? KIND_RULE[c.kind])
  const expected = d.echo ? `it was sent ${text(d.oracle)}, which the reference echoes` : `the reference's is ${text(d.oracle)}`
  return [divergence(rule, `${target.status} answer's ${d.at} is ${text(d.target)}; ${expected}`)]
}

/** Divergences of one answer pair; 'rolled' when the difference comes from the target's window rolling over (not comparable). */
export function compareAnswers(target: Observed, oracle: Observed, c: AnswerContext): Divergence[] | 'rolled' {
  if (target.status === 0) return [invariant(c.rule ?? KIND_RULE[c.kind], 'the target did not answer')]
  const out: Divergence[] = []
  const batch = c.kind === 'batch' || c.kind === 'replace'
  // Both answered a batch 200: the items say what was taken, item by item.
  const itemwise = batch && target.status === 200 && oracle.status === 200 && target.items !== undefined && oracle.items !== undefined
  if (!(batch && sameBatchRefusal(target, oracle)) && !(capAsRejection(target, oracle) && !target.items)) {
    const rule = itemwise ? undefined : outcomeRule(target.outcome, oracle.outcome, c)
    if (rule === 'rolled') return 'rolled'
    // A 5xx is wrong whatever state the reference has.
    const said = target.outcome === 'server' ? invariant : divergence
    if (rule)
      out.push(
        said(
          rule,
          `target: ${target.status} ${target.outcome}${ownWords(target)}; reference: ${oracle.status} ${oracle.outcome}${ownWords(oracle)}`,
        ),
      )
    else if (target.items && oracle.items) {
      const n = Math.max(target.items.length, oracle.items.length)
      for (let i = 0; i < n; i++) {
        const assumed = c.itemAssumptions?.[i]
        const { assumedAcceptance: _whole, ...rest } = c
        const r = outcomeRule(
          target.items[i] ?? 'none',
          oracle.items[i] ?? 'none',
          assumed ? { ...rest, assumedAcceptance: assumed } : rest,
        )
        if (r === 'rolled') return 'rolled'
        if (r) {
          out.push(divergence(r, `item ${i + 1}: target ${target.items[i] ?? 'missing'}; reference ${oracle.items[i] ?? 'missing'}`))
          break
        }
      }
    }
  }
  // PO-9 holds for the target's answer by itself: a REJECTED order says why.
  if (c.catalog && out.length === 0) out.push(...compareCodes(target, oracle, c.catalog))
  if (c.fields && out.length === 0) out.push(...compareFields(target, oracle, c, c.fields))
  if (c.kind === 'order' && target.outcome === 'rejected' && target.status === 200 && typeof bodyField(target, 'reason') !== 'string')
    out.push(invariant('PO-9', 'a REJECTED order result without a reason'))
  if (target.outcome === 'rate' && oracle.outcome === 'rate') {
    if (bodyField(target, 'error') !== 'rate_limit_exceeded')
      out.push(divergence('ERR-7', `429 body error is ${text(bodyField(target, 'error'))}`))
    if (header(target, 'x-ratelimit-remaining') !== '0')
      out.push(divergence('RL-7', `429 with X-RateLimit-Remaining ${header(target, 'x-ratelimit-remaining') ?? 'missing'}`))
    if (header(target, 'retry-after') === undefined) out.push(divergence('RL-8', '429 without Retry-After'))
  }
  if (target.outcome === 'cap' && oracle.outcome === 'cap') {
    const cap = /\d+/.exec(String(bodyField(oracle, 'message') ?? bodyField(oracle, 'reason') ?? ''))?.[0]
    const said = String(bodyField(target, 'message') ?? bodyField(target, 'reason') ?? '')
    if (cap !== undefined && !said.includes(cap)) out.push(divergence('CAP-3', `cap refusal "${said}" does not state the cap ${cap}`))
  }
  if (target.outcome === 'auth' && c.kind !== 'perp' && target.status >= 400) {
    const said = String(bodyField(target, 'message') ?? '')
    if (!AUTH_MESSAGES.some((m) => said.includes(m))) out.push(invariant('SIGFAIL-6', `auth refusal with message "${said}"`))
  }
  if (c.rateLimited && header(oracle, 'x-ratelimit-limit') !== undefined) {
    const missing = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter((h) => header(target, h) === undefined)
    if (missing.length) out.push(invariant('RL-6', `answer ${target.status} without ${missing.join(', ')}`))
    else if (header(target, 'x-ratelimit-limit') !== header(oracle, 'x-ratelimit-limit'))
      out.push(
        divergence('RL-4', `X-RateLimit-Limit ${header(target, 'x-ratelimit-limit')}, reference ${header(oracle, 'x-ratelimit-limit')}`),
      )
    // One side took or charged what the other refused: its counters differ for that reason, already reported.
    else if (!c.windowRolled && out.length === 0 && header(target, 'x-ratelimit-remaining') !== header(oracle, 'x-ratelimit-remaining'))
      out.push(
        divergence(
          'RL-12',
          // The answers first when they differ (a batch refused whole on one side, taken item by item on the other), then the counters.
          `${target.status === oracle.status ? '' : `target ${target.status}${ownWords(target)}, reference ${oracle.status}${ownWords(oracle)}: `}X-RateLimit-Remaining ${header(target, 'x-ratelimit-remaining')}, reference ${header(oracle, 'x-ratelimit-remaining')}`,
        ),
      )
  }
  if (c.routeOmitted && c.routeBaseline && taken(target.outcome) && taken(oracle.outcome)) {
    if (Object.keys(target.headers).every((h) => c.routeBaseline!.has(h)))
      out.push(divergence('ROUTE-2', 'the order without route carries no header that the same order with route lacks'))
  }
  return out
}
