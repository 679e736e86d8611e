/** The edges of `oec diff`: the spec loader, `git:` argument parsing and `--severity` files. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { diffSpecs, parseGitArg, parseSeverityText, readSpecArg, readSpecPair } from '../../src/diff/index.ts'
import { diffSource } from '../../src/diff/input.ts'
import { InputError } from '../../src/errors.ts'
import { DEFAULT_SPEC_PATH } from '../../src/contract/load.ts'
import { parseSpecText } from '../../src/contract/source.ts'

const shipped = readFileSync(DEFAULT_SPEC_PATH, 'utf8')

describe('diffSource (the fast loader)', () => {
  it('reads the shipped spec exactly as src/spec does, with the same line numbers', () => {
    const fast = diffSource(shipped, 'spec.yaml')
    const slow = parseSpecText(shipped, 'spec.yaml')
    expect(fast.doc).toEqual(slow.doc)
    for (const p of [
      '/info/version',
      '/x-eip712/domains/perps/chainId',
      '/components/schemas/Route/enum',
      '/paths/~1order/post/responses/429',
    ]) {
      expect(fast.lineOf(p)).toBe(slow.lineOf(p))
    }
    expect(fast.lineOf('/info/version')).toBe(shipped.split('\n').indexOf('  version: 1.0.0') + 1)
  })

  it('leaves files with YAML aliases to the guarded parser', () => {
    const text = 'openapi: 3.1.0\ninfo: &i {title: t, version: "1"}\ncopy: *i\n'
    expect(diffSource(text, 'a.yaml').doc).toEqual(parseSpecText(text, 'a.yaml').doc)
  })

  it('reports a duplicate key or a syntax error in one line with its line number', () => {
    const dup = 'openapi: 3.1.0\ninfo:\n  title: a\n  title: b\n'
    expect(() => diffSource(dup, 'dup.yaml')).toThrow(InputError)
    expect(() => diffSource(dup, 'dup.yaml')).toThrow(/^dup\.yaml:\d+: invalid YAML: Map keys must be unique/)
    expect(() => diffSource('a: [1,\n', 'bad.yaml')).toThrow(/^bad\.yaml:\d+: invalid YAML/)
    expect(() => diffSource('- 1\n- 2\n', 'list.yaml')).toThrow(/not an OpenAPI document/)
  })

  it('reads JSON specs too', () => {
    const json = JSON.stringify(parseSpecText(shipped, 'x').doc)
    expect(diffSource(json, 'spec.json').doc).toEqual(parseSpecText(shipped, 'x').doc)
  })
})

describe('parse-once (a pair of specs read together)', () => {
  // Big enough that paths and components are cut into entries (chunks.ts cuts mappings over 400 lines).
  const edits: [string, string][] = [
    ['  version: 1.0.0', '  version: 2.0.0'],
    ['      enum: [gtc, ioc, fok]', '      enum: [gtc, ioc]'],
    ['              minimum: 1', '              minimum: 2'],
  ]
  it('reads head as a whole parse would, and diffs the same', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oec-pair-'))
    let head = shipped
    for (const [from, to] of edits) {
      expect(head.includes(from), from).toBe(true)
      head = head.replace(from, to)
    }
    writeFileSync(join(dir, 'base.yaml'), shipped)
    writeFileSync(join(dir, 'head.yaml'), head)
    const [b, h] = readSpecPair(join(dir, 'base.yaml'), join(dir, 'head.yaml'))
    const apart = [readSpecArg(join(dir, 'base.yaml')), readSpecArg(join(dir, 'head.yaml'))] as const
    expect(h.spec.doc).toEqual(apart[1].spec.doc)
    // Shared where the text did not change, so the diff may skip it.
    expect(h.spec.doc.paths).not.toBe(b.spec.doc.paths)
    expect((h.spec.doc.paths as Record<string, unknown>)['/health']).toBe((b.spec.doc.paths as Record<string, unknown>)['/health'])
    const together = diffSpecs(b.spec, h.spec, { today: '2026-11-23' })
    expect(together.length).toBeGreaterThan(1)
    expect(together).toEqual(diffSpecs(apart[0].spec, apart[1].spec, { today: '2026-11-23' }))
  })

  it('reads keys as YAML does when it cuts a big mapping (numbers, booleans, quotes)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oec-pair-'))
    const keys = ['1.0', '0x1F', 'true', 'null', '"quoted: key"', "'single''s'", '/v1.0/{id}', 'Plain Name']
    // Over 400 lines, so the `x-big` mapping is cut into its entries.
    const entries = Array.from({ length: 120 }, (_, i) => `  ${keys[i] ?? `k${i}`}:\n    a: ${i}\n    b: [${i}]\n    c: {d: ${i}}`)
    const text = (v: string) => `openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\nx-big:\n${entries.join('\n')}\n  last: ${v}\n`
    writeFileSync(join(dir, 'base.yaml'), text('one'))
    writeFileSync(join(dir, 'head.yaml'), text('two'))
    const [b, h] = readSpecPair(join(dir, 'base.yaml'), join(dir, 'head.yaml'))
    expect(h.spec.doc).toEqual(readSpecArg(join(dir, 'head.yaml')).spec.doc)
    expect(Object.keys(h.spec.doc['x-big'] as object)).toContain('1')
    // Cut, not given up: the unchanged entries are the base's own objects.
    const big = (d: Record<string, unknown>) => d['x-big'] as Record<string, unknown>
    expect(big(h.spec.doc)['1']).toBe(big(b.spec.doc)['1'])
    expect(big(h.spec.doc)['quoted: key']).toBe(big(b.spec.doc)['quoted: key'])
  })

  it('gives up on what it cannot cut and parses whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oec-pair-'))
    writeFileSync(join(dir, 'a.yaml'), shipped)
    writeFileSync(join(dir, 'b.yaml'), `%YAML 1.2\n---\n${shipped}`)
    const [, h] = readSpecPair(join(dir, 'a.yaml'), join(dir, 'b.yaml'))
    expect(h.spec.doc).toEqual(readSpecArg(join(dir, 'a.yaml')).spec.doc)
  })
})

describe('git:<ref>:<path> arguments', () => {
  it('splits at the first colon after the ref (ref names cannot contain one)', () => {
    expect(parseGitArg('git:origin/main:spec/openapi.yaml')).toEqual({ ref: 'origin/main', path: 'spec/openapi.yaml' })
    expect(parseGitArg('git:HEAD~1:./a:b.yaml')).toEqual({ ref: 'HEAD~1', path: './a:b.yaml' })
    expect(parseGitArg('spec/openapi.yaml')).toBeUndefined()
  })

  it('refuses an incomplete argument', () => {
    for (const bad of ['git:HEAD', 'git::spec.yaml', 'git:HEAD:']) expect(() => parseGitArg(bad)).toThrow(/expected git:<ref>:<path>/)
  })
})

describe('--severity files', () => {
  it('reads levels, oasdiff spellings, comments and blank lines', () => {
    const m = parseSeverityText(
      '# levels\n\nerror-code-removed   warn\napi-version-not-bumped ERR # raise\nendpoint-added none\nrate-limit-tier-lowered info\n',
      'l.txt',
    )
    expect([...m]).toEqual([
      ['error-code-removed', 'warning'],
      ['api-version-not-bumped', 'breaking'],
      ['endpoint-added', 'none'],
      ['rate-limit-tier-lowered', 'info'],
    ])
  })

  it('names the line of a malformed entry', () => {
    expect(() => parseSeverityText('endpoint-added\n', 'l.txt')).toThrow(
      'l.txt:1: expected "rule-id breaking|warning|info|none", got "endpoint-added"',
    )
    expect(() => parseSeverityText('\n\nendpoint-added info extra\n', 'l.txt')).toThrow(/^l\.txt:3: /)
    expect(() => parseSeverityText('no-such-rule info\n', 'l.txt')).toThrow('l.txt:1: unknown rule id "no-such-rule"')
    expect(() => parseSeverityText('endpoint-added loud\n', 'l.txt')).toThrow(/^l\.txt:1: unknown level "loud"/)
  })
})
