/**
 * README.md and docs/*.md state no count and show no flag that the CLI contradicts: every case
 * count and rule count equals what the CLI prints now (`npm run docs` rewrites a stale one), and
 * every `oec` command line, and every flag of a command page's flag table, names a command and
 * flags its `--help` lists. The facts come from running the CLI, never from a list kept here, so
 * a check or flag another branch adds is counted and known once merged.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  countClaims,
  countFindings,
  type DocFacts,
  describeFinding,
  docFacts,
  fixCounts,
  summaryFindings,
} from '../../scripts/docs-counts.ts'
import { flagFindings, type HelpTree, helpTree } from '../../scripts/docs-flags.ts'
import { docPages } from '../../scripts/docs-markdown.ts'

const pages = docPages()
let facts: DocFacts
let tree: HelpTree

beforeAll(async () => {
  // Runs the embedded server suite and the client suite once: the counts they print are the facts.
  ;[facts, tree] = [await docFacts(), await helpTree()]
}, 300_000)

describe('counts in the docs', () => {
  it('every case and rule count a page states is what the CLI prints', () => {
    const findings = pages.flatMap((p) => countFindings(p.file, p.text, facts))
    expect(findings.map(describeFinding)).toEqual([])
  })

  it('a run summary shown in a page adds up (a planted half-fixed one does not)', () => {
    expect(pages.flatMap((p) => summaryFindings(p.file, p.text))).toEqual([])
    const planted = '  713 cases in 2.0 s: 704 passed, 0 failed, 0 warnings, 0 expected failures, 0 skipped'
    expect(summaryFindings('docs/x.md', `text\n${planted}`)).toEqual([
      'docs/x.md:2: the summary says 713 cases but its parts add up to 704',
    ])
  })

  it('the pages do state counts (the checker reads them)', () => {
    const claimed = new Set(pages.flatMap((p) => countClaims(p.file, p.text)).map((c) => c.fact))
    expect([...claimed]).toEqual(expect.arrayContaining(['serverCases', 'clientCases', 'rules', 'statedRules', 'assumedRules']))
  })

  it('a planted stale count is caught and npm run docs writes the CLI figure', () => {
    const readme = pages.find((p) => p.file === 'README.md')!.text
    const planted = readme.replace(`(${facts.serverCases} cases,`, '(704 cases,')
    expect(planted).not.toBe(readme)
    const findings = countFindings('README.md', planted, facts)
    expect(findings).toHaveLength(1)
    expect(describeFinding(findings[0]!)).toMatch(/^README\.md:\d+: says 704 where the CLI prints \d+ \(serverCases\)/)
    expect(fixCounts(planted, findings)).toBe(readme)
  })

  it('each kind of count is checked against its own figure', () => {
    const text = [
      '```sh',
      `oec check client -- ./my-signer   # ${facts.serverCases} cases pass`,
      '```',
      `The catalog has 127 rules: ${facts.statedRules} stated (3 of them advice), 37 assumed.`,
      `A run prints "  ... 650/${facts.serverCases + 1} cases" while it works; every 50 cases; 650 cases, 0 failed so far.`,
      'oasdiff has 509 rules; EIP-712 rules are not counted.',
    ].join('\n')
    const found = countFindings('docs/x.md', text, facts).map((f) => [f.fact, f.written])
    expect(found).toEqual([
      ['clientCases', String(facts.serverCases)],
      ['rules', '127'],
      ['adviceRules', '3'],
      ['assumedRules', '37'],
      ['serverCases', String(facts.serverCases + 1)],
    ])
  })
})

describe('commands and flags in the docs', () => {
  it('the commands and flags come from the help the CLI prints', () => {
    expect(tree.get('check server')).toContain('--target')
    expect(tree.get('sign')).toContain('--client-id') // listed in the help's field-flag epilogue
    expect([...tree.keys()]).toEqual(expect.arrayContaining(['', 'check client', 'serve', 'vectors generate', 'diff', 'lint']))
  })

  it('every oec command line and flag-table flag of the docs exists in that command --help', () => {
    const findings = pages.flatMap((p) => flagFindings(p.file, p.text, tree))
    expect(findings.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([])
  })

  it('a planted unknown flag, command or flag-table row is caught', () => {
    const page = [
      '# `oec serve`: a page',
      '',
      '```sh',
      'oec check server --target http://127.0.0.1:8080 --no-such-flag \\',
      '  --symbol X | oec explain --curl "curl --data-binary @b.json"',
      'oec check client --reporter json -- oec sign --jsonll',
      '```',
      '',
      'Run `oec chek server` or `oec check server|client --reportr html`.',
      '',
      '| Flag | Meaning |',
      '|---|---|',
      '| `--port N`, `--bogus-port N` | where |',
    ].join('\n')
    expect(flagFindings('docs/x.md', page, tree).map((f) => `${f.line}: ${f.message}`)).toEqual([
      '4: --no-such-flag is not an option of `oec check server` (oec check server --help)',
      '6: --jsonll is not an option of `oec sign` (oec sign --help)',
      '9: `oec chek server`: no such oec command (oec --help)',
      '9: --reportr is not an option of `oec check server` (oec check server --help)',
      '9: --reportr is not an option of `oec check client` (oec check client --help)',
      '13: --bogus-port is not an option of `oec serve` (oec serve --help)',
    ])
  })
})
