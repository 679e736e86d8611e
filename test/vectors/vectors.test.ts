import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AjvModule from 'ajv'
import { TypedDataEncoder, verifyTypedData } from 'ethers'
import { afterAll, describe, expect, it } from 'vitest'
import { loadRules } from '../../src/contract/rules.ts'
import {
  DEFAULT_VECTORS_DIR,
  generateVectors,
  loadVectorFiles,
  MAIL_PUBLISHED,
  SCHEMA_NAME,
  verifyVectors,
  type VectorCase,
} from '../../src/vectors/index.ts'
import { runOec } from '../helpers/cli.ts'
import { underMutation } from '../helpers/mutation.ts'

const tmp = mkdtempSync(join(tmpdir(), 'oec-vectors-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const files = loadVectorFiles()
const cases: { family: string; c: VectorCase }[] = files.flatMap(({ file }) =>
  file.testGroups.flatMap((g) => g.tests.map((c) => ({ family: file.family, c }))),
)

// These two run the compiled CLI: skipped under mutation (test/helpers/mutation.ts).
const cliIt = underMutation ? it.skip : it
const cliItConcurrent = underMutation ? it.skip : it.concurrent

describe('oec vectors generate / verify', () => {
  cliIt(
    'generates the same bytes on every run (CLI run and in-process run), identical to the checked-in files',
    async () => {
      const [cli, inProcess] = await Promise.all([
        runOec(['vectors', 'generate', '--out', join(tmp, 'a')], { timeoutMs: 90_000 }),
        generateVectors(),
      ])
      expect(cli.code, cli.stderr).toBe(0)
      expect(cli.stdout).toMatch(/wrote 10 files, \d+ cases/)
      // A directory of its own also gets the schema, so `oec vectors verify --dir` works on it.
      const names = readdirSync(join(tmp, 'a'))
        .filter((n) => n !== SCHEMA_NAME)
        .sort()
      expect(readdirSync(join(tmp, 'a'))).toContain(SCHEMA_NAME)
      expect(names).toEqual([...inProcess.keys()].sort())
      expect(names.length).toBe(10)
      for (const n of names) {
        const text = readFileSync(join(tmp, 'a', n), 'utf8')
        expect(inProcess.get(n)).toBe(text)
        expect(readFileSync(join(DEFAULT_VECTORS_DIR, n), 'utf8'), `${n} is stale: run oec vectors generate`).toBe(text)
      }
    },
    120_000,
  )

  cliItConcurrent(
    'oec vectors verify passes on the checked-in vectors',
    async () => {
      const r = await runOec(['vectors', 'verify'], { timeoutMs: 90_000 })
      expect(r.code, r.stdout + r.stderr).toBe(0)
      expect(r.stdout).toMatch(/^ok: 10 files, \d+ cases agree with the code/m)
    },
    120_000,
  )

  it('verify fails on a changed digest, a changed body and an unknown rule, naming file and case', async () => {
    const dir = join(tmp, 'tampered')
    cpSync(DEFAULT_VECTORS_DIR, dir, { recursive: true })
    const path = join(dir, 'place-order-valid.json')
    const doc = JSON.parse(readFileSync(path, 'utf8'))
    const t3 = doc.testGroups[0].tests[2]
    t3.digest = '0x' + '11'.repeat(32)
    const t5 = doc.testGroups[0].tests[4]
    t5.request.body = t5.request.body.replace('"price":"100.0"', '"price":"100"')
    doc.testGroups[0].tests[6].rules.push('NOPE-1')
    writeFileSync(path, JSON.stringify(doc, null, 2) + '\n')
    const report = await verifyVectors(dir, undefined, { regenerate: false })
    const msgs = report.findings.filter((f) => f.file === 'place-order-valid.json').map((f) => `${f.tcId}: ${f.message}`)
    expect(msgs.some((m) => m.startsWith('3: ') && /digest/.test(m))).toBe(true)
    expect(msgs.some((m) => m.startsWith('5: ') && /body/.test(m))).toBe(true)
    expect(msgs.some((m) => m.startsWith('7: ') && /NOPE-1/.test(m))).toBe(true)
    expect(report.findings.filter((f) => f.file !== 'place-order-valid.json')).toEqual([])
  }, 60_000)
})

describe('vector files', () => {
  const schema = JSON.parse(readFileSync(join(DEFAULT_VECTORS_DIR, 'vectors.schema.json'), 'utf8'))
  type AjvLike = new (o: object) => { compile(s: unknown): ((d: unknown) => boolean) & { errors?: unknown[] | null } }
  const Ajv = ((AjvModule as unknown as { default?: AjvLike }).default ?? AjvModule) as unknown as AjvLike
  const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema)

  it('every file validates against the strict schema', () => {
    for (const { name, text } of files) {
      const ok = validate(JSON.parse(text))
      expect(ok, `${name}: ${JSON.stringify(validate.errors?.slice(0, 2))}`).toBe(true)
    }
  })

  it('the schema is strict: a missing field or an extra one is refused', () => {
    const doc = JSON.parse(files[0]!.text)
    const noRules = structuredClone(doc)
    delete noRules.testGroups[0].tests[0].rules
    expect(validate(noRules)).toBe(false)
    const extra = structuredClone(doc)
    extra.testGroups[0].tests[0].surprise = 1
    expect(validate(extra)).toBe(false)
    const badOutcome = structuredClone(doc)
    badOutcome.testGroups[0].tests[0].server = 'ok'
    expect(validate(badOutcome)).toBe(false)
  })

  it('has at least 300 cases, the required families, and counts that add up', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300)
    expect(files.map((f) => f.file.family).sort()).toEqual(
      [
        'agent-approval',
        'cancel',
        'domain-mismatch',
        'eip712-mail',
        'nonce',
        'perp-agent',
        'place-order-valid',
        'signature-encoding',
        'string-format',
        'struct-mismatch',
      ].sort(),
    )
    for (const { file } of files) expect(file.numberOfTests).toBe(file.testGroups.reduce((n, g) => n + g.tests.length, 0))
  })

  it('every rule id exists in spec/rules.yaml and every flag has a note with a bug type', () => {
    const ids = new Set(loadRules().map((r) => r.id))
    for (const { file } of files) {
      for (const t of file.testGroups.flatMap((g) => g.tests)) {
        for (const r of t.rules) expect(ids.has(r), `${file.family}/${t.tcId} names ${r}`).toBe(true)
        for (const f of t.flags) expect(file.notes[f]?.bugType, `${file.family}: flag ${f}`).toMatch(/^[A-Z_]+$/)
      }
    }
  })

  it('pins the EIP-712 specification Mail example to its published digest and signature', () => {
    const mail = cases.find(({ c }) => c.flags.includes('PublishedReference'))!.c
    expect(mail.digest).toBe('0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2')
    expect(mail.signature).toBe(MAIL_PUBLISHED.signature)
    expect(mail.signer).toBe('0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826')
  })

  it('covers the cases the contract calls out', () => {
    const comments = cases.map(({ family, c }) => `${family}: ${c.comment}`)
    const has = (re: RegExp) =>
      expect(
        comments.some((c) => re.test(c)),
        String(re),
      ).toBe(true)
    has(/place-order-valid: nonce 2\^64-1/)
    has(/place-order-valid: nonce 2\^53\+1/)
    has(/place-order-valid: empty client_id/)
    has(/string-format: price "100.0" signed, "100" sent/)
    has(/string-format: size "100" signed, "100.0" sent/)
    has(/struct-mismatch: nonce typed uint256/)
    has(/struct-mismatch: EIP712Domain without verifyingContract/)
    has(/domain-mismatch: PlaceOrder, chainId "999" hashed as a string/)
    has(/nonce: signed 2\^53\+1 = 9007199254740993, sent 9007199254740992/)
    has(/signature-encoding: .*high-s twin/)
    has(/signature-encoding: .*64-byte compact/)
    has(/perp-agent: order signed under chainId 999/)
    for (const n of [0, 127, 128, 255, 256, 65535, 65536, 2 ** 32]) has(new RegExp(`perp-agent: order with asset index a = ${n}$`))
    // Agent-signed cases carry their precondition.
    const agentSigned = cases.filter(({ c }) => c.flags.includes('AgentSigned'))
    expect(agentSigned.length).toBeGreaterThan(5)
    for (const { c } of agentSigned) expect(c.setup?.[0]?.op).toBe('approve-agent')
  })

  it('agrees with ethers (an independent EIP-712 implementation) on every signable options case', () => {
    let n = 0
    for (const { family, c } of cases) {
      if (!c.sign || c.kind === 'Agent' || c.kind === 'Mail') continue
      const { EIP712Domain: _d, ...types } = c.typedData.types
      void _d
      const message = { ...c.typedData.message }
      expect(TypedDataEncoder.hash(c.typedData.domain, types, message), `${family}/${c.tcId}`).toBe(c.digest)
      expect(verifyTypedData(c.typedData.domain, types, message, c.signature).toLowerCase()).toBe(c.signer.toLowerCase())
      n++
    }
    expect(n).toBeGreaterThan(150)
  })
})
