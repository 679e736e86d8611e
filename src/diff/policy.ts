/**
 * `--severity FILE`: lines `rule-id breaking|warning|info|none` (oasdiff's `err|warn` spellings
 * accepted) raise, lower or silence a rule. Blank lines and `#` comments are ignored.
 */
import { readFileSync } from 'node:fs'
import { InputError } from '../errors.ts'
import type { DiffLevel, DiffSeverity } from './model.ts'
import { isRuleId } from './registry.ts'

const LEVELS: Readonly<Record<string, DiffLevel>> = {
  breaking: 'breaking',
  err: 'breaking',
  error: 'breaking',
  warning: 'warning',
  warn: 'warning',
  info: 'info',
  none: 'none',
}

export function parseSeverityText(text: string, file: string): Map<string, DiffLevel> {
  const out = new Map<string, DiffLevel>()
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim()
    if (line === '') return
    const where = `${file}:${i + 1}`
    const parts = line.split(/\s+/)
    if (parts.length !== 2) throw new InputError(`${where}: expected "rule-id breaking|warning|info|none", got "${line}"`)
    const [id, level] = parts as [string, string]
    if (!isRuleId(id)) throw new InputError(`${where}: unknown rule id "${id}"`)
    const lv = LEVELS[level.toLowerCase()]
    if (!lv) throw new InputError(`${where}: unknown level "${level}" for ${id} (use breaking, warning, info or none)`)
    out.set(id, lv)
  })
  return out
}

export function loadSeverityFile(path: string): Map<string, DiffLevel> {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    throw new InputError(`cannot read severity file ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')}`)
  }
  return parseSeverityText(text, path)
}

/** `--fail-on`: breaking|warning|info, or oasdiff's ERR|WARN|INFO (any case). */
export function failOnLevel(word: string): DiffSeverity | undefined {
  const level = LEVELS[word.toLowerCase()]
  return level === 'none' ? undefined : level
}
