/**
 * Expected-failure lists, after the protobuf conformance runner's: an implementer lists the
 * cases it knows it fails, one id (prefix) per line with an optional `# reason`. A listed case
 * that still fails becomes `xfail`; a listed case that now passes is stale and fails the run,
 * so a list never silently outlives the bug it tracks (a warning is never stale: see
 * applyExpectedFailures). `--fix` rewrites the list.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { InputError } from '../errors.ts'
import type { CaseResult } from '../report/model.ts'

export interface ExpectedFailureEntry {
  /** A case id, an id prefix, or a pattern with `*` (any run of characters). */
  readonly pattern: string
  readonly reason?: string
  /** 1-based line in the file. */
  readonly line: number
}

export interface ExpectedFailures {
  readonly path: string
  readonly entries: readonly ExpectedFailureEntry[]
  /** Comment lines before the first entry, kept by `--fix`. */
  readonly header: readonly string[]
}

export function parseExpectedFailures(text: string, path = '<expected-failures>'): ExpectedFailures {
  const entries: ExpectedFailureEntry[] = []
  const header: string[] = []
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) {
      if (entries.length === 0 && line.startsWith('#')) header.push(line)
      return
    }
    const hash = line.indexOf('#')
    const pattern = (hash >= 0 ? line.slice(0, hash) : line).trim()
    const reason = hash >= 0 ? line.slice(hash + 1).trim() : ''
    if (/\s/.test(pattern)) throw new InputError(`${path}:${i + 1}: one case id per line, got "${pattern}"`)
    entries.push({ pattern, line: i + 1, ...(reason ? { reason } : {}) })
  })
  return { path, entries, header }
}

export function loadExpectedFailures(path: string): ExpectedFailures {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    throw new InputError(`cannot read the expected-failures file ${path}`)
  }
  return parseExpectedFailures(text, path)
}

/**
 * Prefix match at a component boundary (`nonce/3` matches `nonce/3` but not `nonce/30`;
 * `nonce` and `nonce/` match the whole family); `*` matches any run of characters.
 */
export function matchesEntry(id: string, pattern: string): boolean {
  const re = new RegExp('^' + pattern.split('*').map(escapeRe).join('.*') + (/[/.#]$/.test(pattern) ? '' : '(?:$|[/.#])'))
  return re.test(id)
}

function escapeRe(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
}

function entryFor(id: string, list: ExpectedFailures): ExpectedFailureEntry | undefined {
  return list.entries.find((e) => matchesEntry(id, e.pattern))
}

/**
 * Listed and failing → `xfail`. Listed and warning stays a warning: a departure from an assumed
 * choice never fails a run, listed or not (an options-only client lists the perpetuals family,
 * whose refusals are partly failures and partly warnings). An entry is stale when every case it
 * matches passes: those results become failures naming the entry, so the run fails and says
 * which line to remove. An entry that still covers a failure or a warning is not stale, even when
 * some of the cases under it pass.
 */
export function applyExpectedFailures(results: CaseResult[], list: ExpectedFailures): { results: CaseResult[]; stale: string[] } {
  const live = new Set<ExpectedFailureEntry>()
  for (const r of results) {
    const entry = r.outcome === 'fail' || r.outcome === 'warn' ? entryFor(r.id, list) : undefined
    if (entry) live.add(entry)
  }
  const stale: string[] = []
  const out = results.map((r): CaseResult => {
    const entry = entryFor(r.id, list)
    if (!entry) return r
    if (r.outcome === 'fail') {
      return {
        ...r,
        outcome: 'xfail',
        message: `expected failure (${list.path}:${entry.line}${entry.reason ? `: ${entry.reason}` : ''}): ${r.message ?? ''}`.trim(),
      }
    }
    if (r.outcome === 'pass' && !live.has(entry)) {
      stale.push(r.id)
      return {
        ...r,
        outcome: 'fail',
        message: `listed as an expected failure (${list.path}:${entry.line} "${entry.pattern}") but now passes: remove the entry or run with --fix`,
        details: { ...r.details, stale: entry.pattern },
      }
    }
    return r
  })
  return { results: out, stale }
}

/**
 * `--fix`: rewrites the file so it lists exactly the cases failing now. An existing entry that
 * still matches a failing (or warning) case is kept with its reason, so a second run with --fix
 * writes the same file; new failures are added by exact id with their message as the reason;
 * entries that match no failure or warning are dropped.
 */
export function writeExpectedFailures(path: string, results: CaseResult[]): void {
  const old = existsSync(path) ? loadExpectedFailures(path) : { path, entries: [], header: [] as string[] }
  const kept = new Set<ExpectedFailureEntry>()
  const added: string[] = []
  for (const r of results) {
    const failing = (r.outcome === 'fail' && !r.details?.stale) || r.outcome === 'xfail'
    if (!failing && r.outcome !== 'warn') continue
    const e = entryFor(r.id, old)
    if (e) kept.add(e)
    else if (failing) added.push(`${r.id}  # ${oneLine(r.message ?? r.title)}`)
  }
  const lines = [
    ...(old.header.length ? old.header : ['# Expected failures: one case id (or id prefix) per line, "# reason" optional.']),
    ...old.entries.filter((e) => kept.has(e)).map((e) => (e.reason ? `${e.pattern}  # ${e.reason}` : e.pattern)),
    ...added,
  ]
  writeFileSync(path, lines.join('\n') + '\n')
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim()
  return t.length > 120 ? t.slice(0, 117) + '...' : t
}
