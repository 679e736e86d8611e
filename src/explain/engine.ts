/**
 * `explainRequest`: why a request's signature does not verify for the signer it should have.
 * Reads the body, finds the operation and its signed parts, and for each part searches the
 * likely mistakes (see search.ts) under a budget of candidate digests.
 */
import type { Contract } from '../contract/load.ts'
import { isObject } from '../contract/model.ts'
import { InputError } from '../errors.ts'
import { canonicalize } from '../server/canonical.ts'
import type { DomainFields } from '../signing/eip712.ts'
import {
  checksumAddress,
  highSTwin,
  parseBody,
  recoverDigest,
  type DomainOverrides,
  type Hex,
  type ParsedBodyOk,
} from '../signing/index.ts'
import { HALF_N } from '../signing/signature.ts'
import { DEFAULT_BUDGET, type Cause, type Explanation, type SearchBudget } from './model.ts'
import { resolveOperations, signedParts, type SignedPart } from './operation.ts'
import { optionsSpace } from './options-space.ts'
import { perpSpace } from './perp-space.ts'
import { search, type CauseDraft, type Match, type Space } from './search.ts'

export interface ExplainOptions {
  /** The operation, by id or by path and method; guessed from the body's keys when absent. */
  readonly operationId?: string | undefined
  readonly path?: string | undefined
  readonly method?: string | undefined
  /** Who should have signed (an agent, or the owner of an agent operation); default the body's `wallet`. */
  readonly signer?: string | readonly string[] | undefined
  /** Other addresses to recognise (the wallet, approved agents): a signature by one of them is `other_signer`. */
  readonly known?: readonly string[]
  /** More signers that count as expected (a server's approved agents of the wallet). */
  readonly accepts?: (address: string) => boolean
  /** More addresses to recognise as other signers (a server's known addresses). */
  readonly knows?: (address: string) => boolean
  /** The options domain the service signs, over the contract's (`--domain-name`, `--chain-id` of `oec serve`). */
  readonly domain?: DomainOverrides | undefined
  /** The perp domain the service signs, over the contract's. */
  readonly perpDomain?: DomainOverrides | undefined
  /** The perp Agent source: mainnet `a` (default) or testnet `b`. */
  readonly isMainnet?: boolean
  readonly budget?: Partial<SearchBudget>
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/
const RS = /^0x[0-9a-fA-F]{1,64}$/

function domainOf(contract: Contract<'typedData'>, key: string, o: DomainOverrides | undefined): DomainFields {
  const d = contract.typedData.domains[key]
  if (!d) throw new InputError(`the spec has no ${key} signing domain`)
  const out: DomainFields = { name: d.name, version: d.version, chainId: BigInt(d.chainId), verifyingContract: d.verifyingContract }
  if (o?.name !== undefined) out.name = o.name
  if (o?.version !== undefined) out.version = o.version
  if (o?.chainId !== undefined) out.chainId = BigInt(o.chainId)
  if (o?.verifyingContract !== undefined) out.verifyingContract = o.verifyingContract
  return out
}

function subNumbers(numbers: ReadonlyMap<string, string>, pointer: string): Map<string, string> {
  if (pointer === '') return new Map(numbers)
  const out = new Map<string, string>()
  for (const [k, v] of numbers) if (k.startsWith(`${pointer}/`)) out.set(k.slice(pointer.length), v)
  return out
}

interface PartSignature {
  r: string
  s: string
  /** Recovery ids to try. */
  recids: number[]
  certain: CauseDraft[]
  notes: string[]
}

function readSignature(raw: unknown, where: string): PartSignature {
  let r: string, s: string, v: number
  if (typeof raw === 'string') {
    if (!SIGNATURE.test(raw))
      throw new InputError(
        `${where}signature must be 0x + 130 hex digits (r ‖ s ‖ v), got ${raw.length > 20 ? `${raw.slice(0, 20)}…` : JSON.stringify(raw)}`,
      )
    r = raw.slice(2, 66)
    s = raw.slice(66, 130)
    v = parseInt(raw.slice(130, 132), 16)
  } else if (
    isObject(raw) &&
    typeof raw.r === 'string' &&
    typeof raw.s === 'string' &&
    typeof raw.v === 'number' &&
    RS.test(raw.r) &&
    RS.test(raw.s)
  ) {
    r = raw.r.slice(2).padStart(64, '0')
    s = raw.s.slice(2).padStart(64, '0')
    v = raw.v
  } else if (raw === undefined) throw new InputError(`${where}the request has no signature`)
  else throw new InputError(`${where}signature must be 0x + 130 hex digits, or {r, s, v} for a perp request`)
  const out: PartSignature = { r, s, recids: [], certain: [], notes: [] }
  if (v === 27 || v === 28) out.recids = [v - 27]
  else if (v === 0 || v === 1) {
    out.recids = [v]
    out.notes.push(`v is written as ${v}; the service accepts 0/1, but ${v + 27} is the usual form`)
  } else {
    out.recids = [0, 1]
    out.certain.push({
      id: 'signature_form',
      field: 'signature.v',
      signed: 'v 27 or 28',
      sent: `v ${v}`,
      text: `the signature's v is ${v}; it must be 27 or 28 (or 0/1)`,
    })
  }
  if (BigInt(`0x${s}`) > HALF_N) {
    const low = highSTwin(`0x${r}${s}${(out.recids[0]! + 27).toString(16)}`)
    out.certain.push({
      id: 'signature_form',
      field: 'signature',
      signed: `low-s ${low}`,
      sent: 'the high-s twin (s above n/2)',
      text: `the signature is the high-s (malleable) twin, which the service refuses; send the low-s form ${low} (s' = n - s, v flipped)`,
    })
  }
  return out
}

function finish(certain: readonly CauseDraft[], found: readonly CauseDraft[]): CauseDraft[] {
  // A found cause refines a certain one of the same id and field (the signed text of a number).
  const kept = certain.filter((c) => !found.some((f) => f.id === c.id && f.field === c.field))
  const out: CauseDraft[] = []
  for (const c of [...kept, ...found]) if (!out.some((o) => o.id === c.id && o.field === c.field && o.signed === c.signed)) out.push(c)
  return out
}

interface PartResult {
  verified: boolean
  signer?: string
  causes: CauseDraft[]
  notes: string[]
  tried: number
  explained: boolean
  recoveredAsSent?: string
}

function explainPart(
  contract: Contract<'typedData'>,
  part: SignedPart,
  numbers: ReadonlyMap<string, string>,
  opts: ExplainOptions,
  budget: SearchBudget,
  where: string,
): PartResult {
  const sig = readSignature(part.value[part.signed.signature], where)
  const options = domainOf(contract, 'options', opts.domain)
  const perps = domainOf(contract, 'perps', opts.perpDomain)
  const given = opts.signer === undefined ? [] : typeof opts.signer === 'string' ? [opts.signer] : [...opts.signer]
  for (const a of [...given, ...(opts.known ?? [])])
    if (!ADDRESS.test(a)) throw new InputError(`${JSON.stringify(a)} is not an address (0x + 40 hex digits)`)
  const wallet = typeof part.value.wallet === 'string' && ADDRESS.test(part.value.wallet) ? part.value.wallet : undefined
  const expected = given.length > 0 ? given : wallet ? [wallet] : []
  if (expected.length === 0) {
    throw new InputError(
      part.signed.derived
        ? `${where}a perp request names no signer: give the expected signer with --signer ADDR`
        : `${where}this body has no wallet: name the signer (the owner, for agent operations) with --signer ADDR`,
    )
  }
  const expectedSet = new Set(expected.map((a) => a.toLowerCase()))
  const knownSet = new Set(
    [
      ...(opts.known ?? []),
      ...(wallet ? [wallet] : []),
      ...(typeof part.value.agent === 'string' && ADDRESS.test(part.value.agent) ? [part.value.agent] : []),
    ].map((a) => a.toLowerCase()),
  )
  for (const a of expectedSet) knownSet.delete(a)

  let space: Space<unknown>
  let certain: CauseDraft[]
  if (part.signed.derived) {
    const v = part.value
    const nonceText = numbers.get('/nonce')
    if (nonceText === undefined || !/^(0|[1-9][0-9]*)$/.test(nonceText)) throw new InputError(`${where}nonce must be a JSON integer`)
    const expText = numbers.get('/expiresAfter')
    const vault = typeof v.vaultAddress === 'string' && ADDRESS.test(v.vaultAddress) ? (v.vaultAddress as Hex) : null
    if (!isObject(v.action)) throw new InputError(`${where}a perp request needs an action object`)
    const actionSchema = isObject(part.properties.action) ? part.properties.action : undefined
    const action = canonicalize(contract as never, actionSchema, v.action) as Record<string, unknown>
    ;({ space, certain } = perpSpace({
      contract,
      action,
      numbers,
      nonce: BigInt(nonceText),
      vaultAddress: vault,
      expiresAfter: expText !== undefined ? BigInt(expText) : null,
      isMainnet: opts.isMainnet !== false,
      expected: perps,
      other: options,
    }) as { space: Space<unknown>; certain: CauseDraft[] })
  } else {
    ;({ space, certain } = optionsSpace({
      contract,
      shape: { signed: part.signed, properties: part.properties },
      body: { value: part.value, numbers },
      expected: options,
      other: perps,
    }) as { space: Space<unknown>; certain: CauseDraft[] })
  }
  certain = [...sig.certain, ...certain]

  const classify = (a: string): Match | null =>
    expectedSet.has(a) || opts.accepts?.(a) === true
      ? { kind: 'expected', address: a }
      : knownSet.has(a) || opts.knows?.(a) === true
        ? { kind: 'known', address: a }
        : null
  const recover = (digest: Buffer): string | null => {
    for (const recid of sig.recids) {
      const r = recoverDigest(digest, sig.r, sig.s, recid, true)
      if (r.ok) {
        const a = r.signer.toLowerCase()
        if (sig.recids.length === 1 || classify(a) !== null) return a
      }
    }
    return null
  }
  const result = search(space, recover, classify, budget)
  if (result.found) {
    const found = result.found.alternatives.flatMap((a) => a.causes)
    const address = checksumAddress(result.found.match.address.slice(2))
    if (result.found.match.kind === 'known') {
      const expectedText = expected.map((a) => checksumAddress(a.toLowerCase().slice(2))).join(' or ')
      found.push({
        id: 'other_signer',
        field: 'signature',
        signed: `signed by ${address}`,
        sent: `expected ${expectedText}`,
        text: `the request is signed by ${address}, not by ${expectedText}; sign with ${expectedText}'s key${wallet ? `, or approve ${address} as an agent of ${wallet}` : ''}`,
      })
    }
    const causes = finish(certain, found)
    return { verified: causes.length === 0, signer: address, causes, notes: sig.notes, tried: result.tried, explained: true }
  }
  const asSent = space.digest(space.base)
  const recovered = asSent ? recover(asSent) : null
  const why = result.exhausted
    ? `the search budget ran out after ${result.tried} candidates`
    : `none of ${result.tried} candidate mistakes and pairs of mistakes explains it`
  const unknown: CauseDraft = {
    id: 'unknown',
    signed: recovered ? `recovers to ${checksumAddress(recovered.slice(2))}` : 'does not recover',
    sent: `expected ${expected.join(' or ')}`,
    text: `${why}; the signature as sent ${recovered ? `recovers to ${checksumAddress(recovered.slice(2))}` : 'recovers to no key'}: if that is your key, the message is right and that signer is not authorized (name it with --signer); otherwise compare your typed data with \`oec sign\``,
  }
  return {
    verified: false,
    causes: [...certain, unknown],
    notes: sig.notes,
    tried: result.tried,
    explained: false,
    ...(recovered ? { recoveredAsSent: checksumAddress(recovered.slice(2)) } : {}),
  }
}

/**
 * Explains one request. `body` is the request's text (or a lossless parse of it). Throws
 * `InputError` (one line) when the body is not JSON, fits no signed operation or carries no
 * signature.
 */
export function explainRequest(contract: Contract<'typedData'>, body: string | ParsedBodyOk, opts: ExplainOptions = {}): Explanation {
  const started = performance.now()
  let parsed: ParsedBodyOk
  if (typeof body === 'string') {
    const p = parseBody(body)
    if (!p.ok)
      throw new InputError(
        p.code === 'invalid_json'
          ? `the request body is not JSON (${p.message.replace(/^invalid JSON: /, '')})`
          : `the request body is not usable: ${p.message}`,
      )
    parsed = p
  } else parsed = body
  const budget: SearchBudget = { ...DEFAULT_BUDGET, ...opts.budget }
  const ops = resolveOperations(contract, parsed.value, opts)
  let first: Explanation | undefined
  for (const op of ops) {
    const parts = signedParts(contract.doc, op.requestSchema, parsed.value)
    if (parts.length === 0) throw new InputError(`the body carries nothing ${op.operationId} signs`)
    const causes: Cause[] = []
    const notes: string[] = []
    let tried = 0
    let signer: string | undefined
    let recoveredAsSent: string | undefined
    let explained = true
    for (const part of parts) {
      const item = parts.length > 1 || part.pointer !== '' ? part.pointer : undefined
      const where = item !== undefined ? `${item}: ` : ''
      const spent = performance.now() - started
      const r = explainPart(
        contract,
        part,
        subNumbers(parsed.numbers, part.pointer),
        opts,
        { maxCandidates: Math.max(1, budget.maxCandidates - tried), maxMs: Math.max(1, budget.maxMs - spent) },
        where,
      )
      tried += r.tried
      explained &&= r.explained
      signer ??= r.signer
      recoveredAsSent ??= r.recoveredAsSent
      for (const c of r.causes) causes.push({ ...c, ...(item !== undefined ? { item: itemIndex(item) } : {}) })
      for (const n of r.notes) if (!notes.includes(n)) notes.push(n)
    }
    const e: Explanation = {
      verified: causes.length === 0,
      ...(signer ? { signer } : {}),
      ...(recoveredAsSent ? { recoveredAsSent } : {}),
      causes,
      notes,
      operationId: op.operationId,
      tried,
      ms: performance.now() - started,
    }
    // Shapes that coincide (ApproveAgent, RevokeAgent): the operation whose message explains the signature wins.
    if (e.verified || ops.length === 1 || explained) return e
    first ??= e
  }
  return first!
}

function itemIndex(pointer: string): number {
  const m = /^\/[^/]+\/(\d+)/.exec(pointer)
  return m ? Number(m[1]) : 0
}
