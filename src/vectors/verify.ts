/**
 * `oec vectors verify`: a release check that the checked-in vectors and the code agree. Every
 * file must validate against the schema, regenerate to the same bytes, and every expected value
 * must re-derive with the toolkit's own signing code (digest, signature, signer, body, verdict),
 * independently of the generator's path (ox) where both exist.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  addressOf,
  exactDomain,
  perpActionHash,
  splitSignature,
  signingFor,
  type Signing,
  type DomainOverrides,
  type OptionsKind,
  type OptionsMessage,
} from '../signing/index.ts'
import { contractFor, type Contract } from '../contract/index.ts'
import { loadRules } from '../contract/rules.ts'
import { digestTyped, recoverAddressLoose } from './build.ts'
import { parseExact, stringifyExact } from './exact-json.ts'
import { MAIL_PUBLISHED } from './families/mail.ts'
import { generateVectors } from './generate.ts'
import { schemaErrors, vectorFileNames } from './load.ts'
import type { Hex, ProtocolSign, VectorCase, VectorFile } from './model.ts'
import { DEFAULT_VECTORS_DIR } from './paths.ts'

export interface VerifyFinding {
  readonly file: string
  readonly tcId?: number
  readonly message: string
}

export interface VerifyReport {
  readonly files: number
  readonly cases: number
  readonly findings: VerifyFinding[]
}

const INT_KEYS = new Set(['nonce', 'expiresAfter'])

/** A protocol message with decimal-string integers turned into bigints (what the signer takes). */
export function protocolMessageValues(m: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(m)) out[k] = INT_KEYS.has(k) && typeof v === 'string' && /^[0-9]+$/.test(v) ? BigInt(v) : v
  return out
}

function domainOverrides(d: ProtocolSign['domain']): DomainOverrides | undefined {
  if (!d) return undefined
  const o: DomainOverrides = {}
  for (const [k, v] of Object.entries(d)) (o as Record<string, unknown>)[k] = v
  return exactDomain(o)
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase()

async function checkCase(signing: Signing, c: VectorCase, ruleIds: Set<string>, notes: VectorFile['notes']): Promise<string[]> {
  const out: string[] = []
  for (const r of c.rules) if (!ruleIds.has(r)) out.push(`rule ${r} is not in spec/rules.yaml`)
  for (const f of c.flags) if (!notes[f]) out.push(`flag ${f} has no note`)
  if (!same(addressOf(c.privateKey), c.signer)) out.push(`signer ${c.signer} is not the address of the private key`)
  const digest = digestTyped(c.typedData)
  if (digest !== c.digest) out.push(`digest ${c.digest} differs from the typed data's ${digest}`)
  const recovered = await recoverAddressLoose(c.digest, c.signature)
  if (!same(recovered, c.signer)) out.push(`signature recovers to ${recovered}, not the signer ${c.signer}`)
  if (c.flags.includes('PublishedReference') && (c.digest !== MAIL_PUBLISHED.digest || c.signature !== MAIL_PUBLISHED.signature)) {
    out.push('the published EIP-712 Mail digest/signature do not match')
  }
  if (c.sign && c.sign.kind !== 'Agent') {
    const kind = c.sign.kind as OptionsKind
    const msg = protocolMessageValues(c.sign.message) as OptionsMessage
    const dom = domainOverrides(c.sign.domain)
    const ours = signing.digestOf(kind, msg, dom)
    if (ours !== c.digest) out.push(`src/signing digest ${ours} differs from ${c.digest}`)
    const req = await signing.buildRequest(kind, msg, c.privateKey, dom)
    if (req.signature !== c.signature) out.push(`src/signing signature ${req.signature} differs from ${c.signature}`)
    if (req.body !== c.request?.body) out.push(`src/signing body ${req.body} differs from ${c.request?.body}`)
  }
  if (c.sign && c.sign.kind === 'Agent') {
    const m = protocolMessageValues(c.sign.message)
    const input = {
      action: m.action as Record<string, unknown>,
      nonce: m.nonce as bigint,
      vaultAddress: (m.vaultAddress as Hex | undefined) ?? null,
      expiresAfter: (m.expiresAfter as bigint | undefined) ?? null,
      isMainnet: m.isMainnet as boolean,
    }
    const s = await signing.signPerpAction(input, c.privateKey, domainOverrides(c.sign.domain))
    if (s.digest !== c.digest || s.signature !== c.signature)
      out.push(`src/signing perp digest/signature ${s.digest}/${s.signature} differ`)
    if (c.perp && perpActionHash(input) !== c.perp.connectionId)
      out.push(`connectionId ${c.perp.connectionId} differs from src/signing's ${perpActionHash(input)}`)
  }
  if (c.verify) {
    const v = c.verify
    const m = protocolMessageValues(v.message)
    const result =
      v.kind === 'Agent'
        ? signing.recoverPerpSigner(
            {
              action: m.action as Record<string, unknown>,
              nonce: m.nonce as bigint,
              vaultAddress: (m.vaultAddress as Hex | undefined) ?? null,
              expiresAfter: (m.expiresAfter as bigint | undefined) ?? null,
              isMainnet: m.isMainnet as boolean,
            },
            splitSignature(v.signature),
            {},
          )
        : signing.verifyOptions(v.kind as OptionsKind, m as OptionsMessage, v.signature)
    const accepted = result.ok && same(result.signer, c.signer)
    if (accepted !== v.accept)
      out.push(
        `verify: src/signing ${accepted ? 'accepts' : `refuses (${result.ok ? `signer ${result.signer}` : result.message})`}, the vector says accept=${v.accept}`,
      )
    if (v.digest && result.digest && result.digest !== v.digest)
      out.push(`verify digest ${v.digest} differs from src/signing's ${result.digest}`)
  }
  return out
}

/** First difference between two serialized vector files, as one line. */
function firstDifference(expected: string, actual: string): { tcId?: number; message: string } {
  try {
    const a = parseExact(actual) as VectorFile
    const e = parseExact(expected) as VectorFile
    const at = new Map(a.testGroups.flatMap((g) => g.tests).map((t) => [t.tcId, t]))
    for (const t of e.testGroups.flatMap((g) => g.tests)) {
      const mine = at.get(t.tcId)
      if (!mine) return { tcId: t.tcId, message: 'case missing from the file (regenerate)' }
      for (const k of new Set([...Object.keys(t), ...Object.keys(mine)])) {
        const x = stringifyExact((t as unknown as Record<string, unknown>)[k])
        const y = stringifyExact((mine as unknown as Record<string, unknown>)[k])
        if (x !== y) return { tcId: t.tcId, message: `${k} differs from what the code generates: file ${clip(y)}, code ${clip(x)}` }
      }
    }
  } catch {
    /* fall through */
  }
  return { message: 'the file differs from what the code generates (header, notes or layout); run oec vectors generate' }
}

function clip(s: string | undefined): string {
  if (s === undefined) return '(absent)'
  return s.length > 140 ? s.slice(0, 137) + '...' : s
}

/** `regenerate: false` skips the byte comparison with a fresh generation (the per-case re-derivation still runs). */
export async function verifyVectors(
  dir: string = DEFAULT_VECTORS_DIR,
  specArg?: Contract | string,
  opts: { regenerate?: boolean } = {},
): Promise<VerifyReport> {
  const spec = contractFor(specArg, ['catalog', 'typedData', 'rateLimits'], 'oec vectors verify')
  const findings: VerifyFinding[] = []
  const ruleIds = new Set((spec.rules ?? loadRules()).filter((r) => !r.retired).map((r) => r.id))
  const generated = opts.regenerate === false ? undefined : await generateVectors(spec)
  const names = vectorFileNames(dir)
  let cases = 0
  for (const name of generated?.keys() ?? [])
    if (!names.includes(name)) findings.push({ file: name, message: 'missing: the generator writes this file (run oec vectors generate)' })
  for (const name of names) {
    const text = readFileSync(join(dir, name), 'utf8')
    let file: VectorFile
    try {
      file = parseExact(text) as VectorFile
    } catch {
      findings.push({ file: name, message: 'not JSON' })
      continue
    }
    const errs = schemaErrors(file, dir)
    if (errs.length) {
      for (const e of errs.slice(0, 5)) findings.push({ file: name, message: `schema: ${e}` })
      continue
    }
    const expected = generated?.get(name)
    if (!generated) {
      /* byte comparison skipped */
    } else if (expected === undefined) findings.push({ file: name, message: 'not produced by the generator (stale file?)' })
    else if (expected !== text) findings.push({ file: name, ...firstDifference(expected, text) })
    const tests = file.testGroups.flatMap((g) => g.tests)
    cases += tests.length
    if (file.numberOfTests !== tests.length)
      findings.push({ file: name, message: `numberOfTests ${file.numberOfTests}, but ${tests.length} tests` })
    tests.forEach((t, i) => {
      if (t.tcId !== i + 1) findings.push({ file: name, tcId: t.tcId, message: `tcId ${t.tcId} out of sequence (expected ${i + 1})` })
    })
    const used = new Set(tests.flatMap((t) => t.flags))
    for (const flag of Object.keys(file.notes))
      if (!used.has(flag)) findings.push({ file: name, message: `note ${flag} explains no flag in use` })
    for (const t of tests)
      for (const message of await checkCase(signingFor(spec), t, ruleIds, file.notes)) findings.push({ file: name, tcId: t.tcId, message })
  }
  return { files: names.length, cases, findings }
}
