/**
 * `oec diff` through the real binary: output formats, exit codes 0/1/2, `--severity` files and
 * `git:<ref>:<path>` arguments read from a temporary repository.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { DEFAULT_SPEC_PATH } from '../../src/contract/load.ts'
import { runOec, type RunResult } from '../helpers/cli.ts'

/**
 * The CLI's own entry point in-process (same parsing, printing and exit codes as the binary,
 * without a process start per case); the real binary is run below for exit codes and git refs.
 */
async function oec(args: string[]): Promise<RunResult> {
  const out = new PassThrough()
  const err = new PassThrough()
  let stdout = ''
  let stderr = ''
  out.on('data', (d) => (stdout += d))
  err.on('data', (d) => (stderr += d))
  const code = await main(args, { stdout: out, stderr: err, stdin: new PassThrough() })
  return { code, stdout, stderr }
}
const slow = { timeout: 120_000 }
const long = { timeoutMs: 60_000 }

const original = readFileSync(DEFAULT_SPEC_PATH, 'utf8')
const dir = mkdtempSync(join(tmpdir(), 'oec-diff-'))
const repos: string[] = []
afterAll(() => {
  for (const d of [dir, ...repos]) rmSync(d, { recursive: true, force: true })
})

function write(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

/** Replaces the first `find` after `anchor`; returns the text and the 1-based line of the edit. */
function editAfter(text: string, anchor: string, find: string, replace: string): { text: string; line: number } {
  const a = text.indexOf(anchor)
  const i = text.indexOf(find, a)
  expect(a, anchor).toBeGreaterThanOrEqual(0)
  expect(i, find).toBeGreaterThan(a)
  return { text: text.slice(0, i) + replace + text.slice(i + find.length), line: text.slice(0, i).split('\n').length }
}

const base = write('base.yaml', original)
// limit_exceeded: 422 → 400 (breaking), tier1 ordersPerMinute 30 → 20 (warning)
const statusEdit = editAfter(original, '  - code: limit_exceeded\n', 'http_status: [422]', 'http_status: [400]')
const both = editAfter(statusEdit.text, '    tier1:\n', 'ordersPerMinute: 30', 'ordersPerMinute: 20')
const head = write('head.yaml', both.text)
const warnOnly = write('warn-only.yaml', editAfter(original, '    tier1:\n', 'ordersPerMinute: 30', 'ordersPerMinute: 20').text)

describe('oec diff CLI (in-process main)', () => {
  it('text: one entry per finding, most severe first, exit 1 on a breaking change', async () => {
    const r = await oec(['diff', base, head])
    expect(r.code).toBe(1)
    const ids = [...r.stdout.matchAll(/^(breaking|warning|info)\s+(\S+) (\S+)$/gm)].map((m) => [m[1], m[2], m[3]])
    expect(ids).toEqual([
      ['breaking', 'api-version-not-bumped', '/info/version'],
      ['breaking', 'error-code-status-changed', '/x-service-error-codes/10/http_status'],
      ['warning', 'rate-limit-tier-lowered', '/x-rate-limits/tiers/tier1/ordersPerMinute'],
    ])
    expect(r.stdout).toContain('The error code limit_exceeded now comes with HTTP 400 instead of 422.')
    expect(r.stdout).toContain('2 breaking, 1 warning, 0 info')
  })

  it('json: the findings array with before and after', async () => {
    const r = await oec(['diff', base, head, '--format', 'json'])
    expect(r.code).toBe(1)
    const findings = JSON.parse(r.stdout) as { id: string; severity: string; pointer: string; before?: unknown; after?: unknown }[]
    const status = findings.find((f) => f.id === 'error-code-status-changed')!
    expect(status).toMatchObject({ severity: 'breaking', pointer: '/x-service-error-codes/10/http_status', before: [422], after: [400] })
    expect(findings.map((f) => f.id)).toEqual(['api-version-not-bumped', 'error-code-status-changed', 'rate-limit-tier-lowered'])
  })

  it('markdown: a changelog section grouped by severity', async () => {
    const r = await oec(['diff', base, head, '--format', 'markdown'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^## API changes in 1\.0\.0\n/)
    const breaking = r.stdout.indexOf('### Breaking changes (2)')
    const warnings = r.stdout.indexOf('### Warnings (1)')
    expect(breaking).toBeGreaterThan(0)
    expect(warnings).toBeGreaterThan(breaking)
    expect(r.stdout).toContain(
      '- **error-code-status-changed**: The error code limit\\_exceeded now comes with HTTP 400 instead of 422. (`/x-service-error-codes/10/http_status`)',
    )
  })

  it('github: workflow annotations at the changed line of the head file', async () => {
    const r = await oec(['diff', base, head, '--format', 'github'])
    expect(r.code).toBe(1)
    const lines = r.stdout.trim().split('\n')
    expect(lines).toHaveLength(3)
    const file = head.replace(/:/g, '%3A').replace(/,/g, '%2C')
    expect(lines).toContain(
      `::error file=${file},line=${statusEdit.line},title=error-code-status-changed::The error code limit_exceeded now comes with HTTP 400 instead of 422.`,
    )
    expect(lines.find((l) => l.includes('rate-limit-tier-lowered'))).toBe(
      `::warning file=${file},line=${both.line},title=rate-limit-tier-lowered::The Tier 1 tier's ordersPerMinute was lowered from 30 to 20.`,
    )
    const version = lines.find((l) => l.includes('api-version-not-bumped'))!
    expect(version).toMatch(
      new RegExp(
        `^::error file=.*,line=${original.split('\n').findIndex((l) => l.startsWith('  version:')) + 1},title=api-version-not-bumped::`,
      ),
    )
  })

  it('github: a property that became required is annotated at its entry in the required list, not at the property', async () => {
    const doc = (required: string) =>
      `openapi: 3.0.3\ninfo: {title: t, version: 1.0.0}\npaths:\n  /x:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                type: object\n                required:\n${required}                properties:\n                  a: {type: string}\n                  b: {type: string}\n`
    const headText = doc('                  - a\n                  - b\n')
    const headFile = write('required-head.yaml', headText)
    const r = await oec(['diff', write('required-base.yaml', doc('                  - a\n')), headFile, '--format', 'github'])
    const line = r.stdout.split('\n').find((l) => l.includes('title=response-property-became-required'))
    const lines = headText.split('\n')
    expect(line).toContain(`,line=${lines.indexOf('                  - b') + 1},`)
    expect(line).not.toContain(`,line=${lines.indexOf('                  b: {type: string}') + 1},`)
  })

  it('junit: one test case per finding in diff fields (rule, head file and line, severity), no runner fields', async () => {
    const r = await oec(['diff', base, head, '--format', 'junit'])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`<property name="base" value="${base}"/>`)
    expect(r.stdout).toContain(`<property name="head" value="${head}"/>`)
    // The runners' fields mean nothing for a diff.
    expect(r.stdout).not.toMatch(/name="level"|name="target"|value="stated"|value="spec"/)
    const cases = [...r.stdout.matchAll(/<testcase [^>]*classname="([^"]+)"[^>]*>([\s\S]*?)<\/testcase>/g)]
    expect(cases.map((c) => c[1])).toEqual(['api-version-not-bumped', 'error-code-status-changed', 'rate-limit-tier-lowered'])
    const status = cases[1]![0]
    expect(status).toContain(`file="${head}"`)
    expect(status).toContain(`<property name="line" value="${statusEdit.line}"/>`)
    expect(status).toContain('<property name="severity" value="breaking"/>')
    expect(status).toContain(
      '<failure message="breaking: The error code limit_exceeded now comes with HTTP 400 instead of 422." type="breaking"/>',
    )
    // Below --fail-on (breaking by default) a finding is no failure: its text is the case's output.
    expect(cases[2]![0]).not.toContain('<failure')
    expect(cases[2]![0]).toContain(
      "<system-out><![CDATA[warning: The Tier 1 tier's ordersPerMinute was lowered from 30 to 20.]]></system-out>",
    )
  })

  it('--fail-on: a warning passes by default and fails with --fail-on warning', async () => {
    const [d, w, i] = await Promise.all([
      oec(['diff', base, warnOnly]),
      oec(['diff', base, warnOnly, '--fail-on', 'warning']),
      oec(['diff', warnOnly, base, '--fail-on', 'warning']),
    ])
    expect(d.code).toBe(0)
    expect(d.stdout).toContain('0 breaking, 1 warning, 0 info')
    expect(w.code).toBe(1)
    // the reverse edit raises the limit: info only
    expect(i.stdout).toContain('0 breaking, 0 warning, 1 info')
    expect(i.code).toBe(0)
  })

  it('--severity: a file lowers or silences rules, and the version rule follows', async () => {
    const levels = write(
      'levels.txt',
      '# project policy\nerror-code-status-changed   info\n\nrate-limit-tier-lowered none  # tiers are commercial\n',
    )
    const r = await oec(['diff', base, head, '--severity', levels, '--format', 'json'])
    expect(r.stderr).toBe('')
    const findings = JSON.parse(r.stdout) as { id: string; severity: string }[]
    expect(findings.map((f) => [f.id, f.severity])).toEqual([['error-code-status-changed', 'info']])
    expect(r.code).toBe(0)
    const raise = write('raise.txt', 'rate-limit-tier-lowered err\n')
    const r2 = await oec(['diff', base, warnOnly, '--severity', raise])
    expect(r2.code).toBe(1)
    expect(r2.stdout).toMatch(/^breaking\s+rate-limit-tier-lowered /m)
  })

  it('--severity: a bad line is an input error naming the file and line', async () => {
    const bad = write('bad.txt', 'error-code-removed breaking\nerror-code-removd info\n')
    const level = write('badlevel.txt', '\nerror-code-removed fatal\n')
    const [r, l] = await Promise.all([oec(['diff', base, head, '--severity', bad]), oec(['diff', base, head, '--severity', level])])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`oec: ${bad}:2: unknown rule id "error-code-removd"\n`)
    expect(l.code).toBe(2)
    expect(l.stderr).toMatch(new RegExp(`^oec: ${level}:2: unknown level "fatal" for error-code-removed .*\\n$`))
    expect(r.stdout + l.stdout).toBe('')
  })

  it('--service reads the catalog under x-<word>-error-codes', async () => {
    const acmeBase = write('acme-base.yaml', original.replace('x-service-error-codes:', 'x-acme-error-codes:'))
    const acmeHead = write('acme-head.yaml', statusEdit.text.replace('x-service-error-codes:', 'x-acme-error-codes:'))
    const [ok, missing] = await Promise.all([
      oec(['diff', acmeBase, acmeHead, '--service', 'acme', '--format', 'json']),
      oec(['diff', acmeBase, acmeHead]),
    ])
    expect(ok.code).toBe(1)
    expect((JSON.parse(ok.stdout) as { pointer: string }[]).map((f) => f.pointer)).toContain('/x-acme-error-codes/10/http_status')
    // Without --service the one x-<word>-error-codes list the document has is the catalog.
    expect(missing.code).toBe(1)
    expect(missing.stdout).toContain('/x-acme-error-codes/10/http_status')
    // Naming another word than the one the document uses is a forgotten or mistyped --service.
    const other = await oec(['diff', acmeBase, acmeHead, '--service', 'other', '--format', 'json'])
    expect(other.code).toBe(2)
    expect(other.stderr).toMatch(/no x-other-error-codes extension.*found x-acme-error-codes: pass --service acme/)
  })

  it('diffs plain OpenAPI 3.0 documents with no toolkit extension', async () => {
    const doc = (enumValues: string) =>
      `openapi: 3.0.3\ninfo: {title: plain, version: '1.0'}\npaths:\n  /pets/{id}:\n    get:\n      parameters:\n        - {name: id, in: path, required: true, schema: {type: string}}\n        - {name: kind, in: query, schema: {type: string, enum: [${enumValues}]}}\n      responses:\n        '200': {description: ok}\n`
    const a = write('plain-a.yaml', doc('cat, dog'))
    const b = write('plain-b.yaml', doc('cat').replace('/pets/{id}', '/pets/{petId}').replace('name: id', 'name: petId'))
    const r = await oec(['diff', a, b, '--format', 'json'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    // The renamed path parameter is the same operation: only the enum value is reported.
    expect((JSON.parse(r.stdout) as { id: string }[]).map((f) => f.id).sort()).toEqual([
      'api-version-not-bumped',
      'request-parameter-enum-value-removed',
    ])
    const swagger = write('swagger.yaml', 'swagger: "2.0"\ninfo: {title: s, version: "1"}\npaths: {}\n')
    const refused = await oec(['diff', swagger, a])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toBe(`oec: ${swagger}: a Swagger 2.0 document; oec reads OpenAPI 3.0 and 3.1 (convert it first)\n`)
  })

  it('a $ref inside an example is data: it is never refused as a reference that does not resolve', async () => {
    const doc = (ref: string) =>
      `openapi: 3.0.3\ninfo: {title: plain, version: '1.0'}\npaths:\n  /pets:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {type: object}\n              example: {$ref: '#/not/a/target'}\n        '404': {$ref: '${ref}'}\ncomponents:\n  responses:\n    missing: {description: gone}\n`
    const a = write('example-ref-a.yaml', doc('#/components/responses/missing'))
    const r = await oec(['diff', a, a, '--format', 'json'])
    expect([r.code, r.stderr, r.stdout.trim()]).toEqual([0, '', '[]'])
    // The same document with a real reference that points nowhere is refused, at that reference.
    const broken = write('example-ref-b.yaml', doc('#/components/responses/gone'))
    const refused = await oec(['diff', a, broken])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toBe(`oec: ${broken}:13: $ref #/components/responses/gone does not resolve\n`)
  })
  it('--list-rules prints the registry; <head> defaults to --spec, else the shipped spec; no spec is a usage error', async () => {
    const r = await oec(['diff', '--list-rules'])
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines.length).toBeGreaterThan(300)
    expect(lines).toContain('api-path-removed-without-deprecation\tbreaking\tnone\ta path was removed without being deprecated first')
    expect(lines.every((l) => l.split('\t').length === 4)).toBe(true)
    const againstShipped = await oec(['diff', write('same.yaml', original)])
    expect(againstShipped.code).toBe(0)
    expect(againstShipped.stdout).toMatch(/0 breaking, 0 warning, 0 info/)
    const againstSpec = await oec([
      'diff',
      write('same2.yaml', original),
      '--spec',
      write('edited.yaml', statusEdit.text),
      '--format',
      'json',
    ])
    expect(againstSpec.code).toBe(1)
    const usage = await oec(['diff'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/^oec: diff: expected <base>/)
    const both = await oec(['diff', base, base, '--spec', base])
    expect(both.code).toBe(2)
    expect(both.stderr).toBe('oec: diff: give the new spec as <head> or as --spec, not both\n')
  })

  it('unreadable input exits 2 with one line', async () => {
    const broken = write('broken.yaml', 'openapi: 3.1.0\ninfo: [\n')
    const notOpenApi = write('not-openapi.yaml', 'hello: world\n')
    const [yaml, format, shape] = await Promise.all([
      oec(['diff', broken, base]),
      oec(['diff', base, head, '--format', 'xml']),
      oec(['diff', base, notOpenApi]),
    ])
    expect(shape.code).toBe(2)
    expect(shape.stderr).toMatch(/^oec: .*not-openapi\.yaml: not an OpenAPI 3\.x document/)
    expect(yaml.code).toBe(2)
    expect(yaml.stderr).toMatch(new RegExp(`^oec: ${broken}:\\d+: invalid YAML`))
    expect(yaml.stderr.trim().split('\n')).toHaveLength(1)
    expect(format.code).toBe(2)
    expect(format.stderr).toContain('xml')
  })
})

describe('oec diff through the real binary', () => {
  it('exits 0 for the shipped spec against itself, 1 on a breaking change, 2 on a missing file', slow, async () => {
    const same = await runOec(['diff', base, DEFAULT_SPEC_PATH], long)
    expect(same.stderr).toBe('')
    expect(same.stdout).toBe(`${base} → ${DEFAULT_SPEC_PATH}: 0 breaking, 0 warning, 0 info\n`)
    expect(same.code).toBe(0)
    const changed = await runOec(['diff', base, head], long)
    expect(changed.code).toBe(1)
    expect(changed.stdout).toContain('2 breaking, 1 warning, 0 info')
    const missing = await runOec(['diff', base, join(dir, 'nope.yaml')], long)
    expect(missing.code).toBe(2)
    expect(missing.stdout).toBe('')
    expect(missing.stderr).toBe(`oec: cannot read spec ${join(dir, 'nope.yaml')}: no such file\n`)
  })

  it('git:<ref>:<path> reads the committed spec in a temporary repository', slow, async () => {
    const repo = mkdtempSync(join(tmpdir(), 'oec-diff-git-'))
    repos.push(repo)
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=oec', '-c', 'user.email=oec@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
        cwd: repo,
        stdio: 'pipe',
      })
    git('init', '-q')
    writeFileSync(join(repo, 'spec.yaml'), original)
    git('add', 'spec.yaml')
    git('commit', '-q', '-m', 'base')
    const routeRequired = editAfter(
      original,
      '    PlaceOrderRequest:\n',
      'required: [wallet, symbol, side, size, price, tif, client_id',
      'required: [wallet, symbol, side, size, price, tif, route, client_id',
    )
    writeFileSync(join(repo, 'spec.yaml'), routeRequired.text)

    const opts = { cwd: repo, ...long }
    const r = await runOec(['diff', 'git:HEAD:spec.yaml', 'spec.yaml', '--format', 'github'], opts)
    const same = await runOec(['diff', 'git:HEAD:spec.yaml', 'git:HEAD:spec.yaml'], opts)
    const badRef = await runOec(['diff', 'git:no-such-ref:spec.yaml', 'spec.yaml'], opts)
    const badPath = await runOec(['diff', 'git:HEAD:missing.yaml', 'spec.yaml'], opts)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(
      'title=request-property-became-required::Request property `route` became required in POST /bulk_order, POST /order, PUT /bulk_order.',
    )
    expect(r.stdout).toMatch(/^::error file=spec\.yaml,line=\d+,title=request-property-became-required::/m)
    expect(same.code).toBe(0)
    expect(same.stdout).toContain('git:HEAD:spec.yaml → git:HEAD:spec.yaml: 0 breaking, 0 warning, 0 info')
    for (const bad of [badRef, badPath]) {
      expect(bad.code).toBe(2)
      expect(bad.stderr).toMatch(/^oec: cannot read git:[^:]+:[a-z.]+: .+\n$/)
      expect(bad.stdout).toBe('')
    }
  })
})
