/** Renders findings: text (default), a changelog-ready markdown section, JSON, or GitHub workflow annotations. */
import { getPointer } from '../contract/model.ts'
import type { DiffSpec } from './input.ts'
import { SEVERITY_RANK, type DiffFinding, type DiffSeverity } from './model.ts'

export type DiffFormat = 'text' | 'markdown' | 'json' | 'github'
export const DIFF_FORMATS: readonly DiffFormat[] = ['text', 'markdown', 'json', 'github']

export interface FormatContext {
  readonly base: DiffSpec
  readonly head: DiffSpec
  /** File path that github annotations point at (the head spec). */
  readonly headPath: string
}

const ORDER: readonly DiffSeverity[] = ['breaking', 'warning', 'info']

export function countBySeverity(findings: readonly DiffFinding[]): Record<DiffSeverity, number> {
  const n = { breaking: 0, warning: 0, info: 0 }
  for (const f of findings) n[f.severity]++
  return n
}

/** True when a finding at or above `failOn` exists: the exit code is then 1. */
export function failsOn(findings: readonly DiffFinding[], failOn: DiffSeverity): boolean {
  return findings.some((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[failOn])
}

function summary(findings: readonly DiffFinding[]): string {
  const n = countBySeverity(findings)
  return `${n.breaking} breaking, ${n.warning} warning, ${n.info} info`
}

export function formatText(findings: readonly DiffFinding[], ctx: FormatContext): string {
  const lines = findings.map((f) => `${f.severity.padEnd(8)} ${f.id} ${f.pointer || '/'}\n         ${f.message}`)
  lines.push(`${ctx.base.file} → ${ctx.head.file}: ${summary(findings)}`)
  return lines.join('\n') + '\n'
}

const HEADINGS: Readonly<Record<DiffSeverity, string>> = { breaking: 'Breaking changes', warning: 'Warnings', info: 'Other changes' }

/** Escapes markdown outside code spans; text inside backticks stays literal. */
function escapeMarkdown(s: string): string {
  return s
    .split('`')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([\\*_[\]<>|])/g, '\\$1')))
    .join('`')
}

export function formatMarkdown(findings: readonly DiffFinding[], ctx: FormatContext): string {
  const from = ctx.base.version
  const to = ctx.head.version
  const out = [`## API changes ${from === to ? `in ${to}` : `from ${from} to ${to}`}`, '']
  if (findings.length === 0) {
    out.push('No changes that affect clients.', '')
    return out.join('\n')
  }
  out.push(`${summary(findings)}.`, '')
  for (const sev of ORDER) {
    const group = findings.filter((f) => f.severity === sev)
    if (group.length === 0) continue
    out.push(`### ${HEADINGS[sev]} (${group.length})`, '')
    for (const f of group) out.push(`- **${f.id}**: ${escapeMarkdown(f.message)} (\`${f.pointer || '/'}\`)`)
    out.push('')
  }
  return out.join('\n')
}

export function formatJson(findings: readonly DiffFinding[]): string {
  return JSON.stringify(findings, null, 2) + '\n'
}

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')
const COMMAND: Readonly<Record<DiffSeverity, string>> = { breaking: 'error', warning: 'warning', info: 'notice' }

/**
 * Where a finding's annotation goes: the keyword that changed. A property that became required or
 * optional changed its schema's `required:` list, not the property: the line of its entry there
 * (became required), or of the list (became optional, when the head still has one); any other
 * finding, the line of its pointer.
 */
export function annotationPointer(f: DiffFinding, head: DiffSpec): string {
  const m = /^(.*)\/properties\/([^/]+)$/.exec(f.pointer)
  if (!m || !/-became-(required|optional)/.test(f.id)) return f.pointer
  const required = getPointer(head.doc, `${m[1]}/required`)
  if (!Array.isArray(required)) return f.pointer
  const i = required.indexOf(m[2]!.replace(/~1/g, '/').replace(/~0/g, '~'))
  return i >= 0 ? `${m[1]}/required/${i}` : `${m[1]}/required`
}

/** One `::error|warning|notice file=…,line=…,title=<rule-id>::<sentence>` line per finding, at the changed keyword. */
export function formatGithub(findings: readonly DiffFinding[], ctx: FormatContext): string {
  return findings
    .map(
      (f) =>
        `::${COMMAND[f.severity]} file=${escapeProperty(ctx.headPath)},line=${ctx.head.lineOf(annotationPointer(f, ctx.head))},title=${escapeProperty(f.id)}::${escapeData(f.message)}\n`,
    )
    .join('')
}

export function formatDiff(findings: readonly DiffFinding[], format: DiffFormat, ctx: FormatContext): string {
  switch (format) {
    case 'json':
      return formatJson(findings)
    case 'markdown':
      return formatMarkdown(findings, ctx)
    case 'github':
      return formatGithub(findings, ctx)
    default:
      return formatText(findings, ctx)
  }
}
