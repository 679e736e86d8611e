/** The edges of `oec diff`: the spec loader, `git:` argument parsing and `--severity` files. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseGitArg, parseSeverityText } from '../../src/diff/index.ts'
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
    for (const p of ['/info/version', '/x-eip712/domains/perps/chainId', '/components/schemas/Route/enum', '/paths/~1order/post/responses/429']) {
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
    const m = parseSeverityText('# levels\n\nerror-code-removed   warn\napi-version-not-bumped ERR # raise\nendpoint-added none\nrate-limit-tier-lowered info\n', 'l.txt')
    expect([...m]).toEqual([
      ['error-code-removed', 'warning'],
      ['api-version-not-bumped', 'breaking'],
      ['endpoint-added', 'none'],
      ['rate-limit-tier-lowered', 'info'],
    ])
  })

  it('names the line of a malformed entry', () => {
    expect(() => parseSeverityText('endpoint-added\n', 'l.txt')).toThrow('l.txt:1: expected "rule-id breaking|warning|info|none", got "endpoint-added"')
    expect(() => parseSeverityText('\n\nendpoint-added info extra\n', 'l.txt')).toThrow(/^l\.txt:3: /)
    expect(() => parseSeverityText('no-such-rule info\n', 'l.txt')).toThrow('l.txt:1: unknown rule id "no-such-rule"')
    expect(() => parseSeverityText('endpoint-added loud\n', 'l.txt')).toThrow(/^l\.txt:1: unknown level "loud"/)
  })
})
