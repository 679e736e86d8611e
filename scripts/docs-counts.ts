/**
 * Counts the docs state in words ("713 cases", "131 rules: 90 stated") against what the CLI
 * prints now. Hand-kept counts drifted in three pages at once (704, 694 and 700 cases while the
 * CLI printed 713), so every count a page states is compared with a run of the CLI, and
 * `npm run docs` rewrites a stale one. Counts inside generated tables are the tables' business
 * (docs-tables.ts); a progress snapshot ("650 cases, 0 failed so far") or a cadence ("every 50
 * cases") is not a count of anything.
 */
import { oecJson } from './docs-cli.ts'
import { linesInside, REPO_ROOT } from './docs-markdown.ts'

/** What the CLI prints today, under the names a page's wording maps to. */
export interface DocFacts {
  readonly serverCases: number
  readonly clientCases: number
  readonly rules: number
  readonly statedRules: number
  readonly assumedRules: number
  readonly adviceRules: number
  readonly lintRules: number
}
export type FactName = keyof DocFacts

interface RunCounts {
  counts: Record<string, number>
}
const total = (r: RunCounts) => Object.values(r.counts).reduce((a, b) => a + b, 0)

/** Runs the CLI in process: the embedded server suite, the client suite against `oec sign --jsonl`, the rule catalog. */
export async function docFacts(): Promise<DocFacts> {
  const server = await oecJson<RunCounts>(['check', 'server', '--reporter', 'json'])
  const client = await oecJson<RunCounts>([
    'check',
    'client',
    '--reporter',
    'json',
    '--',
    process.execPath,
    `${REPO_ROOT}bin/oec.js`,
    'sign',
    '--jsonl',
  ])
  const coverage = await oecJson<{ rules: { level: string; advice?: boolean }[] }>(['coverage', '--format', 'json'])
  const lint = await oecJson<unknown[]>(['lint', '--list-rules', '--format', 'json'])
  const level = (l: string) => coverage.rules.filter((r) => r.level === l).length
  return {
    serverCases: total(server),
    clientCases: total(client),
    rules: coverage.rules.length,
    statedRules: level('stated'),
    assumedRules: level('assumed'),
    adviceRules: coverage.rules.filter((r) => r.advice === true).length,
    lintRules: lint.length,
  }
}

export interface CountClaim {
  readonly file: string
  /** 1-based. */
  readonly line: number
  /** Offset of the number in the line. */
  readonly index: number
  /** The number as written, e.g. `1,024`. */
  readonly written: string
  readonly fact: FactName
}

export interface CountFinding extends CountClaim {
  readonly expected: number
}

const NUMBER = String.raw`(?<![\w.\-/])(\d[\d,]*)`
/** `N/M cases` (a progress line that names the total: the total is the claim). */
const CASES_OF_TOTAL = /(?<![\w.\-/])\d[\d,]*\/(\d[\d,]*) cases\b/g
const CASES = new RegExp(`${NUMBER} cases\\b`, 'g')
const RULES = new RegExp(`${NUMBER} (stated |assumed |advice |lint )?rules\\b`, 'g')
/** "131 rules: 90 stated (6 of them advice), 41 assumed": the parts of a rule count. */
const RULE_PARTS = new RegExp(`${NUMBER} (?:of them )?(stated|assumed|advice)\\b(?! rules)`, 'g')

/** Which suite a line's case count is about: the client suite when the line (or its code block) is about `check client`. */
function casesFact(file: string, line: string, blockAbout: string | undefined): FactName {
  const about = /check client/.test(line) ? 'client' : /check server/.test(line) ? 'server' : blockAbout
  if (about !== undefined) return about === 'client' ? 'clientCases' : 'serverCases'
  return /check-client|testee-protocol/.test(file) ? 'clientCases' : 'serverCases'
}

/** Every count a page states outside generated tables, with the fact it claims. */
export function countClaims(file: string, text: string): CountClaim[] {
  const generated = linesInside(text, 'generated')
  const claims: CountClaim[] = []
  let blockAbout: string | undefined
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) blockAbout = undefined
    const command = /\boec (check (?:client|server))/.exec(line)
    if (command && /^\s*(\$ )?(npx )?oec /.test(line)) blockAbout = command[1]!.endsWith('client') ? 'client' : 'server'
    if (generated.has(i + 1)) return
    const add = (m: RegExpMatchArray, fact: FactName, group = 1) => {
      const written = m[group]!
      claims.push({ file, line: i + 1, index: m.index! + m[0].indexOf(written), written, fact })
    }
    for (const m of line.matchAll(CASES_OF_TOTAL)) add(m, casesFact(file, line, blockAbout))
    for (const m of line.matchAll(CASES)) {
      const before = line.slice(0, m.index)
      if (/every $/.test(before) || /\/$/.test(before) || /so far/.test(line.slice(m.index))) continue
      add(m, casesFact(file, line, blockAbout))
    }
    for (const m of line.matchAll(RULES)) {
      if (/oasdiff[^.]*$/.test(line.slice(0, m.index))) continue // a peer's figure, not ours
      const kind = m[2]?.trim()
      add(
        m,
        kind === 'stated'
          ? 'statedRules'
          : kind === 'assumed'
            ? 'assumedRules'
            : kind === 'advice'
              ? 'adviceRules'
              : kind === 'lint'
                ? 'lintRules'
                : 'rules',
      )
    }
    if (/\brules\b/.test(line))
      for (const m of line.matchAll(RULE_PARTS))
        add(m, m[2] === 'stated' ? 'statedRules' : m[2] === 'assumed' ? 'assumedRules' : 'adviceRules')
  })
  return claims
}

/** The claims whose number differs from the fact. */
export function countFindings(file: string, text: string, facts: DocFacts): CountFinding[] {
  return countClaims(file, text)
    .map((c) => ({ ...c, expected: facts[c.fact] }))
    .filter((c) => Number(c.written.replace(/,/g, '')) !== c.expected)
}

/** The page with every stale count replaced by the CLI's (what `npm run docs` writes). */
export function fixCounts(text: string, findings: readonly CountFinding[]): string {
  const lines = text.split('\n')
  // Right to left within a line, so earlier offsets stay valid.
  for (const f of [...findings].sort((a, b) => a.line - b.line || b.index - a.index)) {
    const l = lines[f.line - 1]!
    lines[f.line - 1] = `${l.slice(0, f.index)}${f.expected}${l.slice(f.index + f.written.length)}`
  }
  return lines.join('\n')
}

/**
 * A run's summary line shown in a page ("713 cases in 2.0 s: 713 passed, 0 failed, ...") whose
 * parts do not add up to its total: half of a stale sample fixed by hand.
 */
export function summaryFindings(file: string, text: string): string[] {
  const SUMMARY = /(\d+) cases in [\d.]+ s: (\d+) passed, (\d+) failed, (\d+) warnings?, (\d+) expected failures?, (\d+) skipped/
  return text.split('\n').flatMap((line, i) => {
    const m = SUMMARY.exec(line)
    if (!m) return []
    const [total, ...parts] = m.slice(1).map(Number)
    const sum = parts.reduce((a, b) => a + b, 0)
    return sum === total ? [] : [`${file}:${i + 1}: the summary says ${total} cases but its parts add up to ${sum}`]
  })
}

export const describeFinding = (f: CountFinding) =>
  `${f.file}:${f.line}: says ${f.written} where the CLI prints ${f.expected} (${f.fact}); run npm run docs`
