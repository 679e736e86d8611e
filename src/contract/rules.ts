/**
 * The rule catalog (spec/rules.yaml): every normative statement of the contract with a stable
 * id, the section it comes from and its level. Runners tag results with these ids; `oec
 * coverage` checks that every stated rule has at least one check.
 */
import { readFileSync } from 'node:fs'
import { InputError } from '../errors.ts'
import { loadCoreYaml } from './js-yaml.ts'
import { packagePath } from '../package-root.ts'

/** Stated: the seed says it (a departure fails). Assumed: the toolkit picked it (a departure warns). */
export type Level = 'stated' | 'assumed'

export const DEFAULT_RULES_PATH = packagePath('spec', 'rules.yaml')

export interface Rule {
  readonly id: string
  readonly section: string
  readonly level: Level
  readonly text: string
  readonly retired?: boolean
  /** Guidance to client authors with nothing on the wire to check. */
  readonly advice?: boolean
}

const ID = /^[A-Z]+-[0-9]+$/

export function parseRules(text: string, file = 'rules.yaml'): Rule[] {
  let doc: unknown
  try {
    // Plain data without positions: the fast parser (every command that loads a contract reads this file).
    doc = loadCoreYaml(text)
  } catch (err) {
    throw new InputError(`${file}: not YAML (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`)
  }
  const list = (doc as { rules?: unknown } | null)?.rules
  if (!Array.isArray(list)) throw new InputError(`${file}: expected a top-level "rules:" list`)
  const seen = new Set<string>()
  return list.map((raw, i) => {
    const r = (raw ?? {}) as Record<string, unknown>
    const where = `${file}: rule #${i + 1}${typeof r.id === 'string' ? ` (${r.id})` : ''}`
    if (typeof r.id !== 'string' || !ID.test(r.id)) throw new InputError(`${where}: id must look like AUTH-1`)
    if (seen.has(r.id)) throw new InputError(`${where}: duplicate id`)
    seen.add(r.id)
    if (r.level !== 'stated' && r.level !== 'assumed') throw new InputError(`${where}: level must be stated or assumed`)
    if (typeof r.section !== 'string' || !r.section) throw new InputError(`${where}: section is missing`)
    if (typeof r.text !== 'string' || !r.text) throw new InputError(`${where}: text is missing`)
    return {
      id: r.id,
      section: r.section,
      level: r.level,
      text: r.text,
      ...(r.retired === true ? { retired: true } : {}),
      ...(r.advice === true ? { advice: true } : {}),
    }
  })
}

let cached: Rule[] | undefined
export function loadRules(path: string = DEFAULT_RULES_PATH): Rule[] {
  if (path === DEFAULT_RULES_PATH && cached) return cached
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    throw new InputError(`cannot read the rule catalog ${path}`)
  }
  const rules = parseRules(text, path)
  if (path === DEFAULT_RULES_PATH) cached = rules
  return rules
}
