/**
 * Reporters shared by the conformance runners: `pretty` (progress line + a summary a newcomer
 * can read), `json` (one document), `junit` (JUnit XML for CI) and `html` (one self-contained
 * page, src/report/html). A reporter receives results
 * as they arrive (`onResult`) and the whole run at the end (`finish`).
 */
import { createRequire } from 'node:module'
import type { Builder } from 'junit-report-builder'
import { loadRules } from '../contract/rules.ts'
import { renderRunHtml, type RunReportMeta } from './html/run.ts'
import { countOutcomes, exitCodeFor, type CaseResult, type Outcome, type RunSummary } from './model.ts'

export * from './model.ts'
export { exitCodeFor }

/**
 * The JUnit builder, loaded when a JUnit report is asked for: its import costs about 95 ms, which
 * every other run would pay at start-up. The package is CommonJS whose module.exports is the
 * builder; its typings describe `.default`.
 */
export function junitBuilder(): Builder {
  const mod = createRequire(import.meta.url)('junit-report-builder') as { default?: Builder }
  return (mod.default ?? mod) as Builder
}

export type ReporterName = 'pretty' | 'json' | 'junit' | 'html'
export const REPORTER_NAMES: readonly ReporterName[] = ['pretty', 'json', 'junit', 'html']

export interface Reporter {
  onResult(r: CaseResult): void
  /**
   * Work done out of a total known up front, when cases are not (`oec check server` knows its
   * checks, not how many cases each emits): the progress line shows it and estimates from it.
   */
  onProgress?(done: number, total: number, unit: string): void
  finish(s: RunSummary): void
}

export interface ReporterOptions {
  /** ANSI colors and an in-place progress line (default: the stream is a TTY). */
  color?: boolean | undefined
  /** Number of cases expected, for the progress line. */
  total?: number | undefined
  /** html: the rule texts, seed and versions the page shows (rules default to the shipped catalog). */
  html?: HtmlMeta | undefined
}

/** What the html page is told; an undefined field is an absent one (the page falls back on each). */
type HtmlMeta = { readonly [K in keyof RunReportMeta]?: RunReportMeta[K] | undefined }

export function createReporter(name: ReporterName, out: NodeJS.WritableStream, opts: ReporterOptions = {}): Reporter {
  switch (name) {
    case 'pretty':
      return prettyReporter(out, opts)
    case 'json':
      return jsonReporter(out)
    case 'junit':
      return junitReporter(out)
    case 'html':
      return htmlReporter(out, opts.html ?? {})
  }
}

// A private key must never reach a report, whatever a runner put into `details`.
const KEY_PATTERN = /("?(?:privateKey|private_key|key)"?\s*[:=]\s*"?)0x[0-9a-fA-F]{64}/g
export function redact(text: string): string {
  return text.replace(KEY_PATTERN, '$1<redacted>')
}

function redactResult(r: CaseResult): CaseResult {
  if (!r.details && !r.message) return r
  const details: CaseResult['details'] = {}
  for (const [k, v] of Object.entries(r.details ?? {})) if (v !== undefined) details[k] = redact(v)
  return { ...r, ...(r.message !== undefined ? { message: redact(r.message) } : {}), ...(r.details ? { details } : {}) }
}

// ---------------------------------------------------------------- pretty

const ANSI = { red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' }

const LABEL: Record<Outcome, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP', xfail: 'XFAIL' }

/**
 * What a progress line says: cases so far (of a total when one is known), work units done of a
 * known total (`oec check server`'s checks), and the time left at the pace so far.
 */
export function createProgressCounter(totalCases?: number) {
  const seen: CaseResult[] = []
  const startedAt = performance.now()
  let work: { done: number; total: number; unit: string } | undefined
  const timeLeft = () => {
    const [done, total] = work ? [work.done, work.total] : [seen.length, totalCases ?? 0]
    if (!total || done === 0 || done >= total) return ''
    return `, ~${Math.round((((performance.now() - startedAt) / done) * (total - done)) / 1000)} s left`
  }
  const counted = () =>
    `${seen.length}${totalCases ? `/${totalCases}` : ''} cases${work ? ` (${work.done}/${work.total} ${work.unit})` : ''}`
  return {
    seen,
    add(r: CaseResult) {
      seen.push(r)
    },
    setWork(done: number, total: number, unit: string) {
      work = { done, total, unit }
    },
    /** The line kept in place on a terminal. */
    live(): string {
      const c = countOutcomes(seen)
      return `  ${counted()}  ${c.pass} passed  ${c.fail} failed  ${c.warn} warnings${timeLeft()}`
    },
    /** The line a log gets every so many cases. */
    logged(): string {
      return `  ... ${counted()}, ${countOutcomes(seen).fail} failed so far${timeLeft()}`
    },
  }
}

function prettyReporter(out: NodeJS.WritableStream, opts: ReporterOptions): Reporter {
  const tty = opts.color ?? Boolean((out as NodeJS.WriteStream).isTTY)
  const paint = (color: keyof typeof ANSI, s: string) => (tty ? `${ANSI[color]}${s}${ANSI.reset}` : s)
  const counter = createProgressCounter(opts.total)
  const seen = counter.seen
  let progressShown = false
  const clearProgress = () => {
    if (progressShown) out.write('\r\x1b[2K')
    progressShown = false
  }
  const progress = () => {
    if (tty) {
      out.write(`\r\x1b[2K${counter.live()}`)
      progressShown = true
    }
  }
  return {
    onResult(raw) {
      const r = redactResult(raw)
      counter.add(r)
      // Failures are printed the moment they happen, so a long run shows them early.
      if (r.outcome === 'fail') {
        clearProgress()
        out.write(`${paint('red', 'FAIL')} ${r.id}  ${r.title}${r.rules.length ? paint('dim', `  [${r.rules.join(', ')}]`) : ''}\n`)
        if (r.message) out.write(`     ${r.message}\n`)
      } else if (!tty && seen.length % 50 === 0) {
        // Non-interactive output (CI logs): a plain progress line every 50 cases.
        out.write(`${counter.logged()}\n`)
      }
      progress()
    },
    onProgress(done, total, unit) {
      counter.setWork(done, total, unit)
      progress()
    },
    finish(s) {
      clearProgress()
      const results = s.results.map(redactResult)
      const c = countOutcomes(results)
      const failures = results.filter((r) => r.outcome === 'fail')
      const warnings = results.filter((r) => r.outcome === 'warn')
      if (failures.length) {
        out.write(`\n${paint('bold', 'Failures')} (a stated rule of the contract is broken)\n`)
        for (const r of failures) writeDetail(out, r, paint('red', LABEL.fail), paint)
      }
      if (warnings.length) {
        out.write(`\n${paint('bold', 'Warnings')} (departures from an assumed rule: allowed, but worth a look)\n`)
        for (const r of warnings)
          out.write(
            `${paint('yellow', 'WARN')} ${r.id}  ${r.title}${r.rules.length ? `  [${r.rules.join(', ')}]` : ''}\n${r.message ? `     ${r.message}\n` : ''}`,
          )
      }
      const skips = skipGroups(results)
      if (skips.length) {
        const n = skips.reduce((sum, g) => sum + g.ids.length, 0)
        out.write(`\n${paint('bold', 'Skipped')} (${n} case(s), ${skips.length} reason(s); each reason once)\n`)
        for (const g of skips) {
          const shown = g.ids.slice(0, 6).join(', ') + (g.ids.length > 6 ? `, … (${g.ids.length - 6} more)` : '')
          out.write(`${paint('dim', 'SKIP')} ${g.ids.length} × ${g.reason}\n     ${shown}\n`)
        }
      }
      const xfails = results.filter((r) => r.outcome === 'xfail')
      if (xfails.length)
        out.write(
          `\n${xfails.length} expected failure(s) still failing, as listed: ${xfails
            .slice(0, 5)
            .map((r) => r.id)
            .join(', ')}${xfails.length > 5 ? ', ...' : ''}\n`,
        )
      const verdict = exitCodeFor(results) === 0 ? paint('green', 'PASSED') : paint('red', 'FAILED')
      out.write(`\n${paint('bold', `${s.suite}`)} against ${s.target}: ${verdict}\n`)
      out.write(
        `  ${results.length} cases in ${(s.durationMs / 1000).toFixed(1)} s: ` +
          `${c.pass} passed, ${c.fail} failed, ${c.warn} warnings, ${c.xfail} expected failures, ${c.skip} skipped\n`,
      )
      out.write(
        paint(
          'dim',
          '  failed  = the target breaks a rule the contract states (exit code 1)\n' +
            '  warning = the target differs where the contract is silent and the toolkit assumed a choice (exit code stays 0)\n' +
            '  Rule ids ([SIG-2], ...) are explained in spec/rules.yaml; re-run one case with --only <id>.\n',
        ),
      )
    },
  }
}

/** Skipped cases grouped by reason, the largest group first, so a run prints each reason once. */
export function skipGroups(results: readonly CaseResult[]): { reason: string; ids: string[] }[] {
  const byReason = new Map<string, string[]>()
  for (const r of results) {
    if (r.outcome !== 'skip') continue
    const reason = r.message || '(no reason given)'
    const ids = byReason.get(reason)
    if (ids) ids.push(r.id)
    else byReason.set(reason, [r.id])
  }
  return [...byReason].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => b.ids.length - a.ids.length)
}

function writeDetail(out: NodeJS.WritableStream, r: CaseResult, label: string, paint: (c: keyof typeof ANSI, s: string) => string): void {
  out.write(`${label} ${r.id}  ${r.title}\n`)
  if (r.rules.length) out.write(`     rules:    ${r.rules.join(', ')}\n`)
  if (r.message) out.write(`     problem:  ${r.message}\n`)
  for (const [k, v] of Object.entries(r.details ?? {})) {
    if (v === undefined) continue
    const lines = v.split('\n')
    out.write(`     ${(k + ':').padEnd(9)} ${lines[0]}\n`)
    for (const l of lines.slice(1)) out.write(`               ${l}\n`)
  }
  void paint
}

// ---------------------------------------------------------------- json

function jsonReporter(out: NodeJS.WritableStream): Reporter {
  return {
    onResult() {},
    finish(s) {
      const results = s.results.map(redactResult)
      const doc = {
        suite: s.suite,
        target: s.target,
        startedAt: s.startedAt,
        durationMs: s.durationMs,
        ok: exitCodeFor(results) === 0,
        counts: countOutcomes(results),
        results,
        ...(s.campaign ? { campaign: s.campaign } : {}),
      }
      out.write(JSON.stringify(doc, null, 2) + '\n')
    },
  }
}

// ---------------------------------------------------------------- junit

/** The family a case belongs to: the id up to its first '/' or '.' (JUnit's classname). */
export function familyOf(id: string): string {
  const m = /^[^/.]+/.exec(id)
  return m ? m[0] : id
}

function junitReporter(out: NodeJS.WritableStream): Reporter {
  const junit = junitBuilder()
  return {
    onResult() {},
    finish(s) {
      const builder = junit.newBuilder()
      const suite = builder
        .testSuite()
        .name(s.suite)
        .timestamp(s.startedAt)
        .time(s.durationMs / 1000)
      suite.property('target', s.target)
      for (const raw of s.results) {
        const r = redactResult(raw)
        const tc = suite
          .testCase()
          .className(familyOf(r.id))
          .name(`${r.id} ${r.title}`)
          .time(r.durationMs / 1000)
        tc.property('rules', r.rules.join(','))
        tc.property('level', r.level)
        const detail = [
          r.message,
          ...Object.entries(r.details ?? {})
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => `${k}: ${v}`),
        ]
          .filter(Boolean)
          .join('\n')
        if (r.outcome === 'fail') tc.failure(`${r.message ?? 'failed'} [${r.rules.join(', ')}]`, 'conformance').standardOutput(detail)
        else if (r.outcome === 'skip') tc.skipped()
        else if (r.outcome === 'xfail') tc.skipped().standardOutput(`expected failure: ${detail}`)
        else if (r.outcome === 'warn') tc.standardOutput(`warning: ${detail}`)
      }
      out.write(builder.build() + '\n')
    },
  }
}

// ---------------------------------------------------------------- html

function htmlReporter(out: NodeJS.WritableStream, meta: HtmlMeta): Reporter {
  return {
    onResult() {},
    finish(s) {
      out.write(renderRunHtml({ ...s, results: s.results.map(redactResult) }, { ...meta, rules: meta.rules ?? loadRules() }))
    },
  }
}
