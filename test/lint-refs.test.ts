/**
 * `oec lint` on third-party documents: references follow the OpenAPI object model (a `$ref` in
 * example data is never fetched), one schema mistake is one finding where it is written, and
 * rule levels are the user's to set. Remote references are served on loopback so a fetch can
 * be counted.
 */
import { createServer, type Server } from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { referenceSites } from '../src/contract/refs.ts'
import { lintFile } from '../src/lint/index.ts'
import { runMain } from './helpers/main.ts'

const dir = mkdtempSync(join(tmpdir(), 'oec-lint-refs-'))
const write = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

let server: Server
let hits = 0
let base = ''
beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++
    res.setHeader('content-type', 'application/json')
    res.end('{"Thing": {"type": "string"}}')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

/** A 3.1 document whose example data holds `$ref` keys (as GitHub's does), plus one real remote ref. */
function docWithDataRefs(remote: string): string {
  return `openapi: 3.1.0
info: {title: refs, version: "1"}
paths:
  /things:
    get:
      parameters:
        - name: q
          in: query
          schema: {type: string, default: {$ref: "${base}/default"}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Thing"}
              example: {$ref: "${base}/example"}
              examples:
                one: {value: {$ref: "${base}/examples-value"}}
          links:
            next: {operationId: getThings, parameters: {$ref: "${base}/link"}}
      x-data: {$ref: "${base}/extension"}
components:
  schemas:
    Thing:
      type: object
      properties:
        default: {$ref: "#/components/schemas/Leaf"}
        remote: {$ref: "${remote}"}
      enum: [{$ref: "${base}/enum"}]
    Leaf: {type: string, const: {$ref: "${base}/const"}}
`
}

describe('references follow the object model', () => {
  it('lists only reference positions: never example, examples.*.value, default, const, enum, link data or x- values', () => {
    const doc = parse(docWithDataRefs('#/components/schemas/Leaf')) as Record<string, unknown>
    const refs = referenceSites(doc).map((s) => s.ref)
    expect(refs.sort()).toEqual(['#/components/schemas/Leaf', '#/components/schemas/Leaf', '#/components/schemas/Thing'])
  })

  it('lint never fetches a $ref in data; a remote reference is fetched only with --allow-remote', async () => {
    const path = write('data-refs.yaml', docWithDataRefs(`${base}/remote.json#/Thing`))
    hits = 0
    const r = await runMain(['lint', path])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(hits).toBe(0)
    const allowed = await runMain(['lint', path, '--allow-remote'])
    expect(allowed.code).toBe(0)
    expect(hits).toBe(1)
  })

  it('a local $ref that does not resolve is one error at the reference', async () => {
    const path = write('dangling.yaml', docWithDataRefs('#/components/schemas/Nope'))
    const report = await lintFile(path)
    expect(report.findings.map((f) => [f.rule, f.pointer])).toEqual([['openapi-valid', '/components/schemas/Thing/properties/remote/$ref']])
  })

  it('a file reference resolves from the spec directory, as before', async () => {
    write('leaf.yaml', 'Leaf: {type: string}\n')
    const ok = await lintFile(write('file-ref.yaml', docWithDataRefs('leaf.yaml#/Leaf')))
    expect(ok.errors).toBe(0)
    const missing = await lintFile(write('file-ref-missing.yaml', docWithDataRefs('leaf.yaml#/Other')))
    expect(missing.findings.map((f) => f.message)).toEqual([expect.stringContaining('/Other is not in')])
  })
})

describe('one finding per schema mistake, where the schema is written', () => {
  const uses = Array.from(
    { length: 12 },
    (_, i) =>
      `  /p${i}:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: "#/components/schemas/Body"}\n      responses:\n        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Body"}}}}\n`,
  ).join('')
  const spec = (version: string, type: string) =>
    `openapi: ${version}\ninfo: {title: x, version: "1"}\npaths:\n${uses}components:\n  schemas:\n    Body:\n      type: object\n      properties:\n        name: {type: ${type}}\n`

  it.each(['3.0.3', '3.1.0'])(
    'OpenAPI %s: a wrong type in a schema used 24 times is one openapi-valid error at its line',
    async (version) => {
      const path = write(`typo-${version}.yaml`, spec(version, 'strnig'))
      const report = await lintFile(path, { ruleLevels: { 'request-additional-properties': 'off' } })
      expect(report.findings.map((f) => [f.rule, f.pointer, f.line])).toEqual([
        ['openapi-valid', '/components/schemas/Body/properties/name/type', 12 * 8 + 9],
      ])
      const valid = await lintFile(write(`ok-${version}.yaml`, spec(version, 'string')), {
        ruleLevels: { 'request-additional-properties': 'off' },
      })
      expect(valid.findings).toEqual([])
    },
  )

  it('request-additional-properties: once, at the component, a warning on a spec without toolkit layers', async () => {
    const report = await lintFile(write('open-body.yaml', spec('3.0.3', 'string')))
    expect(report.findings.map((f) => [f.rule, f.severity, f.pointer])).toEqual([
      ['request-additional-properties', 'warning', '/components/schemas/Body'],
    ])
    expect(report.errors).toBe(0)
  })
})

describe('rule levels', () => {
  const path = () =>
    write(
      'levels.yaml',
      `openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths:\n  /p:\n    post:\n      requestBody: {content: {application/json: {schema: {type: object, properties: {a: {type: string}}}}}}\n      responses: {"200": {description: ok}}\n`,
    )

  it('--rule ID=error makes a house rule fail the spec; ID=off drops it; config objects take the same values', async () => {
    const error = await runMain(['lint', path(), '--rule', 'request-additional-properties=error', '--format', 'json'])
    expect(error.code).toBe(1)
    expect(JSON.parse(error.stdout).findings).toEqual([
      expect.objectContaining({
        rule: 'request-additional-properties',
        severity: 'error',
        pointer: '/paths/~1p/post/requestBody/content/application~1json/schema',
      }),
    ])
    const off = await runMain(['lint', path(), '--rule', 'request-additional-properties=off'])
    expect(off.code).toBe(0)
    expect(off.stdout).toMatch(/: 0 error\(s\), 0 warning\(s\)\n$/)
    const fromConfig = await lintFile(path(), { ruleLevels: { 'request-additional-properties': 'warn' } })
    expect(fromConfig.warnings).toBe(1)
  })

  it.each([
    [['--rule', 'no-such-rule=off'], /unknown lint rule "no-such-rule"/],
    [['--rule', 'openapi-valid=loud'], /level "loud" is not off, warn or error/],
    [['--rule', 'openapi-valid'], /expected ID=off\|warn\|error/],
  ])('%j is a usage error: exit 2, one line', async (flags, message) => {
    const r = await runMain(['lint', path(), ...flags])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
  })
})
