/**
 * Large public OpenAPI documents, two versions each (test/fixtures/public-openapi/corpus/, gzip,
 * with each publisher's licence and the commits they come from in SOURCES.txt): Stripe (3.0,
 * over 3 MB), Twilio's API and Conversations (3.0.1), Adyen's Checkout and Management (3.1).
 * - lint: the head document, which carries no toolkit layer, has no error; one planted schema
 *   error is reported once, at its own pointer;
 * - diff: a self-diff is empty, and the pair gives exactly the per-rule counts below, each
 *   finding checked by hand against the two texts (none false);
 * - generate: every head document's output compiles under strict tsc.
 * The timings side by side with Redocly and openapi-typescript are `npm run bench -- public-specs`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadContractText } from '../src/contract/load.ts'
import { diffSpecs } from '../src/diff/index.ts'
import { lintFile } from '../src/lint/index.ts'
import { freshProject, runTsc, tempDir, writeStrictTsconfig, type Diagnostic } from './generate/helpers.ts'
import { ROOT } from './helpers/cli.ts'
import { runMain } from './helpers/main.ts'

const CORPUS = join(ROOT, 'test/fixtures/public-openapi/corpus')
const NAMES = readdirSync(CORPUS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort()

/**
 * Findings per rule of `oec diff base head`, checked by hand (see docs/lint.md#public-corpus
 * for what each is). A count that moves is either a fixed false finding or a new one: look.
 */
const PINNED: Record<string, Record<string, number>> = {
  // DirectDebitAuDetails.holderName, StoredPaymentMethod.cashtag. The transactionLinkId lines
  // added to (Response)AdditionalDataCommon are no finding: those schemas are named only under
  // `x-anyOf`, an extension, so no operation's schema changed.
  'adyen-checkout': { 'new-optional-request-property': 1, 'response-optional-property-added': 1 },
  // A description only.
  'adyen-management': {},
  // Stripe 2023-08-09 → 2023-09-05. blik removed from setup_intents' payment_method_options and
  // its mandate_options from payment_intents' (request-property-removed, response-optional-
  // property-removed); mandate_data wrapped into anyOf [itself, ""] (one any-of-added each,
  // where it used to be 4 findings and 2 false request-property-removed); payment_method_domains
  // and account_sessions endpoints; business_profile.url lost maxLength 5000.
  stripe: {
    'endpoint-added': 6,
    'new-optional-request-property': 20,
    'request-property-any-of-added': 4,
    'request-property-enum-value-added': 15,
    'request-property-enum-value-removed': 2,
    'request-property-max-length-increased': 2,
    'request-property-removed': 6,
    'response-optional-property-added': 7,
    'response-optional-property-removed': 4,
    'response-property-any-of-added': 1,
    'response-property-enum-value-added': 18,
    'response-property-enum-value-removed': 1,
    'response-required-property-added': 2,
  },
  // ConfigurationId (call transcriptions) and FallbackFrom (messages); the rest is examples and prose.
  'twilio-api': { 'new-optional-request-property': 2 },
  // An x-twilio extension only.
  'twilio-conversations': {},
}

const tmp = tempDir('public-corpus')
afterAll(() => tmp.cleanup())
const text = (name: string, side: 'base' | 'head') => gunzipSync(readFileSync(join(CORPUS, name, `${side}.yaml.gz`))).toString('utf8')
const file = (name: string, side: 'base' | 'head' | 'planted', body: string) => {
  const path = join(tmp.dir, `${name}.${side}.yaml`)
  writeFileSync(path, body)
  return path
}

/** Misspells the first `type: string` among the component schemas: one mistake, at one place. */
function plant(body: string): { text: string; line: number } {
  const schemas = body.indexOf('\n  schemas:\n', body.indexOf('\ncomponents:'))
  const at = body.indexOf('type: string', schemas)
  return { text: `${body.slice(0, at)}type: strnig${body.slice(at + 'type: string'.length)}`, line: body.slice(0, at).split('\n').length }
}

it('the corpus has at least five documents, 3.0 and 3.1, one over 3 MB, each with its licence', () => {
  expect(NAMES.length).toBeGreaterThanOrEqual(5)
  const heads = NAMES.map((n) => text(n, 'head'))
  expect(heads.some((t) => /^openapi: ["']?3\.0\./m.test(t))).toBe(true)
  expect(heads.some((t) => /^openapi: ["']?3\.1\./m.test(t))).toBe(true)
  expect(heads.some((t) => t.length > 3 * 1024 * 1024)).toBe(true)
  for (const n of NAMES) expect(readFileSync(join(CORPUS, n, 'LICENSE'), 'utf8')).toMatch(/Permission is hereby granted/)
  for (const t of heads) expect(t).not.toMatch(/^x-(eip712|rate-limits|websocket|[a-z]+-error-codes):/m)
  expect(Object.keys(PINNED).sort()).toEqual(NAMES)
})

describe.each(NAMES)('%s', (name) => {
  it('lint: no error on the document; a planted schema error is one finding, at its line', async () => {
    const head = file(name, 'head', text(name, 'head'))
    const clean = await lintFile(head)
    expect(clean.findings.filter((f) => f.severity === 'error')).toEqual([])
    const planted = plant(text(name, 'head'))
    const report = await lintFile(file(name, 'planted', planted.text))
    const errors = report.findings.filter((f) => f.severity === 'error')
    expect(errors.map((f) => [f.rule, f.line])).toEqual([['openapi-valid', planted.line]])
    expect(errors[0]!.pointer).toMatch(/^\/components\/schemas\/.+\/type$/)
  }, 120_000)

  it('diff: a self-diff is empty; the pair gives the hand-checked counts per rule', () => {
    const base = loadContractText(text(name, 'base'), `${name}/base.yaml`)
    const head = loadContractText(text(name, 'head'), `${name}/head.yaml`)
    expect(diffSpecs(head, head, { today: '2026-11-26' })).toEqual([])
    const counts: Record<string, number> = {}
    for (const f of diffSpecs(base, head, { today: '2026-11-26' })) counts[f.id] = (counts[f.id] ?? 0) + 1
    expect(counts).toEqual(PINNED[name])
  }, 240_000)
})

describe('generate on every head document compiles under tsc --strict', () => {
  let tsc: { code: number | null; diagnostics: Diagnostic[]; output: string }
  beforeAll(async () => {
    freshProject(tmp.dir)
    for (const name of NAMES) {
      const spec = file(name, 'head', text(name, 'head'))
      mkdirSync(join(tmp.dir, 'gen'), { recursive: true })
      const r = await runMain(['generate', '--spec', spec, '--out', join(tmp.dir, 'gen', name)])
      expect(r.code, r.stderr).toBe(0)
    }
    writeStrictTsconfig(tmp.dir, ['gen/**/*.ts'])
    tsc = await runTsc(tmp.dir, ['-p', 'tsconfig.json', '--pretty', 'false'])
  }, 600_000)

  it('no diagnostic', () => {
    expect(tsc.diagnostics.slice(0, 10)).toEqual([])
    expect(tsc.code, tsc.output.slice(0, 2000)).toBe(0)
  })
})
