/**
 * Vector replay: every server-relevant case of vectors/ is sent to the target with fresh keys.
 * A case's own keys are public, so a replay as-is would collide with itself across runs; the
 * runner re-signs each case with new wallets (its nonces are then fresh for them), keeping the
 * case's mutation: the typed data it signed (domain, types, message), the body text it sent,
 * and the way its sent signature differs from the correct one (v form, high-s, compact,
 * truncation, characters). Set-up steps (agent approvals) are replayed the same way, and a
 * perp key gets state first (an options order), as DECISIONS asks.
 */
import { perpActionHash, type Hex } from '../../../../signing/index.ts'
import { DEFAULT_INSTRUMENTS } from '../../../../server/index.ts'
import { compact, signTyped } from '../../../../vectors/build.ts'
import { highSTwin, SECP256K1_N, splitSignature } from '../../../../signing/signature.ts'
// The loader and the model only: the vectors' index also pulls in every family generator.
import { loadVectorFiles, type LoadedFile } from '../../../../vectors/load.ts'
import type { ServerOutcome, TypedDataJson, VectorCase } from '../../../../vectors/model.ts'
import { brief } from '../../context.ts'
import type { HttpExchange } from '../../../target/http.ts'
import { agentBody, placeOrder } from '../../builders.ts'
import { codeOf, jsonOf, statusOf, succeeded } from '../../answers.ts'
import { envelopeAuthCode, expectSuccess } from '../../expectations.ts'
import type { Check, CheckContext, CheckFamily } from '../../types.ts'
import type { Wallet } from '../../../target/wallets.ts'
import { call } from '../../operations.ts'
import { wrongChainId } from '../../../target/probes.ts'

const ADDRESS_RE = /0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g

/** Old address (lower case) → new wallet, keeping the letter case style of each occurrence. */
class AddressMap {
  private readonly map = new Map<string, Wallet>()
  set(old: string, w: Wallet): void {
    this.map.set(old.toLowerCase(), w)
  }
  get(old: string): Wallet | undefined {
    return this.map.get(old.toLowerCase())
  }
  /** The replacement for one occurrence, in the same case style (lower, upper or checksummed). */
  swap(old: string): string {
    const w = this.get(old)
    if (!w) return old
    const hex = old.slice(2)
    if (hex === hex.toLowerCase()) return w.address.toLowerCase()
    if (hex === hex.toUpperCase()) return `0x${w.address.slice(2).toUpperCase()}`
    return w.address
  }
  text(s: string): string {
    return s.replace(ADDRESS_RE, (a) => this.swap(a))
  }
  deep<T>(v: T): T {
    if (typeof v === 'string') return (/^0x[0-9a-fA-F]{40}$/.test(v) ? this.swap(v) : v) as T
    if (Array.isArray(v)) return v.map((x) => this.deep(x)) as T
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.deep(x)])) as T
    return v
  }
}

/**
 * The vectors trade the reference server's shipped instruments; a target lists its own. Each
 * shipped symbol maps to a target symbol (a deliberately malformed symbol stays as it is).
 */
class SymbolMap {
  private readonly map = new Map<string, string>()
  constructor(ctx: CheckContext) {
    const listed = ctx.target.symbols
    DEFAULT_INSTRUMENTS.forEach((s, i) => {
      if (!listed.includes(s) && listed.length) this.map.set(s, listed[i % listed.length]!)
    })
  }
  text(s: string): string {
    let out = s
    for (const [from, to] of this.map) out = out.split(JSON.stringify(from)).join(JSON.stringify(to))
    return out
  }
  deep<T>(v: T): T {
    if (typeof v === 'string') return (this.map.get(v) ?? v) as T
    if (Array.isArray(v)) return v.map((x) => this.deep(x)) as T
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.deep(x)])) as T
    return v
  }
}

/**
 * The spec's default domains (what the vectors sign under) swapped for the target's; deliberate
 * mismatches kept, and kept wrong: a mismatch that lands on one of the target's own domains (a
 * "chainId 1" case against a server on chain 1) is moved to a chain the target does not use.
 */
function targetDomain(ctx: CheckContext, d: Record<string, string | number>): Record<string, string | number> {
  const options = ctx.spec.typedData.domains.options
  const perps = ctx.spec.typedData.domains.perps
  const out = { ...d }
  if (options && out.name === options.name) out.name = ctx.target.domainName
  if (options && typeof out.chainId === 'number' && out.chainId === options.chainId && d.name === options.name)
    out.chainId = ctx.target.chainId
  if (perps && typeof out.chainId === 'number' && out.chainId === perps.chainId && d.name === perps.name)
    out.chainId = ctx.target.perpChainId
  const own = [
    options && { ...options, name: ctx.target.domainName, chainId: ctx.target.chainId },
    perps && { ...perps, chainId: ctx.target.perpChainId },
  ]
  const intended = [options, perps].some((x) => x && sameDomain(x, d))
  if (!intended && own.some((x) => x && sameDomain(x, out))) out.chainId = wrongChainId(ctx.target)
  return out
}

function sameDomain(a: object, b: object): boolean {
  const get = (o: object, k: string) => (o as Record<string, unknown>)[k]
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  const norm = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-f]*$/i.test(v) ? v.toLowerCase() : String(v))
  return [...keys].every((k) => norm(get(a, k)) === norm(get(b, k)))
}

/** The sent signature as a function of the correct one, applied to the new correct signature. */
function transformSignature(sig0: Hex, sent: string, sig1: Hex): string | undefined {
  if (sent === sig0) return sig1
  if (sent === highSTwin(sig0)) return highSTwin(sig1)
  if (sent === compact(sig0)) return compact(sig1)
  if (sent === sig0.slice(2)) return sig1.slice(2)
  if (sent.length === sig0.length && sent.slice(0, 130) === sig0.slice(0, 130)) {
    const delta = parseInt(sent.slice(130), 16) - parseInt(sig0.slice(130), 16)
    if (Number.isNaN(delta)) return sig1.slice(0, 130) + sent.slice(130)
    return sig1.slice(0, 130) + (parseInt(sig1.slice(130), 16) + delta).toString(16).padStart(2, '0')
  }
  if (sig0.startsWith(sent)) return sig1.slice(0, sent.length)
  if (sent.startsWith(sig0)) return sig1 + sent.slice(sig0.length)
  if (sent.length === sig0.length && sent.toLowerCase() === sig0.toLowerCase()) {
    // Letter case changed (upper-case hex): the same case pattern on the new signature.
    let out = ''
    for (let i = 0; i < sent.length; i++) out += sent[i] !== sig0[i] || /[A-F]/.test(sent[i]!) ? sig1[i]!.toUpperCase() : sig1[i]!
    return out.replace(/^0X/, sent.startsWith('0X') ? '0X' : '0x')
  }
  if (sent.length === sig0.length) {
    // Characters changed in place (non-hex, case): the same positions changed in the new one.
    let out = ''
    for (let i = 0; i < sent.length; i++) out += sent[i] === sig0[i] ? sig1[i] : sent[i]
    return out
  }
  return undefined
}

function transformPerpSignature(
  sig0: Hex,
  sent: { r?: unknown; s?: unknown; v?: unknown },
  sig1: Hex,
): { r: string; s: string; v: unknown } | undefined {
  const a = splitSignature(sig0)
  const b = splitSignature(sig1)
  if (sent.r === a.r && sent.s === a.s) {
    const v = typeof sent.v === 'number' ? b.v + (sent.v - a.v) : sent.v
    return { r: b.r, s: b.s, v }
  }
  if (sent.r === a.r && typeof sent.s === 'string' && BigInt(sent.s) === SECP256K1_N - BigInt(a.s)) {
    const h = splitSignature(highSTwin(sig1))
    return { r: h.r, s: h.s, v: h.v }
  }
  return undefined
}

function outcomeOf(ctx: CheckContext, e: HttpExchange): string {
  const s = statusOf(e)
  const j = jsonOf(e)
  if (s >= 200 && s < 300) {
    // The perp envelope refuses with the stated auth messages: the same outcome as their codes.
    if (j?.status === 'err') return envelopeAuthCode(ctx, e) ?? 'rejected'
    if (j?.status === 'REJECTED') return 'rejected'
    const statuses = (j?.response as { data?: { statuses?: unknown[] } } | undefined)?.data?.statuses
    if (
      j?.status === 'ok' &&
      Array.isArray(statuses) &&
      statuses.length > 0 &&
      statuses.every((x) => x && typeof x === 'object' && 'error' in x)
    )
      return 'rejected'
    // A 200 whose body does not say the operation took effect is no acceptance.
    return succeeded(e) ? 'accepted' : `HTTP ${s} without a success status`
  }
  return codeOf(e) ?? `HTTP ${s}`
}

interface Replayed {
  readonly body: string
  readonly signer: Wallet
  readonly setup: { body: string }[]
}

/** Re-signs a case with fresh keys; undefined when its mutation cannot be carried over. */
async function replay(ctx: CheckContext, c: VectorCase): Promise<Replayed | string> {
  if (!c.request) return 'no HTTP request in this case'
  const map = new AddressMap()
  const symbols = new SymbolMap(ctx)
  const signer = ctx.wallet()
  map.set(c.signer, signer)
  const keys = new Map<string, Wallet>([[c.privateKey.toLowerCase(), signer]])
  for (const step of c.setup ?? []) {
    const k = step.privateKey.toLowerCase()
    if (!keys.has(k)) keys.set(k, ctx.wallet())
    map.set(step.wallet, keys.get(k)!)
  }
  if (c.wallet && !map.get(c.wallet)) map.set(c.wallet, ctx.wallet())
  const setup: { body: string }[] = []
  for (const step of c.setup ?? []) {
    const owner = keys.get(step.privateKey.toLowerCase())!
    const agent = map.get(step.agent) ?? ctx.wallet()
    if (!map.get(step.agent)) map.set(step.agent, agent)
    setup.push({ body: (await agentBody(ctx, 'ApproveAgent', owner, agent.address, { nonce: BigInt(step.nonce) })).text })
  }
  const td: TypedDataJson = {
    ...c.typedData,
    domain: targetDomain(ctx, c.typedData.domain),
    message: symbols.deep(map.deep(c.typedData.message)),
  }
  if (c.perp) {
    // connectionId hashes the vault address: recompute it when the vault was mapped.
    const input = {
      action: c.perp.action,
      nonce: BigInt(c.perp.nonce),
      vaultAddress: (c.perp.vaultAddress ?? null) as Hex | null,
      expiresAfter: c.perp.expiresAfter ? BigInt(c.perp.expiresAfter) : null,
    }
    if (input.vaultAddress && perpActionHash(input) === c.perp.connectionId) {
      td.message = { ...td.message, connectionId: perpActionHash({ ...input, vaultAddress: map.swap(input.vaultAddress) as Hex }) }
    }
  }
  const { signature: sig1 } = await signTyped(td, signer.privateKey)
  let body = symbols.text(map.text(c.request.body))
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(c.request.body) as Record<string, unknown>
  } catch {
    return 'the case body is not JSON'
  }
  const sent = parsed.signature
  if (typeof sent === 'string') {
    const next = transformSignature(c.signature, sent, sig1)
    if (next === undefined) return 'its signature is not derived from the correct one'
    body = body.split(JSON.stringify(sent)).join(JSON.stringify(next))
  } else if (sent && typeof sent === 'object') {
    const next = transformPerpSignature(c.signature, sent as Record<string, unknown>, sig1)
    if (!next) return 'its perp signature is not derived from the correct one'
    const s = sent as Record<string, unknown>
    body = body.replace(String(s.r), next.r).replace(String(s.s), next.s)
    if (next.v !== s.v) body = body.replace(`"v":${JSON.stringify(s.v)}`, `"v":${JSON.stringify(next.v)}`)
  }
  return { body, signer, setup }
}

function familyCheck(f: LoadedFile): Check<`vectors.${string}`> {
  const cases = f.file.testGroups.flatMap((g) => g.tests).filter((t) => t.request)
  const rules = [...new Set(cases.flatMap((t) => t.rules))].sort()
  return {
    id: `vectors.${f.file.family}`,
    title: `replay of the ${f.file.family} vectors (${cases.length} cases), re-signed with fresh keys`,
    rules,
    level: cases.some((t) => t.level === 'stated') ? 'stated' : 'assumed',
    // The vectors' orders buy and sell at 100 in the first instrument: they trade with what rests there.
    shares: ['book'],
    async run(ctx) {
      for (const c of cases) {
        await ctx.case(
          String(c.tcId),
          c.comment,
          async (cc) => {
            const r = await replay(cc, c)
            if (typeof r === 'string') return cc.skip(`cannot replay: ${r}`)
            for (const s of r.setup) expectSuccess(cc, await call(cc, 'approveAgent', s.body), 'set-up approval')
            if (c.kind === 'Agent' && !r.setup.length)
              expectSuccess(cc, (await placeOrder(cc, { wallet: r.signer })).e, 'options order that gives the perp key state')
            const e = await cc.send(c.request!.method, c.request!.path, r.body)
            const got = outcomeOf(cc, e)
            const expected = (Array.isArray(c.server) ? c.server : [c.server]) as ServerOutcome[]
            if ((expected as string[]).includes(got)) return
            const want = expected.join(' or ')
            if (statusOf(e) >= 500)
              cc.fail(`expected ${want}, got a server error ${brief(e)}`, { exchange: e, expected: want, level: 'stated' })
            const refusal = (x: string) => x !== 'accepted' && x !== 'rejected'
            // Authenticated, then REJECTED on business grounds (an fok with nothing to fill): the target's book decides.
            if (got === 'rejected' && expected.includes('accepted')) {
              cc.fail(`expected ${want}; authenticated but REJECTED on business grounds (${brief(e)})`, {
                exchange: e,
                expected: want,
                level: 'assumed',
                rules: ['PO-9'],
              })
            }
            // A different refusal code where a refusal is an expected outcome only departs from assumed naming.
            if (refusal(got) && expected.some(refusal))
              cc.fail(`expected ${want}, got ${brief(e)}`, { exchange: e, expected: want, level: 'assumed' })
            cc.fail(`expected ${want}, got ${got} (${brief(e)})`, { exchange: e, expected: want })
          },
          { rules: c.rules, level: c.level },
        )
      }
    },
  }
}

/**
 * One check per vector family that has HTTP cases (the Mail anchor has none). `files`: the
 * vectors of the contract under test when it is not the shipped one (generated by the caller);
 * default the shipped vector files.
 */
export function vectorChecks(files?: readonly LoadedFile[]): Check<`vectors.${string}`>[] {
  let loaded: readonly LoadedFile[]
  try {
    loaded = files ?? loadVectorFiles()
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err)
    return [
      {
        id: 'vectors.load',
        title: 'the vector files load',
        rules: ['AUTH-1'],
        level: 'stated',
        run: async (ctx) => ctx.fail(`cannot load vectors: ${why}`),
      },
    ]
  }
  return loaded.filter((f) => f.file.testGroups.some((g) => g.tests.some((t) => t.request))).map(familyCheck)
}

export const vectorFamilies: CheckFamily<'vectors'> = { family: 'vectors', expand: ({ vectorFiles }) => vectorChecks(vectorFiles) }
