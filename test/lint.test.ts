import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseDocument } from 'yaml'
import { LINT_RULE_IDS, LINT_RULES, lintFile } from '../src/lint/index.ts'
import { DEFAULT_SPEC_PATH } from '../src/contract/load.ts'
import { runOec } from './helpers/cli.ts'
import { runMain } from './helpers/main.ts'

const original = readFileSync(DEFAULT_SPEC_PATH, 'utf8')
const dir = mkdtempSync(join(tmpdir(), 'oec-lint-'))

/** Writes a copy of the shipped spec with one textual edit; fails if the edit did not apply. */
function variant(name: string, from: string | RegExp, to: string): string {
  const text = original.replace(from, to)
  expect(text, `edit for ${name} applies`).not.toBe(original)
  const path = join(dir, `${name}.yaml`)
  writeFileSync(path, text)
  return path
}

function lineOf(text: string, needle: string): number {
  const i = text.indexOf(needle)
  expect(i).toBeGreaterThanOrEqual(0)
  return text.slice(0, i).split('\n').length
}

describe('oec lint', () => {
  it('passes the shipped spec with exit 0', async () => {
    const r = await runOec(['lint', 'spec/openapi.yaml'])
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain('0 error(s)')
    expect(r.code).toBe(0)
  })

  it('fails when a catalog code that responses use is removed, naming rule and line', async () => {
    const path = variant('no-nonce-reused', / {2}- code: nonce_reused\n( {4}.*\n)+? {4}x-assumed-why: .*\n/, '')
    const r = await runOec(['lint', path])
    expect(r.code).toBe(1)
    const line = lineOf(readFileSync(path, 'utf8'), '    NonceReused:')
    // Reported once, at the shared response every operation references.
    expect(r.stdout).toContain(`${path}:${line} catalog-code-undeclared response NonceReused (HTTP 409) uses code "nonce_reused"`)
    expect(r.stdout.match(/catalog-code-undeclared/g)).toHaveLength(1)
  })

  it('fails on a duplicate code and points at the second entry', async () => {
    const path = variant('dup', '  - code: batch_too_large\n', '  - code: invalid_field\n')
    const r = await runOec(['lint', path])
    expect(r.code).toBe(1)
    const text = readFileSync(path, 'utf8')
    const second = text.indexOf('  - code: invalid_field', text.indexOf('  - code: invalid_field') + 1)
    const line = text.slice(0, second).split('\n').length
    expect(r.stdout).toContain(`${path}:${line} catalog-code-unique duplicate code "invalid_field"`)
  })

  it('fails when a PlaceOrder typed field is renamed, naming the field line', async () => {
    const path = variant(
      'renamed',
      '        - { name: symbol, type: string }\n        - { name: side, type: string }\n        - { name: size, type: string }\n        - { name: price, type: string }\n        - { name: tif, type: string }\n        - { name: route, type: string }',
      '        - { name: instrument, type: string }\n        - { name: side, type: string }\n        - { name: size, type: string }\n        - { name: price, type: string }\n        - { name: tif, type: string }\n        - { name: route, type: string }',
    )
    const r = await runOec(['lint', path])
    expect(r.code).toBe(1)
    const line = lineOf(readFileSync(path, 'utf8'), '- { name: instrument')
    expect(r.stdout).toContain(`${path}:${line} eip712-field-unmapped PlaceOrder.instrument maps to body property "instrument"`)
  })

  it('catches a body field typed differently from the signed field', async () => {
    const path = variant('nonce-type', '    Nonce:\n      type: integer', '    Nonce:\n      type: string')
    const report = await lintFile(path)
    expect(report.findings.map((f) => f.rule)).toContain('eip712-type-mismatch')
  })

  it('requires an x-assumed-why on every assumed element', async () => {
    const path = variant('no-why', '      x-assumed-why: The seed names the RevokeAgent message but not the HTTP method and path.\n', '')
    const report = await lintFile(path)
    const f = report.findings.find((x) => x.rule === 'assumed-why-missing')
    expect(f?.pointer).toBe('/paths/~1revoke-agent/post')
  })

  it('requires the rate-limit headers on rate-limited operations', async () => {
    const path = variant('no-headers', /( {4}RateLimited:\n(.*\n)*? {6}headers:\n) {8}X-RateLimit-Limit:\n {10}\$ref: .*\n/, '$1')
    const report = await lintFile(path)
    expect(
      report.findings.some((f) => f.rule === 'rate-limit-headers-missing' && f.message.includes('429 does not declare X-RateLimit-Limit')),
    ).toBe(true)
  })

  it('fails a copy of the spec whose 413 of rate-limited operations declares no rate-limit headers', async () => {
    const path = variant(
      'no-413-headers',
      /( {4}PayloadTooLargeWithLimits:\n(.*\n)*? {6}x-error-codes: \[payload_too_large\]\n) {6}headers:\n( {8}.*\n| {10}.*\n)+/,
      '$1',
    )
    const r = await runOec(['lint', path])
    expect(r.code).toBe(1)
    const lines = r.stdout.split('\n').filter((l) => l.includes('rate-limit-headers-missing'))
    expect(lines.some((l) => l.includes('POST /order 413 does not declare X-RateLimit-Limit'))).toBe(true)
    expect(lines.some((l) => l.includes('POST /exchange 413 does not declare X-RateLimit-Reset'))).toBe(true)
    // Only the 413s lost their headers.
    expect(lines.every((l) => / 413 does not declare /.test(l))).toBe(true)
  })

  it('flags a catalog code nothing uses', async () => {
    const path = variant('unused', '  codes: [not_found, method_not_allowed, internal_error]', '  codes: [not_found, internal_error]')
    const report = await lintFile(path)
    expect(report.findings.map((f) => `${f.rule} ${f.message}`)).toContain(
      'catalog-code-unused code "method_not_allowed" is used by no response (mark it "reserved: true" if intended)',
    )
  })

  it('has a JSON output mode', async () => {
    const r = await runOec(['lint', '--format', 'json'])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({ errors: 0, warnings: 0 })
    // Information only: the route's x-optional-until date has passed.
    expect(doc.findings.map((f: { rule: string; severity: string }) => `${f.rule}:${f.severity}`)).toEqual(['optional-until-passed:info'])
  })
})

describe('oec lint on bad input: one line, exit 2, no stack trace', () => {
  const cases: [string, string | undefined, RegExp][] = [
    ['missing file', undefined, /^oec: cannot read spec .*missing\.yaml: no such file\n$/],
    ['invalid YAML', 'openapi: 3.1.0\ninfo: [unclosed\n', /^oec: .*invalid-yaml\.yaml:\d+: invalid YAML: .+\n$/],
    [
      'duplicate key',
      'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\n  title: y\n',
      /^oec: .*duplicate-key\.yaml:5: invalid YAML: Map keys must be unique\n$/,
    ],
    [
      'Swagger 2.0',
      'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n',
      /^oec: .*swagger-2-0\.yaml: a Swagger 2\.0 document; oec reads OpenAPI 3\.0 and 3\.1/,
    ],
    ['not OpenAPI', 'asyncapi: 2.6.0\ninfo: {title: x, version: "1"}\n', /^oec: .*not-openapi\.yaml: not an OpenAPI 3\.x document/],
  ]
  for (const [name, content, expected] of cases) {
    it(name, async () => {
      const path = join(dir, content === undefined ? 'missing.yaml' : `${name.replace(/[ .]/g, '-').toLowerCase()}.yaml`)
      if (content !== undefined) writeFileSync(path, content)
      const r = await runOec(['lint', path])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(expected)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    })
  }

  it('suggests --service when the catalog has another service word', async () => {
    const path = join(dir, 'acme.yaml')
    writeFileSync(path, original.replace('x-service-error-codes:', 'x-acme-error-codes:'))
    const r = await runOec(['lint', path])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('pass --service acme')
    const ok = await runOec(['lint', path, '--service', 'acme'])
    expect(ok.code).toBe(0)
  })
})

describe('oec lint on a spec without toolkit extensions', () => {
  const plain = (name: string, body: string) => {
    const path = join(dir, `${name}.yaml`)
    writeFileSync(path, `openapi: 3.1.0\ninfo: {title: x, version: "1"}\n${body}`)
    return path
  }

  it('lints it: exit 0 and one info line naming every absent layer', async () => {
    const path = plain('bare', 'paths: {}\n')
    const r = await runMain(['lint', path])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const info = r.stdout.split('\n').filter((l) => l.includes('info:'))
    expect(info).toEqual([
      `${path}: info: no x-service-error-codes layer (error-code catalog), no x-eip712 layer (signing domains and message types), ` +
        `no x-rate-limits layer (rate-limit tiers), no x-websocket layer (WebSocket channels): their rules were skipped (${LINT_RULE_IDS.filter((id) => LINT_RULES[id].needs !== null).length} of the lint rules)`,
    ])
    expect(r.stdout).toContain(`${path}: 0 error(s), 0 warning(s)`)
  })

  it('still runs the rules that need no layer, and OpenAPI validity: exit 1', async () => {
    const path = plain(
      'open-body',
      'paths:\n  /pets:\n    post:\n      operationId: addPet\n      x-assumed: true\n      requestBody:\n        content:\n          application/json:\n' +
        '            schema: { type: object, properties: { name: { type: string } } }\n      responses:\n        "200": { description: ok }\n' +
        '  /bad:\n    get:\n      responses: { "200": {} }\n',
    )
    const r = await runMain(['lint', path, '--format', 'json'])
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout) as { findings: { rule: string; line: number }[]; absent: { key: string; skipped: string[] }[] }
    expect([...new Set(report.findings.map((f) => f.rule))].sort()).toEqual([
      'assumed-why-missing',
      'openapi-valid',
      'request-additional-properties',
    ])
    expect(report.absent.map((a) => a.key)).toEqual(['x-service-error-codes', 'x-eip712', 'x-rate-limits', 'x-websocket'])
    expect(report.absent.find((a) => a.key === 'x-eip712')?.skipped).toContain('eip712-field-unmapped')
  })

  it('names only the layers that are absent, and runs the rules of the present ones', async () => {
    // The shipped spec without x-eip712 and x-websocket: catalog and rate-limit rules still run.
    const doc = parseDocument(original)
    doc.delete('x-eip712')
    doc.delete('x-websocket')
    doc.deleteIn(['x-rate-limits', 'categories'])
    doc.setIn(['paths', '/order', 'post', 'x-rate-limit', 'category'], 'ordres')
    const path = join(dir, 'partial.yaml')
    writeFileSync(path, doc.toString())
    const r = await runMain(['lint', path])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/rate-limit-category-unknown POST \/order: unknown rate-limit category "ordres"/)
    expect(r.stdout).not.toMatch(/ eip712-/)
    const info = r.stdout.split('\n').filter((l) => l.includes(': info: '))
    expect(info).toEqual([
      `${path}: info: no x-eip712 layer (signing domains and message types), no x-websocket layer (WebSocket channels): their rules were skipped (6 of the lint rules)`,
    ])
  })

  it('reports an extension it cannot read as a finding, and runs the rules of the other layers', async () => {
    const doc = parseDocument(original)
    doc.deleteIn(['x-eip712', 'domainType'])
    doc.setIn(['x-global-error-codes', 'codes', 0], 'not_catalogued')
    const path = join(dir, 'broken-eip712.yaml')
    writeFileSync(path, doc.toString())
    const r = await runMain(['lint', path])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    const text = readFileSync(path, 'utf8')
    expect(r.stdout).toContain(
      `${path}:${lineOf(text, '\nx-eip712:') + 1} layer-invalid x-eip712 cannot be read (missing x-eip712.domainType); its rules were skipped`,
    )
    expect(r.stdout).toMatch(/catalog-code-undeclared code "not_catalogued" is not in x-service-error-codes/)
    expect(r.stdout).not.toMatch(/ eip712-/)
    // Present but unreadable is not absent, and every other layer is there: no info line.
    expect(r.stdout).not.toContain(': info: ')
  })

  it('takes the spec from --spec as well, and refuses both at once', async () => {
    const path = plain('flag', 'paths: {}\n')
    const r = await runMain(['lint', '--spec', path])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`${path}: 0 error(s)`)
    const both = await runMain(['lint', path, '--spec', path])
    expect(both.code).toBe(2)
    expect(both.stdout).toBe('')
    expect(both.stderr).toMatch(/^oec: lint: give the spec once, as an argument .* or with --spec .*, not both\n$/)
  })
})

describe('oec lint --list-rules', () => {
  it('prints every rule of the registry once, with its level and the layer it needs', async () => {
    const r = await runMain(['lint', '--list-rules'])
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(LINT_RULE_IDS)
    expect(lines.find((l) => l.startsWith('eip712-type-mismatch '))).toMatch(/^eip712-type-mismatch\s+error\s+x-eip712\s+\S/)
    expect(lines.find((l) => l.startsWith('openapi-valid '))).toMatch(/^openapi-valid\s+error\s+any spec\s+\S/)
    const acme = await runMain(['lint', '--list-rules', '--service', 'acme', '--format', 'json'])
    const rules = JSON.parse(acme.stdout) as { id: string; level: string; needs: string | null; doc: string }[]
    expect(rules.map((x) => x.id)).toEqual(LINT_RULE_IDS)
    expect(rules.find((x) => x.id === 'catalog-code-unique')?.needs).toBe('x-acme-error-codes')
    for (const x of rules) expect(x.doc.length).toBeGreaterThan(10)
  })

  it('every finding the shipped rules can raise is in the registry; each emitted id is a literal the registry knows', () => {
    const source = ['rules.ts', 'openapi.ts', 'load.ts']
      .map((f) => readFileSync(new URL(`../src/lint/${f}`, import.meta.url), 'utf8'))
      .join('\n')
    const used = new Set([...source.matchAll(/(?:emit\(|rule: )\s*'([a-z0-9-]+)'/g)].map((m) => m[1]!))
    expect([...used].sort()).toEqual([...LINT_RULE_IDS].sort())
  })

  it('a mistyped rule id does not compile', async () => {
    const fixture = join(dir, 'typo')
    mkdirSync(fixture, { recursive: true })
    const registry = fileURLToPath(new URL('../src/lint/registry.ts', import.meta.url))
    writeFileSync(
      join(fixture, 'typo.ts'),
      `import { LINT_RULES, type LintRuleId } from ${JSON.stringify(registry)}\n` +
        `export const ok: LintRuleId = 'catalog-code-unused'\n` +
        `export const level = LINT_RULES['openapi-valid'].level\n` +
        `export const bad: LintRuleId = 'catalog-code-unsued'\n`,
    )
    const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url))
    const r = spawnSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--target',
        'ES2022',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
        '--allowImportingTsExtensions',
        '--types',
        'node',
        join(fixture, 'typo.ts'),
      ],
      { encoding: 'utf8' },
    )
    const errors = [...r.stdout.matchAll(/typo\.ts\((\d+),\d+\): error TS\d+: (.*)/g)].map((m) => `${m[1]} ${m[2]}`)
    expect(errors, r.stdout).toEqual([expect.stringMatching(/^4 Type '"catalog-code-unsued"' is not assignable to type/)])
  }, 60_000)
})
