/**
 * `oec check client`: replays the vector cases against an implementer's signer/verifier over
 * the JSON-lines signing protocol and judges every answer. One result per vector case
 * (`<family>/<tcId>`), naming the case's rules. Accepting a signature the vectors refuse is
 * always a failure; a departure from an assumed choice (refusing v = 0/1, refusing to sign an
 * out-of-grammar decimal) is a warning.
 */
import type { CaseResult, RunSummary } from '../../report/model.ts'
import { stringifyExact } from '../../vectors/exact-json.ts'
import { contractFor, type Contract } from '../../contract/index.ts'
import { explainNote } from '../../explain/note.ts'
import { casesOf, loadVectorCases, type LoadedCase } from '../../vectors/load.ts'
import type { VectorCase, VectorFile } from '../../vectors/model.ts'
import { DEFAULT_VECTORS_DIR } from '../../vectors/paths.ts'
import { applyExpectedFailures, matchesEntry, type ExpectedFailures } from '../expected-failures.ts'
import { signProblems, verifyProblems } from './compare.ts'
import { preflightTestee } from './preflight.ts'
import { runRequests, type Answer, type PendingRequest } from './testee.ts'

export interface ClientRunOptions {
  readonly command: readonly string[]
  readonly timeoutMs?: number | undefined
  /** Case id prefixes to run (all when empty). */
  readonly only?: readonly string[]
  /** Case id prefixes to leave out (a partial client: `perp-agent` for one that signs options only). */
  readonly skip?: readonly string[]
  readonly vectorsDir?: string | undefined
  /** Replay the vectors generated from this contract (in memory) instead of a vector directory. */
  readonly spec?: Contract | string | undefined
  readonly expectedFailures?: ExpectedFailures | undefined
  readonly window?: number | undefined
  /** Extra time for the testee's first answer after a start (ms). */
  readonly startupMs?: number | undefined
  readonly onResult?: (r: CaseResult) => void
  /** Check that the testee starts and answers a first request before the run (PreflightError otherwise). */
  readonly preflight?: boolean
}

export interface ClientRun {
  readonly summary: RunSummary
  /** Results before expected failures were applied (what `--fix` writes from). */
  readonly raw: CaseResult[]
  readonly stale: string[]
}

const INT_KEYS = new Set(['nonce', 'expiresAfter'])

/** JSON text of a protocol request; decimal-string nonces become JSON integers, digit for digit. */
export function requestLine(req: Record<string, unknown>): string {
  const message = req.message as Record<string, unknown> | undefined
  const marked = message
    ? {
        ...req,
        message: Object.fromEntries(
          Object.entries(message).map(([k, v]) => [
            k,
            INT_KEYS.has(k) && typeof v === 'string' && /^[0-9]+$/.test(v) ? `\u0000int:${v}` : v,
          ]),
        ),
      }
    : req
  return stringifyExact(marked).replace(/"\\u0000int:([0-9]+)"/g, '$1')
}

/** The cases a client can be asked about: those with a sign or a verify request. */
export function clientCases(dir: string = DEFAULT_VECTORS_DIR, only: readonly string[] = [], skip: readonly string[] = []): LoadedCase[] {
  return askable(loadVectorCases(dir), only, skip)
}

function askable(cases: LoadedCase[], only: readonly string[], skip: readonly string[]): LoadedCase[] {
  return cases.filter(
    (c) =>
      (c.case.sign || c.case.verify) &&
      (only.length === 0 || only.some((p) => matchesEntry(c.id, p))) &&
      !skip.some((p) => matchesEntry(c.id, p)),
  )
}

/** The cases of a run: from the vector directory, or generated from `spec` when one is given. */
export async function clientCasesFor(opts: Pick<ClientRunOptions, 'vectorsDir' | 'spec' | 'only' | 'skip'>): Promise<LoadedCase[]> {
  if (opts.spec === undefined) return clientCases(opts.vectorsDir, opts.only, opts.skip)
  // Loaded only for a spec of the user's: the generators cost every other run (and `oec check server`) nothing.
  const { generateVectors } = await import('../../vectors/generate.ts')
  const files = [...(await generateVectors(opts.spec)).values()].map((text) => JSON.parse(text) as VectorFile)
  return askable(casesOf(files), opts.only ?? [], opts.skip ?? [])
}

function requestsFor(c: LoadedCase): PendingRequest[] {
  const out: PendingRequest[] = []
  const v = c.case
  if (v.sign)
    out.push({
      id: `${c.id}#sign`,
      line: requestLine({
        id: `${c.id}#sign`,
        op: 'sign',
        kind: v.sign.kind,
        privateKey: v.privateKey,
        ...(v.sign.domain ? { domain: v.sign.domain } : {}),
        message: v.sign.message,
      }),
    })
  if (v.verify)
    out.push({
      id: `${c.id}#verify`,
      line: requestLine({
        id: `${c.id}#verify`,
        op: 'verify',
        kind: v.verify.kind,
        ...(v.verify.domain ? { domain: v.verify.domain } : {}),
        message: v.verify.message,
        signature: v.verify.signature,
      }),
    })
  return out
}

/** A request line as shown in a report: the private key never leaves the process. */
function shown(line: string): string {
  return line.replace(/"privateKey":"0x[0-9a-fA-F]*"/, '"privateKey":"<redacted>"')
}

function judge(
  c: LoadedCase,
  reqs: PendingRequest[],
  answers: Map<string, Answer>,
  durationMs: number,
  note?: (v: VectorCase, answer: Record<string, unknown>) => string | null,
): CaseResult {
  const v = c.case
  const problems: string[] = []
  let tooLenient = false
  const responses: string[] = []
  let why: string | null = null
  for (const r of reqs) {
    const a = answers.get(r.id) ?? { ok: false as const, problem: 'no answer' }
    const op = r.id.endsWith('#sign') ? 'sign' : 'verify'
    if (!a.ok) {
      problems.push(`${op}: ${a.problem}`)
      continue
    }
    responses.push(a.raw.length > 600 ? a.raw.slice(0, 597) + '...' : a.raw)
    if (op === 'sign') {
      const p = signProblems(v, a.value)
      // Why the testee's signature differs: the digest and signature lines only say that it does.
      if (p.length > 0 && note) why = note(v, a.value)
      problems.push(...p)
    } else {
      const j = verifyProblems(v, a.value)
      problems.push(...j.problems)
      tooLenient ||= j.tooLenient
    }
  }
  const base: Omit<CaseResult, 'outcome'> = { id: c.id, title: v.comment, rules: v.rules, level: v.level, durationMs }
  if (problems.length === 0) return { ...base, outcome: 'pass' }
  const expected = [
    `digest ${v.digest}`,
    `signature ${v.signature}`,
    ...(v.request && v.sign && v.kind !== 'Agent' ? [`body ${v.request.body}`] : []),
    ...(v.verify ? [`verify → ${v.verify.accept ? `signer ${v.signer}` : 'refused'}`] : []),
  ]
  return {
    ...base,
    // Accepting what must be refused is a failure whatever the level.
    outcome: v.level === 'assumed' && !tooLenient ? 'warn' : 'fail',
    message: problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (+${problems.length - 3} more)` : '') + (why ? `; ${why}` : ''),
    details: {
      request: reqs.map((r) => shown(r.line)).join('\n'),
      response: responses.join('\n') || '(none)',
      expected: expected.join('\n'),
      flags: v.flags.join(', '),
    },
  }
}

/** Diagnoses of a valid case's wrong signature, default domain only, for the first few failures (each costs a search). */
function explainer(spec: ClientRunOptions['spec']): (v: VectorCase, answer: Record<string, unknown>) => string | null {
  let left = 20
  let contract: Contract<'typedData'> | undefined
  return (v, answer) => {
    if (left <= 0 || v.kind === 'Agent' || v.result !== 'valid' || v.sign?.domain !== undefined || typeof answer.body !== 'string')
      return null
    left--
    contract ??= contractFor(spec, ['typedData'], 'oec check client')
    return explainNote(contract, answer.body, { signer: v.signer })
  }
}

export async function runClientCheck(opts: ClientRunOptions): Promise<ClientRun> {
  const startedAt = new Date()
  const t0 = Date.now()
  const cases = await clientCasesFor(opts)
  const perCase = cases.map((c) => ({ c, reqs: requestsFor(c) }))
  const testee = {
    command: opts.command,
    timeoutMs: opts.timeoutMs ?? 5000,
    startupMs: opts.startupMs,
  }
  const first = perCase[0]?.reqs[0]
  if (opts.preflight && first) await preflightTestee(first, testee)
  const byId = new Map<string, { c: LoadedCase; reqs: PendingRequest[]; left: number; first: number }>()
  for (const p of perCase) {
    const entry = { ...p, left: p.reqs.length, first: 0 }
    for (const r of p.reqs) byId.set(r.id, entry)
  }
  const results: CaseResult[] = []
  const answers = new Map<string, Answer>()
  const done = new Set<string>()
  const note = explainer(opts.spec)
  const emit = (entry: { c: LoadedCase; reqs: PendingRequest[]; first: number }) => {
    const r = judge(entry.c, entry.reqs, answers, Math.max(0, Date.now() - (entry.first || t0)), note)
    done.add(entry.c.id)
    results.push(r)
    // Whether an entry is stale depends on every case it covers: with a list, results are reported at the end.
    if (!opts.expectedFailures) opts.onResult?.(r)
  }
  await runRequests(
    perCase.flatMap((p) => p.reqs),
    { ...testee, window: opts.window || undefined },
    (id, a) => {
      answers.set(id, a)
      const entry = byId.get(id)
      if (!entry) return
      entry.first ||= Date.now()
      if (--entry.left === 0) emit(entry)
    },
  )
  // Report in vector order, whatever order answers came in.
  const order = new Map(cases.map((c, i) => [c.id, i]))
  results.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
  const applied = opts.expectedFailures ? applyExpectedFailures(results, opts.expectedFailures) : { results, stale: [] }
  if (opts.expectedFailures) for (const r of applied.results) opts.onResult?.(r)
  return {
    summary: {
      suite: 'oec check client',
      target: opts.command.join(' '),
      results: applied.results,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - t0,
    },
    raw: results,
    stale: applied.stale,
  }
}
