import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { lintFile } from '../src/lint/index.ts'
import { DEFAULT_SPEC_PATH } from '../src/contract/load.ts'
import { runOec } from './helpers/cli.ts'

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
    const path = variant('no-nonce-reused', /  - code: nonce_reused\n(    .*\n)+?    x-assumed-why: .*\n/, '')
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
    const path = variant('renamed', '        - { name: symbol, type: string }\n        - { name: side, type: string }\n        - { name: size, type: string }\n        - { name: price, type: string }\n        - { name: tif, type: string }\n        - { name: route, type: string }', '        - { name: instrument, type: string }\n        - { name: side, type: string }\n        - { name: size, type: string }\n        - { name: price, type: string }\n        - { name: tif, type: string }\n        - { name: route, type: string }')
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
    const path = variant('no-headers', /(    RateLimited:\n(.*\n)*?      headers:\n)        X-RateLimit-Limit:\n          \$ref: .*\n/, '$1')
    const report = await lintFile(path)
    expect(report.findings.some((f) => f.rule === 'rate-limit-headers-missing' && f.message.includes('429 does not declare X-RateLimit-Limit'))).toBe(true)
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
    expect(JSON.parse(r.stdout)).toMatchObject({ errors: 0, findings: [] })
  })
})

describe('oec lint on bad input: one line, exit 2, no stack trace', () => {
  const cases: [string, string | undefined, RegExp][] = [
    ['missing file', undefined, /^oec: cannot read spec .*missing\.yaml: no such file\n$/],
    ['invalid YAML', 'openapi: 3.1.0\ninfo: [unclosed\n', /^oec: .*invalid-yaml\.yaml:\d+: invalid YAML: .+\n$/],
    ['duplicate key', 'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\n  title: y\n', /^oec: .*duplicate-key\.yaml:5: invalid YAML: Map keys must be unique\n$/],
    ['Swagger 2.0', 'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n', /^oec: .*swagger-2-0\.yaml: a Swagger 2\.0 document; oec reads OpenAPI 3\.0 and 3\.1/],
    ['no extension', 'openapi: 3.1.0\ninfo: {title: x, version: "1"}\npaths: {}\n', /^oec: .*no-extension\.yaml: no x-service-error-codes extension/],
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
